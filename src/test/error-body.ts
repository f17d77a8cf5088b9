/** A refusal of a proxy route of ours, `{error, code, hint}`, built through its schema. */
import type { z } from 'zod';
import { apiErrorSchema } from '../lib/api/route-contract.ts';

export function errorBody(
  code: string,
  error: string,
  hint: string,
): z.infer<typeof apiErrorSchema> {
  return apiErrorSchema.parse({ error, code, hint });
}

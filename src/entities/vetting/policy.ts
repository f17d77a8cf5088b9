/**
 * The team's vetting policy (`GET /api/local/policy`, docs/vetting.md): its rules' settings and
 * options, the rules' descriptions, and the version shape the policy history and a save answer in.
 * Read by the profile (verdicts), Compare and the Policy page.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet } from '../../lib/api-client.ts';
import {
  CARGO_CLASSES,
  HAZMAT_MODES,
  RULE_IDS,
  readStoredOptions,
  readStoredSettings,
  type Policy,
  type PolicyOptions,
  type PolicySettings,
} from '../../lib/vetting/index.ts';
import { vettingKeys } from './keys.ts';

const ruleInfo = z.object({
  id: z.enum(RULE_IDS),
  label: z.string(),
  description: z.string(),
  tab: z.string(),
  outcomes: z.array(z.enum(['review', 'fail'])),
  threshold: z
    .object({
      label: z.string(),
      unit: z.string(),
      min: z.number(),
      max: z.number(),
      step: z.number().optional(),
    })
    .nullable(),
  // the choices of the list and one-of settings (absent from a proxy that predates them)
  cargo_classes: z
    .array(z.object({ id: z.enum(CARGO_CLASSES), label: z.string() }))
    .nullish()
    .transform((v) => v ?? null),
  hazmat_modes: z
    .array(z.object({ id: z.enum(HAZMAT_MODES), label: z.string() }))
    .nullish()
    .transform((v) => v ?? null),
});
export type RuleInfo = z.infer<typeof ruleInfo>;

/** One version of the policy as the proxy answers it (the history, a save). */
export const policyVersionSchema = z.object({
  version: z.number().int(),
  settings: z.unknown(),
  // an older proxy answers without options: read as the defaults
  options: z.object({ max_revet_days: z.number().int() }).optional(),
  created_by: z.string(),
  created_at: z.string().nullable(),
  changes: z.array(z.string()),
  note: z.string().nullable(),
});

const policyBody = policyVersionSchema.extend({ rules: z.array(ruleInfo) });

export interface PolicyVersion {
  version: number;
  settings: PolicySettings;
  options: PolicyOptions;
  created_by: string;
  created_at: string | null;
  changes: string[];
  note: string | null;
}

export interface CurrentPolicy extends PolicyVersion {
  rules: RuleInfo[];
}

/** A stored version with its settings and options read as the engine takes them. */
export function toVersion(body: z.infer<typeof policyVersionSchema>): PolicyVersion {
  return {
    ...body,
    settings: readStoredSettings(body.settings),
    options: readStoredOptions(body.options),
  };
}

function policyQuery() {
  return queryOptions({
    queryKey: vettingKeys.policy,
    queryFn: async ({ signal }): Promise<CurrentPolicy> => {
      const body = policyBody.parse(await apiGet('/api/local/policy', {}, { signal }));
      return { ...toVersion(body), rules: body.rules };
    },
  });
}

/** The current policy as the engine takes it. */
export function enginePolicy(policy: PolicyVersion): Policy {
  return { version: policy.version, settings: policy.settings };
}

export function usePolicy() {
  return useQuery(policyQuery());
}

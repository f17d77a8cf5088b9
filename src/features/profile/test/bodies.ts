/**
 * Answers of the proxy's profile routes for tests that answer the SPA from their own server, built
 * through the route's schema (src/lib/carrier/contract.ts): a body the proxy could not send fails
 * here rather than passing a test the real proxy would fail. Refusals: src/test/error-body.ts.
 */
import { profileSummarySchema } from '../../../lib/carrier/contract.ts';

/** `GET /api/local/profile-summary`: the envelope of these items (their long histories left out). */
export function profileSummaryBody(items: readonly Record<string, unknown>[]) {
  return profileSummarySchema.parse({ items, total_count: items.length });
}

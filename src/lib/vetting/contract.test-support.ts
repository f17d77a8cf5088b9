/**
 * Answers of the vetting routes for SPA tests that stub `fetch`: each built from a typed object and
 * parsed with the contract's schema (src/lib/vetting/contract.ts), so a stubbed body can never have
 * a shape the proxy's route would not answer with.
 */
import type { z } from 'zod';
import { currentDecisionSchema, type CurrentDecision } from './contract.ts';

/** A current decision as `GET /api/local/decisions/current` answers it; `over` replaces fields. */
export function currentDecisionBody(
  dot: string,
  over: Partial<z.input<typeof currentDecisionSchema>> = {},
): CurrentDecision {
  return currentDecisionSchema.parse({
    id: Number(dot),
    hash: 'a'.repeat(64),
    prev_hash: '0'.repeat(64),
    dot_number: dot,
    decision: 'approved',
    note: null,
    conditions: null,
    expires_on: null,
    supersedes: null,
    user: { id: 'ana', name: 'Ana' },
    decided_at: '2026-11-20T10:00:00.000Z',
    policy_version: 1,
    verdict: {
      verdict: 'review',
      policy_version: 1,
      evaluated_at: '2026-11-20T10:00:00.000Z',
      snapshot_date: null,
      reasons: [],
    },
    profile: {
      snapshot_date: null,
      fetched_at: '2026-11-20T09:59:00.000Z',
      identity: [],
      authority: [],
      insurance: [],
      safety: [],
    },
    now: null,
    standing: 'unknown',
    needs_revet: false,
    override: false,
    revet_due: null,
    ...over,
  });
}

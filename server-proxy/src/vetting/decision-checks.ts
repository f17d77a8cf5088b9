/**
 * The checks a decision record passes before it is stored (issue 29): its re-vet date lies between
 * today (the proxy's clock, UTC day) and the policy's `max_revet_days` ahead, and an approval of a
 * carrier the policy fails or sends to review says why (`override_reason`). Also the re-vet queue's
 * route, `GET /api/local/decisions/revet-due`.
 */
import type { FastifyInstance } from 'fastify';
import { MAX_OVERRIDE_CHARS, revetDueRoute } from '../../../src/lib/vetting/contract.ts';
import { ApiError } from '../http/api-error.ts';
import { contractRoute } from '../http/contract-route.ts';
import { MAX_REVET_DAYS, type Policy } from '../../../src/lib/vetting/index.ts';
import type { Unless } from './refuse.ts';
import { REVET_WINDOW_DAYS, dayOf, type Decision, type VettingSqlStore } from './store.ts';

const EXPIRES_HINT =
  'Leave "expires_on" out, or give a day from today up to the policy\u2019s max_revet_days ahead (GET /api/local/policy).';

/** How far ahead a re-vet date may be under `policy` (its options, else the default 365). */
export function maxRevetDays(policy: Pick<Policy, 'options'>): number {
  return policy.options?.max_revet_days ?? MAX_REVET_DAYS.default;
}

/** A 400 when `expiresOn` is before `now`'s UTC day or more than `maxDays` after it. */
export function expiresOnProblem(
  expiresOn: string | null,
  now: Date,
  maxDays: number,
): ApiError | undefined {
  if (expiresOn === null) return undefined;
  const today = dayOf(now);
  if (expiresOn < today) {
    return new ApiError(
      400,
      'invalid_expires_on',
      `The re-vet date ${expiresOn} is in the past (today is ${today}, UTC)`,
      EXPIRES_HINT,
    );
  }
  const latest = dayOf(now, maxDays);
  if (expiresOn > latest) {
    return new ApiError(
      400,
      'invalid_expires_on',
      `The re-vet date ${expiresOn} is more than ${maxDays} days ahead, the policy\u2019s maximum (latest ${latest})`,
      EXPIRES_HINT,
    );
  }
  return undefined;
}

/** Does recording `decision` against `verdict` override it (an approval of a fail or review)? */
export function isOverride(decision: Decision, verdict: string): boolean {
  return (
    (decision === 'approved' || decision === 'approved_with_conditions') &&
    (verdict === 'fail' || verdict === 'review')
  );
}

/** The 409 of an override without its reason: names the verdict, the policy and the reasons. */
export function overrideRequired(verdict: {
  verdict: string;
  policy_version: number;
  reasons?: readonly { outcome?: string }[];
}): ApiError {
  const count = (verdict.reasons ?? []).filter((r) => r.outcome === verdict.verdict).length;
  const what = verdict.verdict === 'fail' ? 'fails' : 'needs review under';
  const reasons = count > 0 ? ` (${count} reason${count === 1 ? '' : 's'})` : '';
  return new ApiError(
    409,
    'override_reason_required',
    `This carrier ${what} policy v${verdict.policy_version}${reasons}: an approval needs an override reason`,
    `Send "override_reason": why you approve it anyway (1 to ${MAX_OVERRIDE_CHARS} characters), or record a rejection.`,
  );
}

/**
 * `GET /api/local/decisions/revet-due` → `{overdue, soon, items}`: the current decisions whose
 * re-vet date has passed or falls within 14 days of today (the proxy's clock), most overdue first.
 */
export function registerRevetDueRoute(
  app: FastifyInstance,
  store: VettingSqlStore,
  now: () => Date,
  unless: Unless,
): void {
  contractRoute(app, revetDueRoute, {}, async (request, reply) =>
    unless(request, reply, async () => {
      const items = await store.revetDue({ asOf: now(), withinDays: REVET_WINDOW_DAYS });
      reply.header('cache-control', 'private, no-store');
      return {
        as_of: dayOf(now()),
        within_days: REVET_WINDOW_DAYS,
        overdue: items.filter((item) => item.due === 'overdue').length,
        soon: items.filter((item) => item.due === 'soon').length,
        items,
      };
    }),
  );
}

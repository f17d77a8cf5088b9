/**
 * What the "Record a decision" form checks before it sends, in words (issue 29): an approval of a
 * carrier the policy fails or sends to review says why (`override_reason`), and a re-vet date lies
 * between today and the policy's `max_revet_days` ahead (UTC days, as the proxy counts them). The
 * proxy checks the same and answers 409 / 400; these messages say it before the round trip.
 */
import type { Decision } from '../../../../lib/vetting/decision-record.ts';
import type { DecisionInput } from '../../api/verdict.ts';
import type { Outcome } from '../../../../lib/vetting/index.ts';

/** The longest override reason the proxy keeps. */
export const MAX_OVERRIDE = 2000;

const DAY_MS = 86_400_000;

/** Does approving under `verdict` override it? */
export function needsOverride(decision: Decision | undefined, verdict: Outcome): boolean {
  return (
    (decision === 'approved' || decision === 'approved_with_conditions') &&
    (verdict === 'fail' || verdict === 'review')
  );
}

/** "This carrier fails policy v2 (3 reasons). Say why you approve it anyway." */
export function overridePrompt(verdict: Outcome, policyVersion: number, reasons: number): string {
  const counted = reasons > 0 ? ` (${reasons} reason${reasons === 1 ? '' : 's'})` : '';
  const what =
    verdict === 'fail'
      ? `fails policy v${policyVersion}${counted}`
      : `needs review under policy v${policyVersion}${counted}`;
  return `This carrier ${what}. Say why you approve it anyway.`;
}

/** The re-vet dates the proxy accepts today: from today to `maxDays` ahead (UTC days). */
export function revetBounds(now: Date, maxDays: number): { min: string; max: string } {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { min: day(now.getTime()), max: day(now.getTime() + maxDays * DAY_MS) };
}

export interface FormProblem {
  field: 'override' | 'expires';
  message: string;
}

interface FormState {
  decision: Decision | undefined;
  /** asked for: the verdict needs it, or the proxy answered override_reason_required */
  overrideAsked: boolean;
  overrideReason: string;
  expires: string;
  bounds: { min: string; max: string };
  maxDays: number;
}

/** The first thing the form would be refused for, in words; undefined when it may be sent. */
export function formProblem(state: FormState): FormProblem | undefined {
  const approval = state.decision === 'approved' || state.decision === 'approved_with_conditions';
  if (approval && state.overrideAsked && state.overrideReason.trim() === '') {
    return {
      field: 'override',
      message: 'Say why you approve this carrier anyway: an override needs its reason.',
    };
  }
  if (state.overrideReason.trim().length > MAX_OVERRIDE) {
    return {
      field: 'override',
      message: `The override reason is over ${MAX_OVERRIDE} characters.`,
    };
  }
  const { expires, bounds } = state;
  if (expires !== '' && expires < bounds.min) {
    return {
      field: 'expires',
      message: `The re-vet date ${expires} is in the past: choose ${bounds.min} or later.`,
    };
  }
  if (expires !== '' && expires > bounds.max) {
    return {
      field: 'expires',
      message: `The re-vet date ${expires} is more than ${state.maxDays} days ahead (the policy’s maximum): choose ${bounds.max} or earlier.`,
    };
  }
  return undefined;
}

/** The body sent: empty fields left out; the override reason only with an approval that asks it. */
export function decisionBody(
  dot: string,
  decision: Decision,
  fields: { note: string; conditions: string; expires: string; overrideReason: string },
  overrideAsked: boolean,
): DecisionInput {
  const reason = fields.overrideReason.trim();
  const approval = decision === 'approved' || decision === 'approved_with_conditions';
  return {
    dot_number: dot,
    decision,
    ...(fields.note.trim() ? { note: fields.note } : {}),
    ...(fields.conditions.trim() ? { conditions: fields.conditions } : {}),
    ...(fields.expires ? { expires_on: fields.expires } : {}),
    ...(approval && overrideAsked && reason ? { override_reason: reason } : {}),
  };
}

/** The machine code of a proxy's refusal (ApiError), if it has one. */
export function refusalCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Which field a refusal of the proxy is about, so the form can point at it. */
export function refusedField(error: unknown): FormProblem['field'] | undefined {
  const code = refusalCode(error);
  if (code === 'override_reason_required' || code === 'invalid_override_reason') return 'override';
  return code === 'invalid_expires_on' ? 'expires' : undefined;
}

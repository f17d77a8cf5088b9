import { describe, expect, it } from 'vitest';
import {
  decisionBody,
  formProblem,
  needsOverride,
  overridePrompt,
  refusedField,
  revetBounds,
} from './decision-form.ts';

const bounds = revetBounds(new Date('2026-11-29T23:30:00Z'), 365);
const base = {
  decision: 'approved' as const,
  overrideAsked: true,
  overrideReason: '',
  expires: '',
  bounds,
  maxDays: 365,
};

describe('the decision form', () => {
  it('asks for an override reason when an approval meets a Fail or Review verdict', () => {
    expect(needsOverride('approved', 'fail')).toBe(true);
    expect(needsOverride('approved_with_conditions', 'review')).toBe(true);
    expect(needsOverride('approved', 'pass')).toBe(false);
    expect(needsOverride('rejected', 'fail')).toBe(false);
    expect(needsOverride('do_not_use', 'review')).toBe(false);
    expect(needsOverride(undefined, 'fail')).toBe(false);
  });

  it('says in words what the policy found', () => {
    expect(overridePrompt('fail', 2, 3)).toBe(
      'This carrier fails policy v2 (3 reasons). Say why you approve it anyway.',
    );
    expect(overridePrompt('review', 1, 1)).toBe(
      'This carrier needs review under policy v1 (1 reason). Say why you approve it anyway.',
    );
  });

  it('refuses an override without its reason, and a blank one', () => {
    expect(formProblem(base)).toEqual({
      field: 'override',
      message: 'Say why you approve this carrier anyway: an override needs its reason.',
    });
    expect(formProblem({ ...base, overrideReason: '   ' })?.field).toBe('override');
    expect(formProblem({ ...base, overrideReason: 'x'.repeat(2001) })?.field).toBe('override');
    expect(formProblem({ ...base, overrideReason: 'Letter on file' })).toBeUndefined();
    expect(formProblem({ ...base, decision: 'rejected' })).toBeUndefined();
    expect(formProblem({ ...base, overrideAsked: false })).toBeUndefined();
  });

  it('keeps the re-vet date between today (UTC) and the policy maximum', () => {
    expect(bounds).toEqual({ min: '2026-11-29', max: '2027-11-29' });
    const ok = { ...base, overrideReason: 'ok' };
    expect(formProblem({ ...ok, expires: '2026-11-28' })).toEqual({
      field: 'expires',
      message: 'The re-vet date 2026-11-28 is in the past: choose 2026-11-29 or later.',
    });
    expect(formProblem({ ...ok, expires: '2027-11-30' })).toEqual({
      field: 'expires',
      message:
        'The re-vet date 2027-11-30 is more than 365 days ahead (the policy’s maximum): choose 2027-11-29 or earlier.',
    });
    expect(formProblem({ ...ok, expires: '2026-11-29' })).toBeUndefined();
    expect(formProblem({ ...ok, expires: '2027-11-29' })).toBeUndefined();
    expect(revetBounds(new Date('2026-11-29T00:00:00Z'), 30).max).toBe('2026-12-29');
  });

  it('sends the reason trimmed, only with an approval that asks it', () => {
    const fields = { note: ' ', conditions: '', expires: '2027-01-04', overrideReason: '  why  ' };
    expect(decisionBody('3187452', 'approved', fields, true)).toEqual({
      dot_number: '3187452',
      decision: 'approved',
      expires_on: '2027-01-04',
      override_reason: 'why',
    });
    expect(decisionBody('3187452', 'rejected', fields, true)).not.toHaveProperty('override_reason');
    expect(decisionBody('3187452', 'approved', fields, false)).not.toHaveProperty(
      'override_reason',
    );
  });

  it('points at the field the proxy refused', () => {
    expect(refusedField({ code: 'override_reason_required' })).toBe('override');
    expect(refusedField({ code: 'invalid_expires_on' })).toBe('expires');
    expect(refusedField({ code: 'unknown_dot' })).toBeUndefined();
    expect(refusedField(null)).toBeUndefined();
  });
});

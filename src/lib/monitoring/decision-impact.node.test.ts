// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { sandboxProfile } from '../../test/sandbox-profiles.node.ts';
import type { DecisionRecord } from '../vetting/decision-record.ts';
import { defaultSettings, evaluate } from '../vetting/index.ts';
import { decisionImpact, impactFirst } from './decision-impact.ts';
import type { InboxChange } from './inbox.ts';

const POLICY = { version: 1, settings: defaultSettings() };

function record(dot: string, decision: DecisionRecord['decision']): DecisionRecord {
  const verdict = evaluate(sandboxProfile(dot).parsed.value, POLICY);
  return {
    id: 1,
    hash: 'h',
    prev_hash: 'p',
    dot_number: dot,
    decision,
    note: null,
    conditions: null,
    expires_on: null,
    supersedes: null,
    user: { id: 'local', name: 'local' },
    decided_at: '2026-11-17T10:00:00.000Z',
    policy_version: 1,
    verdict: { ...verdict, evaluated_at: '2026-11-17T10:00:00.000Z' },
    profile: {
      snapshot_date: verdict.snapshot_date,
      fetched_at: '2026-11-17T10:00:00.000Z',
      identity: [],
      authority: [],
      insurance: [],
      safety: [],
    },
  };
}

function change(field: string, current: InboxChange['current'], date = '2026-11-20'): InboxChange {
  return {
    id: field,
    profileId: '568253-MC277621',
    dot: '568253',
    docket: 'MC277621',
    date,
    field,
    prior: null,
    current,
    channel: undefined,
  };
}

describe('decision impact of monitored changes', () => {
  const approved = record('568253', 'approved');

  it('marks an approved carrier that now fails, or now needs review', () => {
    expect(decisionImpact(approved, [change('usdot_status', 'Inactive')], POLICY)).toBe('fails');
    expect(decisionImpact(approved, [change('safety_rating_desc', 'Conditional')], POLICY)).toBe(
      'needs-review',
    );
    expect(decisionImpact(approved, [change('telephone_number', '5555550100')], POLICY)).toBe(
      'needs-review',
    );
  });

  it('leaves alone changes that do not worsen the verdict, older changes and other decisions', () => {
    expect(decisionImpact(approved, [change('total_power_units', 900)], POLICY)).toBeUndefined();
    expect(
      decisionImpact(approved, [change('usdot_status', 'Inactive', '2026-11-01')], POLICY),
    ).toBeUndefined();
    expect(
      decisionImpact(record('568253', 'rejected'), [change('usdot_status', 'Inactive')], POLICY),
    ).toBeUndefined();
    expect(decisionImpact(undefined, [change('usdot_status', 'Inactive')], POLICY)).toBeUndefined();
    // approved at Review: another review-level change is not worse
    const review = record('2456781', 'approved_with_conditions');
    expect(review.verdict.verdict).toBe('review');
    expect(
      decisionImpact(review, [change('safety_rating_desc', 'Conditional')], POLICY),
    ).toBeUndefined();
    expect(decisionImpact(review, [change('safety_rating_desc', 'Unsatisfactory')], POLICY)).toBe(
      'fails',
    );
  });

  it('sorts impacted rows first, fails before needs review, the rest in order', () => {
    const rows = [
      { id: 'a' },
      { id: 'b', impact: 'needs-review' as const },
      { id: 'c' },
      { id: 'd', impact: 'fails' as const },
    ];
    expect(impactFirst(rows).map((row) => row.id)).toEqual(['d', 'b', 'a', 'c']);
  });
});

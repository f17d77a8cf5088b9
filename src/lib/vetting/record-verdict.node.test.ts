/**
 * The verdict of a policy on what a decision record kept (record-verdict.ts) agrees with the verdict
 * of the same policy on the whole profile, for every curated sandbox carrier and policies that
 * change outcomes, turn rules off and on and move thresholds; monitoring changes laid over the
 * record move it as the new profile would.
 */
import { describe, expect, it } from 'vitest';
import { CURATED_DOTS, sandboxProfile } from '../../test/sandbox-profiles.node.ts';
import { evaluate } from './evaluate.ts';
import { defaultSettings } from './policy.ts';
import { recordVerdict } from './record-verdict.ts';
import type { Policy, PolicySettings, RuleId, RuleSettings } from './types.ts';

const V1: Policy = { version: 1, settings: defaultSettings() };
const NOW = new Date('2026-11-29T00:00:00Z');

function variant(version: number, changes: Partial<Record<RuleId, Partial<RuleSettings>>>): Policy {
  const settings = structuredClone(V1.settings) as PolicySettings;
  for (const [rule, change] of Object.entries(changes)) {
    Object.assign(settings[rule as RuleId], change);
  }
  return { version, settings };
}

const VARIANTS: Record<string, Policy> = {
  'shared identifiers fail': variant(2, { shared_identifiers: { outcome: 'fail' } }),
  'BASICs, conditional rating and OOS off': variant(3, {
    basic_alerts: { enabled: false },
    rating_conditional: { enabled: false },
    oos_rates: { enabled: false },
  }),
  'new entrant 180 days, contact changes 7 days': variant(4, {
    new_entrant: { threshold: 180 },
    contact_changes: { threshold: 7 },
  }),
  'rating conditional fails, no data reviews': variant(5, {
    rating_conditional: { outcome: 'fail', no_data: 'review' },
    pending_cancellation: { no_data: 'review' },
  }),
};

function profileOf(dot: string) {
  return sandboxProfile(dot).parsed.value;
}

describe('recordVerdict', () => {
  for (const dot of CURATED_DOTS) {
    it(`agrees with the profile's verdict for ${dot} under changed policies`, () => {
      const profile = profileOf(dot);
      const kept = evaluate(profile, V1, NOW);
      for (const [name, policy] of Object.entries(VARIANTS)) {
        const fromRecord = recordVerdict(kept, [], policy, {
          now: NOW,
          recordedSettings: V1.settings,
        });
        const fromProfile = evaluate(profile, policy, NOW);
        expect(fromRecord.verdict, name).toBe(fromProfile.verdict);
        expect(
          fromRecord.reasons.filter((r) => r.outcome !== 'pass').map((r) => [r.rule, r.outcome]),
          name,
        ).toEqual(
          fromProfile.reasons.filter((r) => r.outcome !== 'pass').map((r) => [r.rule, r.outcome]),
        );
        expect(fromRecord.policy_version).toBe(policy.version);
      }
    });
  }

  it('lays monitoring changes over the record: revoked authority and out of service fail', () => {
    const kept = evaluate(profileOf('568253'), V1, NOW);
    expect(kept.verdict).toBe('pass');
    const changed = recordVerdict(
      kept,
      [{ field: 'usdot_status', current: 'INACTIVE', date: '2026-11-28' }],
      V1,
      { now: NOW, recordedSettings: V1.settings },
    );
    expect(changed.verdict).toBe('fail');
    expect(changed.reasons[0]).toMatchObject({ rule: 'usdot_status', outcome: 'fail' });
  });

  it('keeps what a rule found when the record lacks the data to judge it again', () => {
    // a record whose evidence was cut: the rules keep their recorded findings
    const kept = evaluate(profileOf('2214589'), V1, NOW);
    const bare = { ...kept, reasons: kept.reasons.map((r) => ({ ...r, fields: [] })) };
    const v2 = VARIANTS['shared identifiers fail'] as Policy;
    expect(recordVerdict(bare, [], v2, { now: NOW, recordedSettings: V1.settings }).verdict).toBe(
      'review',
    );
    const off = VARIANTS['BASICs, conditional rating and OOS off'] as Policy;
    expect(recordVerdict(bare, [], off, { now: NOW, recordedSettings: V1.settings }).verdict).toBe(
      'pass',
    );
  });
});

// @vitest-environment node
/**
 * The header's badges and the verdict never disagree: every curated sandbox carrier (and the
 * live-shape one) is run through both, and each badge the policy judges must carry the tone of its
 * rules' worst outcome: green only when they pass, a warning on review, red on fail.
 */
import { describe, expect, it } from 'vitest';
import { CURATED_DOTS, sandboxProfile } from '../../../test/sandbox-profiles.node.ts';
import {
  defaultSettings,
  evaluate,
  type Outcome,
  type RuleResult,
} from '../../../lib/vetting/index.ts';
import { statusBadges } from './status.ts';

const POLICY = { version: 1, settings: defaultSettings() };
const RANK: Record<Outcome, number> = { pass: 0, review: 1, fail: 2 };
const TONES: Record<Outcome, readonly string[]> = {
  pass: ['good', 'neutral', 'info'],
  review: ['warn'],
  fail: ['bad'],
};

function carrier(dot: string) {
  const profile = sandboxProfile(dot).parsed.value;
  const verdict = evaluate(profile, POLICY);
  const byRule = new Map(verdict.reasons.map((reason) => [reason.rule, reason]));
  const badges = Object.fromEntries(statusBadges(profile).map((badge) => [badge.id, badge]));
  return { profile, verdict, byRule, badges };
}

describe('badges and verdict agree on every curated carrier', () => {
  it.each([...new Set([...CURATED_DOTS, '265752'])])('DOT %s', (dot) => {
    const { verdict, byRule, badges } = carrier(dot);
    const judged = Object.values(badges).filter((badge) => badge.rules.length > 0);
    expect(judged.map((badge) => badge.id)).toEqual(
      expect.arrayContaining(['authority', 'insurance', 'rating', 'carrier-safety']),
    );
    for (const badge of judged) {
      const results = badge.rules.map((rule) => byRule.get(rule));
      expect(results, badge.id).not.toContain(undefined);
      const worst = (results as RuleResult[]).reduce((a, b) =>
        RANK[b.outcome] > RANK[a.outcome] ? b : a,
      );
      expect(TONES[worst.outcome], `${badge.id}: ${badge.value}`).toContain(badge.tone);
      if (badge.tone === 'good') {
        for (const result of results as RuleResult[]) {
          expect(result.not_applicable, `${badge.id} ${result.rule}`).toBeUndefined();
          expect(result.not_enough_data, `${badge.id} ${result.rule}`).toBeUndefined();
        }
      }
    }
    // USDOT status and out of service are shown as stated; together they are the USDOT rule
    const usdotFails = byRule.get('usdot_status')?.outcome === 'fail';
    expect(badges.usdot?.tone === 'bad' || badges.oos?.tone === 'bad').toBe(usdotFails);
    // a verdict short of Pass always shows in at least one badge that is not green
    if (verdict.verdict !== 'pass') {
      const deciding = verdict.reasons.filter((reason) => reason.outcome !== 'pass');
      const shown = deciding.filter((reason) =>
        judged.some((badge) => badge.rules.includes(reason.rule)),
      );
      for (const reason of shown) {
        const badge = judged.find((b) => b.rules.includes(reason.rule));
        expect(badge?.tone, reason.rule).not.toBe('good');
      }
    }
  });

  it('warns of the pending BIPD cancellation of 2456781', () => {
    const { badges, byRule } = carrier('2456781');
    expect(byRule.get('pending_cancellation')?.outcome).toBe('review');
    expect(badges.insurance).toMatchObject({
      value: 'Cancellation pending (11 Dec 2026)',
      tone: 'warn',
    });
  });

  it('does not pass the broker-only 2987310 for hauling', () => {
    const { badges } = carrier('2987310');
    expect(badges.authority?.tone).not.toBe('good');
    expect(badges.authority?.value).toBe('Broker only, no carrier authority');
    expect(badges['carrier-safety']).toMatchObject({ value: 'Not applicable', tone: 'neutral' });
  });
});

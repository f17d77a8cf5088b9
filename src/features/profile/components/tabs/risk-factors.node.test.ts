// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../../lib/service/index.ts';
import { RISK_FACTORS } from '../../../../lib/service/nested.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../test/sandbox-profiles.node.ts';
import { RISK_FACTOR_INFO, readableFlagName, riskFactorItems } from './risk-factors.ts';
import { PROFILE_TABS } from './types.ts';

const LIVE_EXTRAS = ['bond_insurance_below_requirement', 'ins_rrg_active', 'ins_rrg_hist'];

describe('risk factor labels', () => {
  it('label every flag the parser knows (spec list and live extras), and only those', () => {
    const labelled = Object.keys(RISK_FACTOR_INFO).sort();
    expect(labelled).toEqual(Object.keys(RISK_FACTORS).sort());
    for (const flag of LIVE_EXTRAS) expect(labelled).toContain(flag);
  });

  it('cover every flag the sandbox carriers and the live-shape carrier send', () => {
    for (const dot of new Set([...CURATED_DOTS, '265752'])) {
      const { raw } = sandboxProfile(dot);
      const factors = (raw as { risk_factors?: unknown }).risk_factors;
      const object = (Array.isArray(factors) ? factors[0] : factors) as Record<string, unknown>;
      const items = riskFactorItems(sandboxProfile(dot).parsed.value.risk_factors);
      expect(Object.keys(object).length, dot).toBeGreaterThan(30);
      expect(
        items.filter((item) => item.tab === undefined),
        dot,
      ).toEqual([]);
      expect(items.map((item) => item.flag).sort(), dot).toEqual(Object.keys(object).sort());
    }
  });

  it('give each flag a plain label and a tab that exists', () => {
    const tabs = PROFILE_TABS.map((tab) => tab.id as string);
    for (const [flag, info] of Object.entries(RISK_FACTOR_INFO)) {
      expect(info.label, flag).not.toMatch(/_/);
      expect(tabs, flag).toContain(info.tab);
    }
  });
});

describe('riskFactorItems', () => {
  it('groups by polarity: the concerning value is a concern, the other a positive', () => {
    const { value } = parseProfile({
      risk_factors: {
        fatal_crashes_flag: true,
        boc3_on_file: true,
        sixty_mo_in_business: false,
        revocation_last_thirtysix_mo: false,
        hazardous_material: true,
      },
    });
    const byFlag = Object.fromEntries(
      riskFactorItems(value.risk_factors).map((item) => [item.flag, item.group]),
    );
    expect(byFlag).toEqual({
      fatal_crashes_flag: 'concern',
      boc3_on_file: 'positive',
      sixty_mo_in_business: 'concern',
      revocation_last_thirtysix_mo: 'positive',
      hazardous_material: 'fact',
    });
  });

  it('lists unknown flags neutrally with a readable name and no tab', () => {
    const { value } = parseProfile({ risk_factors: [{ brand_new_signal: true, note: 'x' }] });
    expect(riskFactorItems(value.risk_factors)).toEqual([
      {
        flag: 'brand_new_signal',
        value: true,
        label: 'Brand new signal',
        group: 'fact',
        tab: undefined,
      },
    ]);
  });

  it('returns nothing without risk factors', () => {
    expect(riskFactorItems(undefined)).toEqual([]);
    expect(readableFlagName('ins__rrg_')).toBe('Ins rrg');
  });
});

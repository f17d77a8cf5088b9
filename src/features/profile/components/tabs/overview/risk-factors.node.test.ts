// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../../../lib/service/index.ts';
import { RISK_FACTORS } from '../../../../../lib/service/nested.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import { RISK_FACTOR_INFO, readableFlagName, riskFactorItems } from './risk-factors.ts';
import { PROFILE_TABS } from '../types.ts';

const LIVE_EXTRAS = ['bond_insurance_below_requirement', 'ins_rrg_active', 'ins_rrg_hist'];
const ALL_DOTS = [...new Set([...CURATED_DOTS, '265752'])];

function items(raw: Record<string, unknown>) {
  return riskFactorItems(parseProfile({ snapshot_date: '2026-11-16', ...raw }).value);
}

function itemOf(raw: Record<string, unknown>, flag: string) {
  const found = items(raw).find((item) => item.flags.includes(flag));
  if (!found) throw new Error(`no item for ${flag}`);
  return { text: found.text, group: found.group };
}

describe('risk factor statements', () => {
  it('state every flag the parser knows (spec list and live extras), and only those', () => {
    const labelled = Object.keys(RISK_FACTOR_INFO).sort();
    expect(labelled).toEqual(Object.keys(RISK_FACTORS).sort());
    for (const flag of LIVE_EXTRAS) expect(labelled).toContain(flag);
  });

  it.each(ALL_DOTS)('cover every flag DOT %s sends, in plain statements', (dot) => {
    const { raw, parsed } = sandboxProfile(dot);
    const factors = (raw as { risk_factors?: unknown }).risk_factors;
    const object = (Array.isArray(factors) ? factors[0] : factors) as Record<string, unknown>;
    const list = riskFactorItems(parsed.value);
    expect(Object.keys(object).length, dot).toBeGreaterThan(30);
    expect(list.filter((item) => item.tab === undefined)).toEqual([]);
    expect(list.flatMap((item) => item.flags).sort()).toEqual(Object.keys(object).sort());
    for (const item of list) {
      // never "label: Yes/No", never a doubled negative such as "No … : No"
      expect(item.text, item.flags.join()).not.toMatch(/:\s*(Yes|No)$/i);
      expect(item.text, item.flags.join()).not.toMatch(/^(No|Not)\b.*\b(not|no)\b/);
      expect(item.text, item.flags.join()).not.toMatch(/_/);
    }
    // each statement once
    expect(new Set(list.map((item) => item.text)).size).toBe(list.length);
  });

  it('give each flag a tab that exists', () => {
    const tabs = PROFILE_TABS.map((tab) => tab.id as string);
    for (const [flag, info] of Object.entries(RISK_FACTOR_INFO))
      expect(tabs, flag).toContain(info.tab);
  });
});

describe('riskFactorItems', () => {
  it('states a false flag as what is true, classed by what it means', () => {
    expect(
      itemOf(
        {
          risk_factors: { zeo_inspections_last_twelve_mo: false },
          last_inspection_date: '2026-10-21',
        },
        'zeo_inspections_last_twelve_mo',
      ),
    ).toEqual({
      text: 'Inspected at the roadside in the last 12 months (last inspection 21 Oct 2026)',
      group: 'ok',
    });
    expect(
      itemOf(
        { risk_factors: { zeo_inspections_last_twelve_mo: true } },
        'zeo_inspections_last_twelve_mo',
      ),
    ).toEqual({
      text: 'No roadside inspection in the last 12 months',
      group: 'concern',
    });
    expect(
      itemOf(
        { risk_factors: { fatal_crashes_flag: true }, crash_fatalities: '2' },
        'fatal_crashes_flag',
      ),
    ).toEqual({
      text: 'Crashes with fatalities on record (2 fatalities)',
      group: 'concern',
    });
    expect(itemOf({ risk_factors: { hazardous_material: true } }, 'hazardous_material').group).toBe(
      'info',
    );
    expect(
      itemOf({ risk_factors: { sixty_mo_in_business: false } }, 'sixty_mo_in_business').group,
    ).toBe('concern');
  });

  it('reads BIPD exactly at the minimum as meeting it, not as a concern', () => {
    const atMinimum = {
      risk_factors: {
        bipd_insurance_above_minimum: false,
        bipd_insurance_below_requirement: false,
      },
      insurance_bipd_on_file: '750000',
      insurance_bipd_required: '750000',
    };
    const list = items(atMinimum);
    expect(list).toEqual([
      expect.objectContaining({
        flags: ['bipd_insurance_above_minimum', 'bipd_insurance_below_requirement'],
        text: 'BIPD liability insurance on file 750,000 USD — meets the 750,000 USD minimum',
        group: 'ok',
      }),
    ]);
    expect(
      itemOf({ ...atMinimum, insurance_bipd_on_file: '0' }, 'bipd_insurance_above_minimum'),
    ).toEqual({
      text: 'BIPD liability insurance on file 0 USD — below the 750,000 USD minimum',
      group: 'concern',
    });
  });

  it('states an insurance cancellation of the last year with the coverage now on file', () => {
    const cancelled = {
      risk_factors: { stability_insurance_history: false },
      insurance_last_canceled: '2026-01-19',
      insurance_bipd_on_file: '1000000',
      insurance_bipd_required: '750000',
    };
    expect(itemOf(cancelled, 'stability_insurance_history')).toEqual({
      text: 'Insurance policy cancelled in the last year (last cancellation 19 Jan 2026); BIPD liability insurance on file 1,000,000 USD — above the 750,000 USD required',
      group: 'info',
    });
    expect(
      itemOf({ ...cancelled, insurance_bipd_on_file: '0' }, 'stability_insurance_history').group,
    ).toBe('concern');
    expect(
      itemOf(
        { risk_factors: { stability_insurance_history: true } },
        'stability_insurance_history',
      ),
    ).toEqual({
      text: 'No insurance policy cancelled in the last year',
      group: 'ok',
    });
  });

  it('explains an area-code mismatch with the code, its place and the address state', () => {
    const flag = 'phone_number_area_codes_match_address_state';
    expect(
      itemOf(
        {
          risk_factors: { [flag]: false },
          telephone_number: '3124473300',
          physical_address_state: 'TX',
        },
        flag,
      ),
    ).toEqual({
      text: 'Phone area code 312 (Illinois) does not match the physical address state (TX)',
      group: 'concern',
    });
    expect(
      itemOf(
        {
          risk_factors: { [flag]: true },
          telephone_number: '(312) 447-3300',
          physical_address_state: 'IL',
        },
        flag,
      ),
    ).toEqual({
      text: 'Phone area code 312 (Illinois) matches the physical address state (IL)',
      group: 'ok',
    });
    // the vendor's flag says no, but the code is the state's: say both, as information
    expect(
      itemOf(
        {
          risk_factors: { [flag]: false },
          telephone_number: '4698124471',
          physical_address_state: 'TX',
        },
        flag,
      ),
    ).toEqual({
      text: 'Phone area code 469 (Texas) is in the physical address state (TX); the data vendor nevertheless flags them as not matching',
      group: 'info',
    });
    // a code the table does not know is named without a place
    expect(
      itemOf(
        {
          risk_factors: { [flag]: false },
          telephone_number: '5550100000',
          physical_address_state: 'TX',
        },
        flag,
      ).text,
    ).toBe('Phone area code 555 does not match the physical address state (TX)');
  });

  it('does not contradict the dates: an old USDOT number flagged as young is information', () => {
    const flag = 'sixty_mo_in_business';
    expect(itemOf({ risk_factors: { [flag]: false }, added_date: '1985-10-25' }, flag)).toEqual({
      text: 'USDOT number added 25 Oct 1985, over 60 months before the snapshot; the data vendor nevertheless flags less than 60 months in business',
      group: 'info',
    });
    expect(itemOf({ risk_factors: { [flag]: false }, added_date: '2026-04-18' }, flag)).toEqual({
      text: 'In business for less than 60 months (USDOT number added 18 Apr 2026)',
      group: 'concern',
    });
  });

  it('reads a phone matching the mailing state, not the physical one, as information', () => {
    const flag = 'phone_number_area_codes_match_address_state';
    expect(
      itemOf(
        {
          risk_factors: { [flag]: true },
          telephone_number: '4127478482',
          physical_address_state: 'TN',
          mailing_address_state: 'PA',
        },
        flag,
      ),
    ).toEqual({
      text: 'Phone area code 412 (Pennsylvania) matches the mailing address state (PA), not the physical address state (TN)',
      group: 'info',
    });
  });

  it('lists unknown flags for information with a readable name and no tab', () => {
    const { value } = parseProfile({ risk_factors: [{ brand_new_signal: true, note: 'x' }] });
    expect(riskFactorItems(value)).toEqual([
      {
        flags: ['brand_new_signal'],
        text: 'Brand new signal: yes (a flag this dashboard does not know)',
        group: 'info',
        tab: undefined,
      },
    ]);
  });

  it('returns nothing without risk factors', () => {
    expect(riskFactorItems(parseProfile({}).value)).toEqual([]);
    expect(readableFlagName('ins__rrg_')).toBe('Ins rrg');
  });
});

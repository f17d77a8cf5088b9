import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../../../lib/service/index.ts';
import {
  authorityTimeline,
  coverageRows,
  insuranceStatusLabel,
  isPendingCancellation,
} from './model.ts';

describe('coverageRows', () => {
  it('flags a shortfall with the missing amount, and tells met from not required', () => {
    const { value } = parseProfile({
      insurance_bipd_on_file: '0',
      insurance_bipd_required: '750000',
      insurance_cargo_required: '0',
      insurance_bond_on_file: '75000',
      insurance_bond_required: '75000',
    });
    expect(
      coverageRows(value).map(({ id, status, shortfall }) => ({ id, status, shortfall })),
    ).toEqual([
      { id: 'bipd', status: 'shortfall', shortfall: 750000 },
      { id: 'cargo', status: 'not-required', shortfall: undefined },
      { id: 'bond', status: 'met', shortfall: undefined },
    ]);
  });

  it('says the requirement is unknown when the profile has none', () => {
    expect(coverageRows(parseProfile({}).value).every((row) => row.status === 'unknown')).toBe(
      true,
    );
  });
});

describe('authorityTimeline', () => {
  it('turns grants and dispensations into dated events, newest first', () => {
    const { value } = parseProfile({
      authority_history: [
        {
          authority_type_desc: 'Property Broker',
          original_action_desc: 'Granted',
          original_served_date: '2006-05-10',
          dispensation_action_desc: 'Revoked',
          dispensation_served_date: '2024-10-17',
        },
        {
          authority_type_desc: 'Common',
          original_action_desc: 'Granted',
          original_served_date: '2010-01-01',
        },
      ],
    });
    expect(
      authorityTimeline(value.authority_history).map((event) => [
        event.date,
        event.action,
        event.authority,
      ]),
    ).toEqual([
      ['2024-10-17', 'Revoked', 'Property Broker'],
      ['2010-01-01', 'Granted', 'Common'],
      ['2006-05-10', 'Granted', 'Property Broker'],
    ]);
  });
});

describe('insurance entries', () => {
  it('treat a cancellation after the reference date as pending', () => {
    expect(
      isPendingCancellation({ extra: {}, cancel_effective_date: '2026-12-11' }, '2026-11-16'),
    ).toBe(true);
    expect(
      isPendingCancellation({ extra: {}, cancel_effective_date: '2025-06-23' }, '2026-11-16'),
    ).toBe(false);
    expect(isPendingCancellation({ extra: {} }, '2026-11-16')).toBe(false);
  });

  it('spell out the policy status', () => {
    expect(insuranceStatusLabel('A')).toBe('Active');
    expect(insuranceStatusLabel('h')).toBe('Historical');
    expect(insuranceStatusLabel(undefined)).toBe('—');
  });
});

// @vitest-environment node
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import {
  tenderCheckRequestSchema,
  type TenderCheckListItem,
} from '../../../lib/tender/contract.ts';
import { pendingTotal } from './answer.ts';
import { tenderChecksCsv } from './csv.ts';
import { EMPTY_FORM, bodyOf, formFromQuery, validate, type TenderForm } from './form.ts';

const form = (patch: Partial<TenderForm>): TenderForm => ({ ...EMPTY_FORM, ...patch });

describe('the tender form', () => {
  it('is pre-filled from the profile’s link, by DOT or by docket', () => {
    expect(formFromQuery(new URLSearchParams('dot_number=568253'))).toMatchObject({
      kind: 'dot',
      carrier: '568253',
    });
    expect(formFromQuery(new URLSearchParams('docket_number=MC823456'))).toMatchObject({
      kind: 'docket',
      carrier: 'MC823456',
    });
    expect(formFromQuery(new URLSearchParams())).toEqual(EMPTY_FORM);
  });

  it('sends what was given and leaves out blanks; no load unless something of it was given', () => {
    expect(bodyOf(form({ carrier: ' 568253 ', phone: ' ', email: 'a@b.com' }))).toEqual({
      dot_number: '568253',
      email: 'a@b.com',
    });
    expect(bodyOf(form({ kind: 'docket', carrier: 'MC277621', hazmat: true }), 0.35)).toEqual({
      docket_number: 'MC277621',
      load: { hazmat: true },
      max_cost_usd: 0.35,
    });
    const full = bodyOf(
      form({
        carrier: '568253',
        cargoValue: '$180,000',
        cargoClasses: ['motor_vehicles'],
        equipment: 'car_hauler',
        originState: 'CA',
        destinationState: 'AZ',
      }),
    );
    expect(full.load).toEqual({
      cargo_value: 180_000,
      cargo_classes: ['motor_vehicles'],
      equipment: 'car_hauler',
      origin_state: 'CA',
      destination_state: 'AZ',
      hazmat: false,
    });
    // what the form sends, the proxy's schema accepts
    expect(tenderCheckRequestSchema.safeParse(full).success).toBe(true);
  });

  it('says in words what is wrong, one message per field, before anything is sent', () => {
    expect(validate(form({}))).toEqual({
      carrier: 'Enter the USDOT number or the docket the offer names',
    });
    const errors = validate(
      form({ carrier: '56x', phone: '12', email: 'not-an-address', cargoValue: '-5' }),
    );
    expect(errors.carrier).toMatch(/^The USDOT number must be a USDOT number/);
    expect(errors.phone).toBe('The phone must be a 10-digit US or Canadian phone number');
    expect(errors.email).toMatch(/^The e-mail must be an e-mail address/);
    expect(errors.cargoValue).toBe('The cargo value must not be negative');
    expect(validate(form({ carrier: '568253', cargoValue: 'lots' })).cargoValue).toBe(
      'The cargo value must be a number of dollars, such as 180000',
    );
    expect(validate(form({ kind: 'docket', carrier: 'XX12' })).carrier).toMatch(/^The docket/);
    expect(validate(form({ carrier: '568253', phone: '(562) 602-7220' }))).toEqual({});
    // a missing carrier is said beside another field's problem too
    expect(validate(form({ phone: '123' }))).toEqual({
      carrier: 'Enter the USDOT number or the docket the offer names',
      phone: 'The phone must be a 10-digit US or Canadian phone number',
    });
  });
});

describe('the cost to confirm', () => {
  it('is the pending searches’ total in whole cents, rounded up', () => {
    expect(pendingTotal([])).toBe(0);
    expect(pendingTotal([{ cost_usd: 0.25 }, { cost_usd: 0.1 }])).toBe(0.35);
    expect(pendingTotal([{ cost_usd: 0.1 }, { cost_usd: 0.2 }])).toBe(0.3);
    expect(pendingTotal([{ cost_usd: 0.333 }])).toBe(0.34);
    // 0.07 * 100 is 7.000000000000001 in floating point: still 7 cents
    expect(pendingTotal([{ cost_usd: 0.07 }])).toBe(0.07);
  });
});

describe('the CSV export', () => {
  it('has one row per check, the answer in words and the offer’s text neutralised', () => {
    const check: TenderCheckListItem = {
      id: 7,
      checked_at: '2026-11-29T10:00:00.000Z',
      user: { id: 'u1', name: 'Dana' },
      dot_number: '568253',
      legal_name: 'HANSEN & ADKINS AUTO TRANSPORT INC',
      answer: 'call_back',
      phone: '4695550163',
      email: '=HYPERLINK("http://evil","x")@x.com',
      cost_usd: 0.2,
      snapshot_date: '2026-11-16',
      pending: 1,
      decision_ids: [3, 4],
    };
    const rows = Papa.parse<Record<string, string>>(tenderChecksCsv([check]), {
      header: true,
      newline: '\r\n',
    }).data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: '7',
      answer: 'Call back first',
      phone: '4695550163',
      cost_usd: '0.20',
      pending_checks: '1',
      decision_ids: '3 4',
    });
    expect(rows[0]?.email?.startsWith('=')).toBe(false);
  });
});

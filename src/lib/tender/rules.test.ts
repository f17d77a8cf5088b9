import { describe, expect, it } from 'vitest';
import { parseProfile, type Profile } from '../service/index.ts';
import { answerOf, normalisePhone, tenderCheckRequestSchema } from './contract.ts';
import { editDistance, isFreeMail, lookalikeOf } from './domains.ts';
import { judgeTender, type SearchAnswer, type TenderFacts } from './rules.ts';

describe('domains', () => {
  it.each([
    ['brightline-freight.co', 'brightline-freight.com', /another top-level domain/],
    ['brightlinefreight.com', 'brightline-freight.com', /other punctuation/],
    ['brightline-frieght.com', 'brightline-freight.com', /two letters/],
    ['brightline-freight-dispatch.com', 'brightline-freight.com', /words added/],
  ])('%s imitates %s', (domain, registered, how) => {
    expect(lookalikeOf(domain, registered)).toMatch(how);
  });

  it.each([
    ['brightline-freight.com', 'brightline-freight.com'],
    ['mail.brightline-freight.com', 'brightline-freight.com'],
    ['acme.com', 'brightline-freight.com'],
    // short names differ too easily by chance
    ['abc.com', 'abd.com'],
  ])('%s does not imitate %s', (domain, registered) => {
    expect(lookalikeOf(domain, registered)).toBeUndefined();
  });

  it('knows free-mail domains and counts edits', () => {
    expect(isFreeMail('Gmail.com')).toBe(true);
    expect(isFreeMail('hansenadkins.com')).toBe(false);
    expect(editDistance('freight', 'frieght')).toBe(2);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });
});

describe('contract', () => {
  it('reads phones as 10 digits and refuses what is not one', () => {
    expect(normalisePhone('+1 (562) 602-7220')).toBe('5626027220');
    expect(normalisePhone('562.602.7220')).toBe('5626027220');
    expect(normalisePhone('12345')).toBeUndefined();
    expect(normalisePhone('0626027220')).toBeUndefined();
    expect(normalisePhone('call 5626027220')).toBeUndefined();
  });

  it('normalises the body: docket with MC, e-mail lower case, max_cost_usd 0 by default', () => {
    const body = tenderCheckRequestSchema.parse({
      docket_number: ' 277621 ',
      email: ' Dispatch@HansenAdkins.com ',
    });
    expect(body).toEqual({
      docket_number: 'MC277621',
      email: 'dispatch@hansenadkins.com',
      max_cost_usd: 0,
    });
  });

  it('combines: any fail → do not tender; any review or pending → call back; else go', () => {
    expect(answerOf([{ outcome: 'pass' }], 0)).toBe('go');
    expect(answerOf([{ outcome: 'pass' }], 1)).toBe('call_back');
    expect(answerOf([{ outcome: 'review' }, { outcome: 'pass' }], 0)).toBe('call_back');
    expect(answerOf([{ outcome: 'review' }, { outcome: 'fail' }], 1)).toBe('do_not_tender');
  });
});

const PROFILE: Profile = parseProfile({
  dot_number: '568253',
  legal_name: 'HANSEN & ADKINS AUTO TRANSPORT INC',
  snapshot_date: '2026-11-16',
  telephone_number: '5626027220',
  email_address: 'safety@hansenadkins.com',
  phone_last_changed: '2021-02-15',
  email_last_changed: '2026-11-10',
  contact_history: [
    {
      key: 'telephone_number',
      value: '5625550142',
      start_date: '2001-01-01',
      end_date: '2021-02-15',
      current_flag: false,
    },
  ],
  insurance_bipd_on_file: '1000000',
  insurance_bipd_required: '750000',
  insurance_cargo_on_file: '100000',
  total_power_units: '12',
  total_drivers: '14',
  carrier_operation_desc: 'Intrastate Only (Non-HM)',
}).value;

function facts(over: Partial<TenderFacts> = {}): TenderFacts {
  return {
    request: tenderCheckRequestSchema.parse({ dot_number: '568253', phone: '5626027220' }),
    profile: PROFILE,
    profileFetchedAt: '2026-11-29T10:00:00.000Z',
    phone: null,
    email: null,
    contactWindowDays: 30,
    bipdMinimumUsd: null,
    verdict: { verdict: 'pass', policy_version: 1, reasons: [] },
    decision: null,
    pendingCount: 0,
    today: '2026-11-29',
    ...over,
  };
}

function rule(result: ReturnType<typeof judgeTender>, name: string) {
  return result.reasons.find((r) => r.rule === name);
}

function search(check: 'phone_search' | 'email_search', items: SearchAnswer['items']) {
  return {
    search: {
      check,
      endpoint: 'profile-lite' as const,
      key: check === 'phone_search' ? 'phone' : 'email',
      value: check === 'phone_search' ? '4695550163' : 'dispatch@gmail.com',
      status: 'billed' as const,
      cost_usd: 0.5,
      fetched_at: '2026-11-29T10:00:00.000Z',
      found: [],
      total_count: items.length,
    },
    items,
  };
}

describe('judgeTender', () => {
  it('a past number of the carrier is review, its evidence the history entry', () => {
    const result = judgeTender(
      facts({
        request: tenderCheckRequestSchema.parse({ dot_number: '568253', phone: '562-555-0142' }),
      }),
    );
    const phone = rule(result, 'phone_match');
    expect(phone?.outcome).toBe('review');
    expect(phone?.text).toContain('until 2021-02-15');
    expect(phone?.evidence.map((e) => e.field)).toContain('contact_history[0].end_date');
    expect(result.callBack).toBe(
      'Call back on the registered number ((562) 602-7220) before tendering.',
    );
  });

  it('the e-mail changed within the window: review, and it says how many days', () => {
    const changed = rule(judgeTender(facts()), 'contact_changed');
    expect(changed?.outcome).toBe('review');
    expect(changed?.text).toContain('e-mail changed 6 days ago (2026-11-10)');
    const narrow = rule(judgeTender(facts({ contactWindowDays: 5 })), 'contact_changed');
    expect(narrow?.outcome).toBe('pass');
  });

  it('a phone registered now to another DOT fails; one of a shut-down DOT in the past fails; another past one is review', () => {
    const offer = tenderCheckRequestSchema.parse({ dot_number: '568253', phone: '4695550163' });
    const now = judgeTender(
      facts({
        request: offer,
        phone: search('phone_search', [
          {
            dot_number: '999',
            legal_name: 'OTHER LLC',
            usdot_status: 'ACTIVE',
            telephone_number: '4695550163',
          },
        ]),
      }),
    );
    expect(rule(now, 'phone_other_carriers')?.outcome).toBe('fail');
    const shut = judgeTender(
      facts({
        request: offer,
        phone: search('phone_search', [
          { dot_number: '3187452', usdot_status: 'INACTIVE', telephone_number: '4698124471' },
        ]),
      }),
    );
    expect(rule(shut, 'phone_other_carriers')?.outcome).toBe('fail');
    const past = judgeTender(
      facts({
        request: offer,
        phone: search('phone_search', [
          { dot_number: '777', usdot_status: 'ACTIVE', telephone_number: '2125550100' },
        ]),
      }),
    );
    expect(rule(past, 'phone_other_carriers')?.outcome).toBe('review');
    expect(rule(past, 'phone_other_carriers')?.evidence.at(-1)?.link).toBe(
      '/carriers/777/overview',
    );
  });

  it('load fit: cargo cover below the value and an interstate load for an intrastate carrier fail', () => {
    const result = judgeTender(
      facts({
        request: tenderCheckRequestSchema.parse({
          dot_number: '568253',
          phone: '5626027220',
          load: { cargo_value: 250_000, origin_state: 'CA', destination_state: 'AZ', hazmat: true },
        }),
      }),
    );
    expect(rule(result, 'cargo_insurance')?.outcome).toBe('fail');
    expect(rule(result, 'fleet')?.outcome).toBe('fail');
    expect(rule(result, 'hazmat')?.outcome).toBe('review');
    expect(rule(result, 'liability_insurance')?.outcome).toBe('pass');
    expect(result.answer).toBe('do_not_tender');
  });

  it('the verdict: an approval that holds passes; a Do not use fails; nothing read, nothing said', () => {
    const decision = {
      id: 7,
      decision: 'approved' as const,
      decided_at: '2026-11-20T10:00:00.000Z',
      standing: 'holds' as const,
      expires_on: null,
    };
    expect(rule(judgeTender(facts({ decision })), 'verdict')?.outcome).toBe('pass');
    const banned = judgeTender(facts({ decision: { ...decision, decision: 'do_not_use' } }));
    expect(rule(banned, 'verdict')?.outcome).toBe('fail');
    expect(rule(banned, 'verdict')?.evidence.at(-1)?.link).toBe('/decisions/7');
    const unread = judgeTender(facts({ profile: null, verdict: null, pendingCount: 1 }));
    expect(unread.reasons).toEqual([]);
    expect(unread.answer).toBe('call_back');
  });
});

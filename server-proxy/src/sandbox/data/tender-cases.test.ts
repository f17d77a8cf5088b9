import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POPULATION, DEFAULT_SEED } from '../config.ts';
import { itemsOf, startSandbox, type RunningSandbox } from '../helpers.test-support.ts';
import { daysAgo } from './calendar.ts';
import { CURATED_DOTS } from './curated.ts';
import { profileOf, records, testDataset } from './dataset.test-support.ts';
import { createDataset } from './index.ts';
import { FIXTURE_EMAIL_DOMAINS } from './population-identity.ts';
import { TENDER_CASES } from './tender-cases.ts';
import type { CarrierDataset } from './types.ts';
import { EMAIL_PROVIDERS } from './words.ts';

/**
 * The searches a tender check runs for the sandbox cases (docs/sandbox-data.md#tender-check-cases),
 * as the spec says they behave: by phone (digits or formatted) and by e-mail (an address or a
 * domain), current and historical, each DOT once. On the shared test dataset (seed 7, 20,000
 * carriers: one of its rows is a "HANSEN & ADKINS …" whose domain would have been hansenadkins.com)
 * and on the proxy's default one.
 */
const datasets: [string, () => CarrierDataset][] = [
  ['seed 7, 20,000 carriers', testDataset],
  [
    `the default seed, ${DEFAULT_POPULATION} carriers`,
    () => createDataset({ seed: DEFAULT_SEED, population: DEFAULT_POPULATION }),
  ],
];

/** The curated carriers and the heavy benchmark carrier. */
const FIXTURE_DOTS = [...CURATED_DOTS, '3999999'];

const { clean, lookalike, free_mail, phone_of_another_dot, email_changed } = TENDER_CASES;

describe.each(datasets)('the tender-check cases on %s', (_, dataset) => {
  const ds = dataset();
  const phone = (value: string) => ds.search({ key: 'phone', value });
  const email = (value: string) => ds.search({ key: 'email', value });

  it('clean: the phone and the e-mail, address or domain, find HANSEN & ADKINS alone', () => {
    expect(phone(clean.body.phone)).toEqual(['568253']);
    expect(phone('+1 562 602 7220')).toEqual(['568253']);
    expect(email(clean.body.email)).toEqual(['568253']);
    expect(email('hansenadkins.com')).toEqual(['568253']);
    expect(email('@HansenAdkins.com')).toEqual(['568253']);
  });

  it('look-alike and free-mail impersonators: their addresses and the look-alike domain are on no carrier', () => {
    expect(email(lookalike.body.email)).toEqual([]);
    expect(email('hansen-adkins.com')).toEqual([]);
    expect(email(free_mail.body.email)).toEqual([]);
    // a free-mail domain names no company: a search by it finds whoever else uses the provider
    expect(email('@gmail.com').length).toBeGreaterThan(50);
  });

  it('phone of another DOT: (469) 555-0163 finds only RAPID ROUTE, by its contact history', () => {
    expect(phone(phone_of_another_dot.body.phone)).toEqual(['3187452']);
    const rapid = profileOf(ds, '3187452');
    expect(rapid.telephone_number).toBe('4698124471');
    expect(records(rapid.contact_history)).toContainEqual(
      expect.objectContaining({
        key: 'telephone_number',
        value: '4695550163',
        end_date: daysAgo(400),
        current_flag: false,
      }),
    );
    expect(rapid.phone_last_changed).toBe(daysAgo(400));
    // over a year ago: its phone history still counts as stable
    expect((rapid.risk_factors as Record<string, unknown>).stability_phone_history).toBe(true);
  });

  it('e-mail changed three days ago: TRILLIUM registers ops@… since 2026-11-14', () => {
    const trillium = profileOf(ds, '2456781');
    expect(trillium.email_address).toBe(email_changed.body.email);
    expect(trillium.email_last_changed).toBe('2026-11-13');
    expect(trillium.email_last_changed).toBe(daysAgo(3));
    expect(trillium.email_change_count).toBe('2');
    const history = records(trillium.contact_history).filter((h) => h.key === 'email_address');
    expect(history).toEqual([
      expect.objectContaining({ value: 'ops@trilliumtransport.ca', start_date: '2026-11-14', current_flag: true }),
      expect.objectContaining({ value: 'dispatch@trilliumxb.com', current_flag: false }),
      expect.objectContaining({
        value: 'dispatch@trilliumtransport.ca',
        end_date: '2026-11-13',
        current_flag: false,
      }),
    ]);
    expect((trillium.risk_factors as Record<string, unknown>).stability_email_history).toBe(false);
    // the current address, the old one and the domain (both of them match it) find TRILLIUM once
    expect(email(email_changed.body.email)).toEqual(['2456781']);
    expect(email('dispatch@trilliumtransport.ca')).toEqual(['2456781']);
    expect(email('trilliumtransport.ca')).toEqual(['2456781']);
    expect(phone(email_changed.body.phone)).toEqual(['2456781']);
    expect(ds.search({ key: 'docket_number', value: email_changed.body.docket_number })).toEqual([
      '2456781',
    ]);
  });

  it('no population carrier writes from a fixture carrier’s company domain', () => {
    for (const domain of FIXTURE_EMAIL_DOMAINS) {
      for (const dot of email(`@${domain}`)) expect(FIXTURE_DOTS, `${domain}: ${dot}`).toContain(dot);
    }
  });
});

describe('the fixture e-mail domains', () => {
  it('are every company domain the fixture carriers use, now or in the past', () => {
    const ds = testDataset();
    const free = new Set(EMAIL_PROVIDERS.map((p) => p.toLowerCase()));
    const used = new Set<string>();
    for (const dot of FIXTURE_DOTS) {
      const profile = profileOf(ds, dot);
      const addresses = [
        profile.email_address,
        ...records(profile.contact_history)
          .filter((h) => h.key === 'email_address')
          .map((h) => h.value),
      ];
      for (const address of addresses) {
        const domain = String(address).split('@')[1]?.toLowerCase();
        if (domain && !free.has(domain)) used.add(domain);
      }
    }
    expect([...used].sort()).toEqual([...FIXTURE_EMAIL_DOMAINS].sort());
  });
});

describe('the service routes answer the cases’ searches', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox.close();
  });
  const dotsOf = async (path: string) =>
    itemsOf(await sandbox.call(path)).map((item) => item.dot_number);

  it('by phone and e-mail on /v2/profile and /v2/profile-lite, current and historical', async () => {
    const q = encodeURIComponent;
    expect(await dotsOf(`/v2/profile-lite?phone=${q(clean.body.phone)}`)).toEqual(['568253']);
    expect(await dotsOf(`/v2/profile?email=${q('hansenadkins.com')}`)).toEqual(['568253']);
    expect(await dotsOf(`/v2/profile-lite?email=${q(lookalike.body.email)}`)).toEqual([]);
    expect(await dotsOf(`/v2/profile?email=${q('hansen-adkins.com')}`)).toEqual([]);
    expect(await dotsOf(`/v2/profile-lite?email=${q(free_mail.body.email)}`)).toEqual([]);
    expect(await dotsOf(`/v2/profile-lite?phone=${q(phone_of_another_dot.body.phone)}`)).toEqual([
      '3187452',
    ]);
    const [trillium] = itemsOf(
      await sandbox.call(`/v2/profile?email=${q('dispatch@trilliumtransport.ca')}`),
    );
    expect(trillium).toMatchObject({
      dot_number: '2456781',
      email_address: 'ops@trilliumtransport.ca',
      email_last_changed: '2026-11-13',
    });
  });
});

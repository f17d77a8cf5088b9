/**
 * The sandbox's tender-check cases (docs/sandbox-data.md, "Tender-check cases") through the API:
 * each offer, with its searches allowed, gives the answer it was designed for, for the reasons it
 * was designed to show, each with evidence.
 */
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProxyApp, type ProxyApp } from '../app.ts';
import { CSRF, embeddedSandboxConfig, request } from '../helpers.test-support.ts';
import { TENDER_CASES } from '../sandbox/index.ts';
import {
  tenderCheckAnswerSchema,
  type TenderCheckAnswer,
} from '../../../src/lib/tender/contract.ts';

let app: ProxyApp;
let url = '';
let dataDir = '';

beforeAll(async () => {
  const config = embeddedSandboxConfig({}, { retryDelayMs: 20 });
  dataDir = config.dataDir;
  app = await buildProxyApp(config, { sandbox: { population: 200 } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function check(body: Record<string, unknown>): Promise<TenderCheckAnswer> {
  const answer = await request(`${url}/api/local/tender-checks`, {
    method: 'POST',
    headers: CSRF,
    body: { ...body, max_cost_usd: 20 },
  });
  expect(answer.status).toBe(201);
  return tenderCheckAnswerSchema.parse(answer.json);
}

function outcomes(answer: TenderCheckAnswer): Record<string, string> {
  return Object.fromEntries(answer.reasons.map((r) => [r.rule, r.outcome]));
}

const HANSEN_LOAD = {
  cargo_value: 180_000,
  cargo_classes: ['motor_vehicles'],
  hazmat: false,
  equipment: 'car_hauler',
  origin_state: 'CA',
  destination_state: 'AZ',
};

describe('the sandbox tender-check cases', () => {
  it.each(Object.entries(TENDER_CASES))(
    '%s gives its designed answer, for its signals, each reason with evidence',
    async (_name, tenderCase) => {
      const answer = await check(tenderCase.body);
      expect(answer.answer).toBe(tenderCase.answer);
      const said = outcomes(answer);
      for (const signal of tenderCase.signals) expect(said[signal]).toMatch(/^(review|fail)$/);
      expect(answer.reasons.every((r) => r.evidence.length > 0)).toBe(true);
      expect(answer.pending).toEqual([]);
    },
  );

  it('a clean offer from the registered contact: Go, every reason passing with its evidence', async () => {
    const answer = await check({
      dot_number: '568253',
      phone: '(562) 602-7220',
      email: 'safety@hansenadkins.com',
      contact_name: 'DOUGLAS ADKINS',
      load: HANSEN_LOAD,
    });
    expect(answer.answer).toBe('go');
    expect(answer.reasons.every((r) => r.outcome === 'pass')).toBe(true);
    expect(answer.reasons.every((r) => r.evidence.length > 0)).toBe(true);
    expect(answer.identity.call_back).toBeNull();
  });

  it('an impersonator from a look-alike domain: Do not tender', async () => {
    const answer = await check({
      docket_number: 'MC277621',
      email: 'dispatch@hansen-adkins.com',
      contact_name: 'DOUG ADKINS',
      load: HANSEN_LOAD,
    });
    expect(answer.answer).toBe('do_not_tender');
    expect(outcomes(answer)).toMatchObject({ email_match: 'review', lookalike_domain: 'fail' });
    expect(answer.identity.call_back).toBe(
      'Call back on the registered number ((562) 602-7220) before tendering.',
    );
  });

  it('an impersonator from a free-mail address: Call back first', async () => {
    const answer = await check({
      dot_number: '568253',
      email: 'hansenadkins.dispatch@gmail.com',
      load: HANSEN_LOAD,
    });
    expect(answer.answer).toBe('call_back');
    expect(outcomes(answer)).toMatchObject({ email_match: 'review', free_mail: 'review' });
    expect(answer.identity.searches[0]).toMatchObject({
      check: 'email_search',
      key: 'email',
      value: 'hansenadkins.dispatch@gmail.com',
    });
  });

  it('a phone registered to another, shut-down DOT in the past: Do not tender', async () => {
    const answer = await check({
      dot_number: '568253',
      phone: '469-555-0163',
      load: HANSEN_LOAD,
    });
    expect(answer.answer).toBe('do_not_tender');
    expect(outcomes(answer)).toMatchObject({ phone_match: 'review', phone_other_carriers: 'fail' });
    const found = answer.identity.searches[0]?.found;
    expect(found).toEqual([expect.objectContaining({ dot_number: '3187452', now: false })]);
    const link = answer.reasons
      .find((r) => r.rule === 'phone_other_carriers')
      ?.evidence.find((e) => e.link === '/carriers/3187452/overview');
    expect(link).toBeDefined();
  });

  it('a carrier whose e-mail changed three days ago: Call back first', async () => {
    const answer = await check({
      docket_number: 'MC823456',
      phone: '905-447-1200',
      email: 'ops@trilliumtransport.ca',
      load: {
        cargo_value: 60_000,
        cargo_classes: ['general_freight'],
        equipment: 'dry_van',
        origin_state: 'ON',
        destination_state: 'MI',
      },
    });
    expect(answer.answer).toBe('call_back');
    expect(outcomes(answer)).toMatchObject({
      phone_match: 'pass',
      email_match: 'pass',
      contact_changed: 'review',
    });
    expect(answer.identity.call_back).toContain('(905) 447-1200');
  });
});

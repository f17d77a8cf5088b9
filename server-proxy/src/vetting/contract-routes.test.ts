/**
 * The vetting routes as contract routes (src/lib/vetting/contract.ts, registered with
 * http/contract-route.ts) on a real proxy over its embedded sandbox and a real SQLite file:
 * - each vetting contract answers a success and an error, and both hold against the contract
 *   (checked here with `checkResponse`, besides the route's own check under Vitest);
 * - every bad input is answered byte for byte as the hand-parsed routes answered it: the table was
 *   captured on 5fef69d, before the routes were contract routes.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeKey } from '../../../src/lib/api/route-contract.ts';
import { VETTING_CONTRACTS } from '../../../src/lib/vetting/contract.ts';
import { checkResponse } from '../http/contract-route.ts';
import {
  CSRF,
  embeddedSandboxConfig,
  makeTempDir,
  startProxy,
  type CallResult,
  type RunningProxy,
} from '../helpers.test-support.ts';

const dataDir = makeTempDir();
const ADMIN = { ...CSRF, 'x-forwarded-user': 'ada', 'x-forwarded-role': 'admin' };
/** No user: every /api/local route answers 401 before it runs. */
const NOBODY = { ...CSRF };
const DOT = '568253';
const LONG = 'x'.repeat(4001);
const json = (value: unknown) => JSON.stringify(value);

let proxy: RunningProxy;
let recordId = 0;
let receipt: unknown;

function call(
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = ADMIN,
): Promise<CallResult> {
  return proxy.call(path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { rawBody: body }),
  });
}

beforeAll(async () => {
  proxy = await startProxy(
    embeddedSandboxConfig({
      dataDir,
      auth: { kind: 'trusted-header', header: 'x-forwarded-user', trustedProxies: ['127.0.0.1'] },
    }),
  );
  // a decision records what was seen: the profile first
  expect((await call('GET', `/api/v2/profile?dot_number=${DOT}`)).status).toBe(200);
  const recorded = await call(
    'POST',
    '/api/local/decisions',
    json({ dot_number: DOT, decision: 'rejected', note: 'contract check' }),
  );
  expect(recorded.status, recorded.text).toBe(201);
  recordId = (recorded.json as { id: number }).id;
  receipt = (await call('GET', `/api/local/decisions/${recordId}/receipt`)).json;
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Call {
  method?: string;
  path: () => string;
  body?: () => string;
  headers?: Record<string, string>;
}

/** Per route: a call answered with success, and one answered with an error. */
const CALLS: Record<string, { ok: Call; error: Call }> = {
  'GET /api/local/verdict': {
    ok: { path: () => `/api/local/verdict?dot_number=${DOT}` },
    error: { path: () => '/api/local/verdict?dot_number=99999999' },
  },
  'GET /api/local/policy': {
    ok: { path: () => '/api/local/policy' },
    error: { path: () => '/api/local/policy', headers: NOBODY },
  },
  'GET /api/local/policy/versions': {
    ok: { path: () => '/api/local/policy/versions' },
    error: { path: () => '/api/local/policy/versions', headers: NOBODY },
  },
  'GET /api/local/policy/versions/:version': {
    ok: { path: () => '/api/local/policy/versions/1' },
    error: { path: () => '/api/local/policy/versions/999' },
  },
  'PUT /api/local/policy': {
    ok: {
      method: 'PUT',
      path: () => '/api/local/policy',
      body: () => json({ rules: { new_entrant: { threshold: 365 } }, note: 'contract check' }),
    },
    error: { method: 'PUT', path: () => '/api/local/policy', body: () => json({ rules: 5 }) },
  },
  'POST /api/local/policy/preview': {
    ok: {
      method: 'POST',
      path: () => '/api/local/policy/preview',
      body: () => json({ rules: { usdot_status: { outcome: 'review' } } }),
    },
    error: { method: 'POST', path: () => '/api/local/policy/preview', body: () => '[1]' },
  },
  'POST /api/local/decisions': {
    ok: {
      method: 'POST',
      path: () => '/api/local/decisions',
      body: () => json({ dot_number: DOT, decision: 'do_not_use', supersedes: recordId }),
    },
    error: {
      method: 'POST',
      path: () => '/api/local/decisions',
      body: () => json({ dot_number: '99999999', decision: 'rejected' }),
    },
  },
  'GET /api/local/decisions': {
    ok: { path: () => `/api/local/decisions?dot_number=${DOT}` },
    error: { path: () => '/api/local/decisions?page=0' },
  },
  'GET /api/local/decisions/current': {
    ok: { path: () => `/api/local/decisions/current?dot_numbers=${DOT}` },
    error: { path: () => '/api/local/decisions/current' },
  },
  'GET /api/local/decisions/revet-due': {
    ok: { path: () => '/api/local/decisions/revet-due' },
    error: { path: () => '/api/local/decisions/revet-due', headers: NOBODY },
  },
  'GET /api/local/decisions/verify': {
    ok: { path: () => '/api/local/decisions/verify' },
    error: { path: () => '/api/local/decisions/verify', headers: NOBODY },
  },
  'POST /api/local/decisions/verify': {
    ok: {
      method: 'POST',
      path: () => '/api/local/decisions/verify',
      body: () => json({ receipts: [receipt] }),
    },
    error: {
      method: 'POST',
      path: () => '/api/local/decisions/verify',
      body: () => json({ receipts: 5 }),
    },
  },
  'GET /api/local/decisions/public-key': {
    ok: { path: () => '/api/local/decisions/public-key' },
    error: { path: () => '/api/local/decisions/public-key', headers: NOBODY },
  },
  'GET /api/local/decisions/:id/receipt': {
    ok: { path: () => `/api/local/decisions/${recordId}/receipt` },
    error: { path: () => '/api/local/decisions/999/receipt' },
  },
  'GET /api/local/decisions/:id': {
    ok: { path: () => `/api/local/decisions/${recordId}` },
    error: { path: () => '/api/local/decisions/999' },
  },
};

function send(c: Call): Promise<CallResult> {
  return call(c.method ?? 'GET', c.path(), c.body?.(), c.headers ?? ADMIN);
}

describe('every vetting route answers within its contract', () => {
  it('has a success and an error call for each vetting contract', () => {
    expect(Object.keys(CALLS).sort()).toEqual(VETTING_CONTRACTS.map(routeKey).sort());
  });

  for (const contract of VETTING_CONTRACTS) {
    const key = routeKey(contract);
    it(`${key}: a success and an error, both as the contract says`, async () => {
      const calls = CALLS[key];
      if (calls === undefined) throw new Error(`no calls for ${key}`);
      const ok = await send(calls.ok);
      expect(ok.status, ok.text).toBeGreaterThanOrEqual(200);
      expect(ok.status, ok.text).toBeLessThan(300);
      expect(checkResponse(contract, ok.status, ok.json)).toBeUndefined();
      const error = await send(calls.error);
      expect(error.status, error.text).toBeGreaterThanOrEqual(400);
      expect(error.status, error.text).toBeLessThan(500);
      expect(checkResponse(contract, error.status, error.json)).toBeUndefined();
    });
  }
});

interface BadInput {
  method: string;
  path: string;
  body?: string;
  status: number;
  code: string;
  error: string;
  hint: string;
}

/** The hints of the hand-parsed routes (5fef69d). */
const HINT = {
  verdict: 'Ask with one of dot_number or docket_number, as for /api/v2/profile.',
  versions: 'GET /api/local/policy/versions lists them.',
  policy:
    'Send {"rules": {"<rule id>": {"enabled"?: boolean, "outcome"?: "review" | "fail", "no_data"?: "pass" | "review", "threshold"?: number, "cargo_required"?: [class], "cargo_refused"?: [class], "hazmat"?: "required" | "refused"}}, "options"?: {"max_revet_days"?: 1..730}, "note"?: text}; GET /api/local/policy lists the rules.',
  decision:
    'Send {"dot_number": "568253", "decision": one of approved, approved_with_conditions, rejected, do_not_use, "note"?: text of at most 4000 characters, "conditions"?: text (required for approved_with_conditions), "expires_on"?: "YYYY-MM-DD" (today up to the policy\'s max_revet_days ahead), "supersedes"?: the id of the record it corrects, "override_reason"?: why a Fail or Review carrier is approved anyway (required then; at most 2000 characters)}.',
  notFetched:
    'A decision records what was seen: open the carrier’s profile first, then record the decision.',
  list: 'Filters: dot_number (digits), decision (approved, approved_with_conditions, rejected, do_not_use), user, from and to (YYYY-MM-DD), page (1 or more).',
  records: 'GET /api/local/decisions lists them.',
  current: 'GET /api/local/decisions/current?dot_numbers=568253,2214589, or ?all=1&page=1',
  verify: 'Send {"receipts": [...]}, each receipt or checkpoint exactly as the proxy gave it.',
};

const BAD_INPUTS: BadInput[] = [
  {
    method: 'GET',
    path: '/api/local/verdict',
    status: 400,
    code: 'invalid_query',
    error: 'Give exactly one of dot_number or docket_number',
    hint: HINT.verdict,
  },
  {
    method: 'GET',
    path: '/api/local/verdict?dot_number=568253&docket_number=MC1',
    status: 400,
    code: 'invalid_query',
    error: 'Give exactly one of dot_number or docket_number',
    hint: HINT.verdict,
  },
  {
    method: 'GET',
    path: '/api/local/verdict?dot_number=1&dot_number=2',
    status: 400,
    code: 'invalid_query',
    error: 'Give exactly one of dot_number or docket_number',
    hint: HINT.verdict,
  },
  {
    method: 'GET',
    path: '/api/local/verdict?dot=568253',
    status: 400,
    code: 'invalid_query',
    error: 'Give exactly one of dot_number or docket_number',
    hint: HINT.verdict,
  },
  {
    method: 'GET',
    path: '/api/local/policy/versions/abc',
    status: 404,
    code: 'unknown_version',
    error: 'No policy version abc',
    hint: HINT.versions,
  },
  {
    method: 'GET',
    path: '/api/local/policy/versions/999',
    status: 404,
    code: 'unknown_version',
    error: 'No policy version 999',
    hint: HINT.versions,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    status: 400,
    code: 'invalid_body',
    error: 'The body must be a JSON object',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: '[1]',
    status: 400,
    code: 'invalid_body',
    error: 'The body must be a JSON object',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({ rule: {} }),
    status: 400,
    code: 'unknown_field',
    error: 'Unknown member "rule"',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({ note: 5 }),
    status: 400,
    code: 'invalid_note',
    error: '"note" must be text of at most 4000 characters',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({ note: LONG }),
    status: 400,
    code: 'invalid_note',
    error: '"note" must be text of at most 4000 characters',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({ rules: 5 }),
    status: 400,
    code: 'invalid_rules',
    error: '"rules" must be an object keyed by rule id',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({ rules: { nope: {} } }),
    status: 400,
    code: 'unknown_rule',
    error: 'Unknown rule "nope"',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({ rules: { new_entrant: 5 } }),
    status: 400,
    code: 'invalid_rule',
    error: '"new_entrant" must be an object of settings',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({ rules: { new_entrant: { threshold: 'x' } } }),
    status: 400,
    code: 'invalid_setting',
    error: '"new_entrant.threshold" must be a whole number from 0 to 3650 (days)',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({ options: 5 }),
    status: 400,
    code: 'invalid_options',
    error: '"options" must be an object',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({ options: { max_revet_days: 0 } }),
    status: 400,
    code: 'invalid_options',
    error: '"options.max_revet_days" must be a whole number of days from 1 to 730',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({ options: { other: 1 } }),
    status: 400,
    code: 'invalid_options',
    error: 'Unknown option "other"',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    status: 400,
    code: 'invalid_body',
    error: 'The body must be a JSON object',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: '[1]',
    status: 400,
    code: 'invalid_body',
    error: 'The body must be a JSON object',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: json({ rule: {} }),
    status: 400,
    code: 'unknown_field',
    error: 'Unknown member "rule"',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: json({ note: 5 }),
    status: 400,
    code: 'invalid_note',
    error: '"note" must be text of at most 4000 characters',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: json({ note: LONG }),
    status: 400,
    code: 'invalid_note',
    error: '"note" must be text of at most 4000 characters',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: json({ rules: 5 }),
    status: 400,
    code: 'invalid_rules',
    error: '"rules" must be an object keyed by rule id',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: json({ rules: { nope: {} } }),
    status: 400,
    code: 'unknown_rule',
    error: 'Unknown rule "nope"',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: json({ rules: { new_entrant: 5 } }),
    status: 400,
    code: 'invalid_rule',
    error: '"new_entrant" must be an object of settings',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: json({ rules: { new_entrant: { threshold: 'x' } } }),
    status: 400,
    code: 'invalid_setting',
    error: '"new_entrant.threshold" must be a whole number from 0 to 3650 (days)',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: json({ options: 5 }),
    status: 400,
    code: 'invalid_options',
    error: '"options" must be an object',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: json({ options: { max_revet_days: 0 } }),
    status: 400,
    code: 'invalid_options',
    error: '"options.max_revet_days" must be a whole number of days from 1 to 730',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/policy/preview',
    body: json({ options: { other: 1 } }),
    status: 400,
    code: 'invalid_options',
    error: 'Unknown option "other"',
    hint: HINT.policy,
  },
  {
    method: 'PUT',
    path: '/api/local/policy',
    body: json({}),
    status: 400,
    code: 'no_change',
    error: 'The settings are those of the current version',
    hint: HINT.policy,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    status: 400,
    code: 'invalid_body',
    error: 'The body must be a JSON object',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: '[1]',
    status: 400,
    code: 'invalid_body',
    error: 'The body must be a JSON object',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({}),
    status: 400,
    code: 'invalid_dot_number',
    error: '"dot_number" must be a USDOT number (1 to 8 digits)',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: 'abc', decision: 'approved' }),
    status: 400,
    code: 'invalid_dot_number',
    error: '"dot_number" must be a USDOT number (1 to 8 digits)',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: true, decision: 'approved' }),
    status: 400,
    code: 'invalid_dot_number',
    error: '"dot_number" must be a USDOT number (1 to 8 digits)',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: DOT, decision: 'maybe' }),
    status: 400,
    code: 'invalid_decision',
    error: '"decision" must be one of approved, approved_with_conditions, rejected, do_not_use',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: DOT, decision: 'approved_with_conditions' }),
    status: 400,
    code: 'missing_conditions',
    error: 'An approval with conditions needs its "conditions"',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: DOT, decision: 'rejected', override_reason: 'why' }),
    status: 400,
    code: 'invalid_override_reason',
    error:
      'Only an approval overrides a verdict: "override_reason" goes with approved or approved_with_conditions',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: DOT, decision: 'rejected', expires_on: '2026-02-30' }),
    status: 400,
    code: 'invalid_expires_on',
    error: '"expires_on" must be a date YYYY-MM-DD',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: DOT, decision: 'rejected', supersedes: -1 }),
    status: 400,
    code: 'invalid_supersedes',
    error: '"supersedes" must be the id of an earlier record',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: DOT, decision: 'rejected', note: LONG }),
    status: 400,
    code: 'invalid_note',
    error: '"note" is over 4000 characters (4001)',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: DOT, decision: 'rejected', note: 7 }),
    status: 400,
    code: 'invalid_note',
    error: '"note" must be text',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: DOT, decision: 'approved', override_reason: 'y'.repeat(2001) }),
    status: 400,
    code: 'invalid_override_reason',
    error: '"override_reason" is over 2000 characters (2001)',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: DOT, decision: 'rejected', extra: 1, note: 7 }),
    status: 400,
    code: 'unknown_field',
    error: 'Unknown member "extra"',
    hint: HINT.decision,
  },
  {
    method: 'POST',
    path: '/api/local/decisions',
    body: json({ dot_number: '99999999', decision: 'rejected' }),
    status: 404,
    code: 'profile_not_fetched',
    error: 'The profile of DOT 99999999 was never fetched',
    hint: HINT.notFetched,
  },
  {
    method: 'GET',
    path: '/api/local/decisions?x=1',
    status: 400,
    code: 'unknown_parameter',
    error: 'Unknown parameter "x"',
    hint: HINT.list,
  },
  {
    method: 'GET',
    path: '/api/local/decisions?page=0',
    status: 400,
    code: 'invalid_page',
    error: '"page" must be a whole number from 1',
    hint: HINT.list,
  },
  {
    method: 'GET',
    path: '/api/local/decisions?dot_number=abc',
    status: 400,
    code: 'invalid_dot_number',
    error: '"dot_number" must be 1 to 8 digits',
    hint: HINT.list,
  },
  {
    method: 'GET',
    path: '/api/local/decisions?decision=approved&decision=rejected',
    status: 400,
    code: 'repeated_parameter',
    error: 'Give each filter once',
    hint: HINT.list,
  },
  {
    method: 'GET',
    path: '/api/local/decisions?x=1&decision=approved&decision=rejected',
    status: 400,
    code: 'unknown_parameter',
    error: 'Unknown parameter "x"',
    hint: HINT.list,
  },
  {
    method: 'GET',
    path: '/api/local/decisions?page=0&page=1',
    status: 400,
    code: 'repeated_parameter',
    error: 'Give each filter once',
    hint: HINT.list,
  },
  {
    method: 'GET',
    path: '/api/local/decisions?from=2026-02-30',
    status: 400,
    code: 'invalid_from',
    error: '"from" must be a date YYYY-MM-DD',
    hint: HINT.list,
  },
  {
    method: 'GET',
    path: `/api/local/decisions?user=${'u'.repeat(201)}`,
    status: 400,
    code: 'invalid_user',
    error: '"user" is too long',
    hint: HINT.list,
  },
  {
    method: 'GET',
    path: '/api/local/decisions?decision=maybe',
    status: 400,
    code: 'invalid_decision',
    error: '"decision" must be one of approved, approved_with_conditions, rejected, do_not_use',
    hint: HINT.list,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/abc',
    status: 404,
    code: 'unknown_decision',
    error: 'No decision record abc',
    hint: HINT.records,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/999',
    status: 404,
    code: 'unknown_decision',
    error: 'No decision record 999',
    hint: HINT.records,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/abc/receipt',
    status: 404,
    code: 'unknown_decision',
    error: 'No decision record abc',
    hint: HINT.records,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/999/receipt',
    status: 404,
    code: 'unknown_decision',
    error: 'No decision record 999',
    hint: HINT.records,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/current',
    status: 400,
    code: 'invalid_dot_numbers',
    error: '"dot_numbers" must be 1 to 500 comma-separated USDOT numbers, or "all=1" (not both)',
    hint: HINT.current,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/current?dot_numbers=abc',
    status: 400,
    code: 'invalid_dot_numbers',
    error: '"dot_numbers" must be 1 to 500 comma-separated USDOT numbers',
    hint: HINT.current,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/current?dot_numbers=1&dot_numbers=2',
    status: 400,
    code: 'invalid_dot_numbers',
    error: '"dot_numbers" must be 1 to 500 comma-separated USDOT numbers',
    hint: HINT.current,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/current?all=2',
    status: 400,
    code: 'invalid_query',
    error:
      '"all" must be 1, with "page" (1 or more), "page_size" (1 to 500) and "needs_revet" (1) optional',
    hint: HINT.current,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/current?all=1&dot_numbers=1',
    status: 400,
    code: 'invalid_dot_numbers',
    error: '"dot_numbers" must be 1 to 500 comma-separated USDOT numbers, or "all=1" (not both)',
    hint: HINT.current,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/current?all=1&page=0',
    status: 400,
    code: 'invalid_query',
    error:
      '"all" must be 1, with "page" (1 or more), "page_size" (1 to 500) and "needs_revet" (1) optional',
    hint: HINT.current,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/current?all=1&page_size=501',
    status: 400,
    code: 'invalid_query',
    error:
      '"all" must be 1, with "page" (1 or more), "page_size" (1 to 500) and "needs_revet" (1) optional',
    hint: HINT.current,
  },
  {
    method: 'GET',
    path: '/api/local/decisions/current?all=1&needs_revet=yes',
    status: 400,
    code: 'invalid_query',
    error:
      '"all" must be 1, with "page" (1 or more), "page_size" (1 to 500) and "needs_revet" (1) optional',
    hint: HINT.current,
  },
  {
    method: 'POST',
    path: '/api/local/decisions/verify',
    status: 400,
    code: 'invalid_receipts',
    error: 'receipts must be a list',
    hint: HINT.verify,
  },
  {
    method: 'POST',
    path: '/api/local/decisions/verify',
    body: '[]',
    status: 400,
    code: 'invalid_receipts',
    error: 'Invalid input: expected object, received array',
    hint: HINT.verify,
  },
  {
    method: 'POST',
    path: '/api/local/decisions/verify',
    body: json({ receipts: 5 }),
    status: 400,
    code: 'invalid_receipts',
    error: 'receipts must be a list',
    hint: HINT.verify,
  },
  {
    method: 'POST',
    path: '/api/local/decisions/verify',
    body: json({ receipts: [], more: 1 }),
    status: 400,
    code: 'unknown_field',
    error: 'Unknown field more',
    hint: HINT.verify,
  },
  {
    method: 'POST',
    path: '/api/local/decisions/verify',
    body: json({ receipts: Array.from({ length: 1001 }, () => ({})) }),
    status: 400,
    code: 'invalid_receipts',
    error: 'At most 1000 receipts in one call',
    hint: HINT.verify,
  },
];

describe('bad inputs: byte for byte the answers of the hand-parsed routes', () => {
  it.each(BAD_INPUTS)('$method $path', async ({ method, path, body, status, ...answer }) => {
    const got = await call(method, path, body);
    expect(got.status).toBe(status);
    expect(got.text).toBe(
      JSON.stringify({ error: answer.error, code: answer.code, hint: answer.hint }),
    );
  });
});

/**
 * Test support for the monitoring module: a small fixture dataset and a real Fastify server on
 * 127.0.0.1 that wires the real clock, ledger, fault store, auth hook and error handling around
 * the monitoring routes, on a real SQLite file in a temp dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type Database from 'better-sqlite3';
import { registerAuth } from '../auth.ts';
import { createClock, type ResettableClock } from '../clock.ts';
import type { MonitoringModule } from '../context.ts';
import type { CarrierDataset, CarrierIdentity, WireProfile } from '../data/types.ts';
import { openSandboxDb } from '../db.ts';
import { sendError, toSandboxError } from '../errors.ts';
import { FaultStore } from '../faults.ts';
import { createLedger, type ResettableLedger } from '../ledger.ts';
import { createMonitoring } from './index.ts';

export const KEY = 'sk_test_monitoring';

const EXAMPLE: WireProfile = {
  dot_number: '568253',
  doc_id: '568253-MC277621',
  docket: 'MC277621',
  legal_name: 'HANSEN & ADKINS AUTO TRANSPORT INC',
  usdot_status: 'Active',
  authority_common: 'Active',
  indicator_authority: true,
  indicator_insurance: true,
  insurance_bipd_on_file: '1000000',
  insurance_bipd_required: '1000000',
  insurance_cancel_count: '0',
  insurance_history: [{ _id: 'ins-1', insurance_status: 'A', effective_date: '2019-04-01' }],
  authority_history: [{ _id: 'auth-1', original_action_desc: 'GRANTED' }],
  crash_history: [],
  safety_rating_desc: 'Satisfactory',
  safety_rating_date: '2019-06-12',
  iss_value: '45',
  crashes_total: '12',
  last_crash_date: '2026-03-02',
  intervention_threshold_unsafe_driving: 0.65,
  basic_alert_unsafe_driving: false,
  basic_percentile_unsafe_driving: 0.41,
  total_power_units: '897',
  total_drivers: '897',
  mcs150_date: '2025-08-20',
  mcs150_mileage: '80000000',
  telephone_number: '(562) 529-0199',
  email_address: 'safety@hansenadkins.example',
  email_domain: 'hansenadkins.example',
  physical_address_street: '3552 GREEN AVE',
  physical_address: '3552 GREEN AVE, LOS ALAMITOS, CA 90720',
  physical_address_state: 'CA',
  risk_score: 'Low',
  risk_score_probability: 0.08,
};

function carrier(dot: string, docket: string | undefined, extra: WireProfile): WireProfile {
  return {
    ...EXAMPLE,
    dot_number: dot,
    doc_id: docket ? `${dot}-${docket}` : dot,
    docket,
    legal_name: `FIXTURE CARRIER ${dot}`,
    ...extra,
  };
}

/** Seven carriers: the example, four more curated ones, one intrastate (no docket), one uncurated. */
const FIXTURE_PROFILES: readonly WireProfile[] = [
  EXAMPLE,
  carrier('1000001', 'MC100001', { safety_rating_desc: 'Conditional', risk_score: 'Medium' }),
  carrier('1000002', 'MX100002', { mcs150_date: '2024-01-15', insurance_bipd_on_file: '750000' }),
  carrier('1000003', undefined, {
    authority_common: undefined,
    indicator_authority: undefined,
    indicator_insurance: undefined,
    risk_score: undefined,
    risk_score_probability: undefined,
  }),
  carrier('1000004', 'FF100004', { safety_rating_date: '2022-11-30', total_power_units: '3' }),
  carrier('1000005', 'MC100005', { telephone_number: '8005550100' }),
  carrier('2000001', 'MC200001', {}),
].map((profile) =>
  Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== undefined)),
);

function identityOf(profile: WireProfile): CarrierIdentity {
  return {
    dot: String(profile.dot_number),
    legalName: String(profile.legal_name),
    docket: typeof profile.docket === 'string' ? profile.docket : undefined,
    city: 'LOS ALAMITOS',
    state: 'CA',
  };
}

/** `count` plain uncurated carriers, DOT 3000000 + i with docket MC3000000 + i. */
export function populationIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${3_000_000 + i}-MC${3_000_000 + i}`);
}

export function fixtureDataset(population = 0): CarrierDataset {
  const extra = populationIds(population).map((id) => {
    const [dot = '', docket] = id.split('-');
    return carrier(dot, docket, {});
  });
  const profiles = [...FIXTURE_PROFILES, ...extra];
  const byDot = new Map(profiles.map((profile) => [String(profile.dot_number), profile]));
  return {
    seed: 1,
    size: byDot.size,
    curatedDots: ['1000001', '568253', '1000002', '1000003', '1000004', '1000005'],
    heavyDot: '1000005',
    getProfile: (dot) => {
      const profile = byDot.get(dot);
      return profile && structuredClone(profile);
    },
    getIdentity: (dot) => {
      const profile = byDot.get(dot);
      return profile && identityOf(profile);
    },
    search: () => [],
    autocomplete: () => [],
    vehicle: () => undefined,
  };
}

export interface MonitoringFixture {
  db: Database.Database;
  dataDir: string;
  clock: ResettableClock;
  ledger: ResettableLedger;
  faults: FaultStore;
  monitoring: MonitoringModule;
  /** Move real time for the clock (it adds its persisted offset on top). */
  setRealNow(at: Date): void;
  /** Close the database (keeps the data dir). */
  closeDb(): void;
}

/** Open the state database in `dataDir` and build the monitoring module on it (init done). */
export function openFixture(dataDir: string, realNow: Date, population = 0): MonitoringFixture {
  const db = openSandboxDb(dataDir);
  let now = realNow.getTime();
  const clock = createClock(db, () => now);
  const ledger = createLedger(db);
  const faults = new FaultStore();
  const monitoring = createMonitoring({
    db,
    clock,
    ledger,
    faults,
    dataset: fixtureDataset(population),
  });
  monitoring.init();
  return {
    db,
    dataDir,
    clock,
    ledger,
    faults,
    monitoring,
    setRealNow: (at) => {
      now = at.getTime();
    },
    closeDb: () => db.close(),
  };
}

export function makeDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'monitoring-test-'));
}

export interface MonitoringServer extends MonitoringFixture {
  app: FastifyInstance;
  url: string;
  call(method: string, path: string, body?: unknown, rawBody?: string): Promise<CallResult>;
  close(): Promise<void>;
}

interface CallResult {
  status: number;
  text: string;
  json: unknown;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A listening server with the monitoring routes under /v2 and /api/v2. */
export async function startMonitoringServer(
  realNow: Date,
  population = 0,
): Promise<MonitoringServer> {
  const fixture = openFixture(makeDataDir(), realNow, population);
  const app = Fastify({
    frameworkErrors: (error, _request, reply) => void sendError(reply, toSandboxError(error)),
  });
  registerAuth(app, new Set([KEY]));
  app.setErrorHandler((error, _request, reply) =>
    sendError(reply, toSandboxError(error as Parameters<typeof toSandboxError>[0])),
  );
  for (const prefix of ['/v2', '/api/v2']) await fixture.monitoring.registerRoutes(app, { prefix });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    ...fixture,
    app,
    url,
    async call(method, path, body, rawBody) {
      const headers: Record<string, string> = { authorization: `Bearer ${KEY}` };
      if (body !== undefined || rawBody !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${url}${path}`, {
        method,
        headers,
        body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      });
      const text = await response.text();
      return { status: response.status, text, json: parse(text) };
    },
    async close() {
      await app.close();
      fixture.closeDb();
      rmSync(fixture.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The keys of the list body's `items` in wire order. JSON.parse cannot tell: JavaScript objects
 * enumerate integer-like keys (the bare-DOT IDs of carriers without a docket) first.
 */
export function itemKeyOrder(text: string): string[] {
  const start = text.indexOf('"items":{') + '"items":{'.length;
  const keys: string[] = [];
  let depth = 0;
  for (let i = start; i < text.length && depth >= 0; i += 1) {
    const char = text[i];
    if (char === '"') {
      const end = endOfString(text, i);
      if (depth === 0) keys.push(JSON.parse(text.slice(i, end + 1)) as string);
      i = end;
    } else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') depth -= 1;
  }
  return keys;
}

function endOfString(text: string, open: number): number {
  let i = open + 1;
  while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i;
}

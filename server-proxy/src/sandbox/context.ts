import type Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import type { BillingKind } from '../../../src/lib/service/endpoints.ts';
import type { CarrierDataset, WireProfile } from './data/types.ts';

/** Billable operations of the ledger: the contract's billing kinds (src/lib/service/endpoints.ts). */
export type BillableKind = BillingKind;

export interface SandboxClock {
  /** Current sandbox time (real time plus the offset moved by POST /__sandbox/advance). */
  now(): Date;
  /** Move the clock forward by whole days; persisted. */
  advanceDays(days: number): Date;
}

export interface Ledger {
  /**
   * Record a billable event for `apiKey` in the calendar month of `at`.
   * For per-unique-DOT kinds (profile, profile_lite, monitoring) a second charge for the same DOT in
   * the same month is recorded as free. Returns the amount charged (USD).
   */
  charge(apiKey: string, kind: BillableKind, at: Date, dot?: string): number;
  /** The whole ledger (for GET /__sandbox/ledger). */
  summary(apiKey?: string): unknown;
}

/** Everything a sandbox route module needs; built once by the app factory. */
export interface SandboxContext {
  db: Database.Database;
  clock: SandboxClock;
  ledger: Ledger;
  dataset: CarrierDataset;
  /** The API key of the current request is on `request.apiKey` (decorated by the auth hook). */
}

/** What one scripted regulator event did, as returned by POST /__sandbox/advance. */
export interface AppliedEvent {
  profileId: string;
  dot: string;
  channel: string;
  field: string;
  prior: unknown;
  current: unknown;
  date: string;
}

/**
 * Watchlist, change records and profile overrides (values moved by scripted regulator events), kept in
 * SQLite. Built by `createMonitoring()` in ./monitoring/index.ts; the app factory wires it in.
 */
export interface MonitoringModule {
  /** Create tables if missing and seed the initial watchlist/history when the database is new. */
  init(): void;
  /** Register /v2/monitoring/{add,remove,list} under `prefix` ('/v2' or '/api/v2'). */
  registerRoutes(app: FastifyInstance, opts: { prefix: string }): Promise<void>;
  /** Current values of fields moved by events, merged over the generated profile of `dot`. */
  applyOverrides(dot: string, profile: WireProfile): WireProfile;
  /** Drop all monitoring state and seed it again (POST /__sandbox/reset). */
  reset(): void;
  /** Apply the scripted events due in the next `days` days to watched carriers (POST /__sandbox/advance). */
  advance(days: number): AppliedEvent[];
}

/**
 * A fault rule with status 207 (partial success), handed to the module that implements partial
 * success itself (monitoring/add). All other fault statuses are applied by the app before any route
 * runs, so route modules never see them.
 */
export interface PartialFault {
  status: 207;
  /** Uses left on the rule after this one (0 when this was the last). */
  remaining: number;
}

/** Access to the fault rules set through POST /__sandbox/faults. */
export interface SandboxFaults {
  /**
   * Consume one use of a 207 rule matching this request, or undefined when none is armed.
   * `path` may be given on either deployment ('/v2/monitoring/add' or '/api/v2/monitoring/add').
   */
  take(path: string, method: string): PartialFault | undefined;
}

/** Fault rules, added to the context by the app factory (optional so hand-built contexts still fit). */
export interface SandboxContext {
  faults?: SandboxFaults;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The accepted sandbox API key of this request, set by the auth hook before any handler runs. */
    apiKey: string;
  }
}

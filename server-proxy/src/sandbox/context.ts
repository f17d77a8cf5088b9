import type Database from 'better-sqlite3';
import type { CarrierDataset } from './data/types.ts';

/** Billable operations with the published prices (service-facts). */
export type BillableKind = 'profile' | 'profile_lite' | 'profile_fmcsa' | 'autocomplete' | 'monitoring';

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

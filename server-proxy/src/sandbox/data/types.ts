/**
 * Contract between the sandbox's carrier data (curated fixtures, seeded population, heavy carrier)
 * and the sandbox HTTP server. Carrier data is deterministic from code + seed and lives in memory;
 * full profiles are built lazily so memory stays bounded.
 */
import type { SearchQuery } from '../../../../src/lib/service/rules/profile-search.ts';

/** A profile exactly as the service serves it on the wire (spec field names, strings for counters). */
export type WireProfile = Record<string, unknown>;

/** Minimal identity, enough for autocomplete and search result identity. */
export interface CarrierIdentity {
  dot: string;
  legalName: string;
  dbaName?: string;
  /** e.g. "MC277621"; absent for carriers without a docket */
  docket?: string;
  city: string;
  state: string;
}

/** The ten search keys of GET /v2/profile, as the contract's parameter rules read them. */
export type { SearchQuery };

export interface CarrierDataset {
  readonly seed: number;
  /** number of carriers (curated + heavy + population) */
  readonly size: number;
  /** Full wire profile for a DOT, or undefined. Values already validated/normalised by the caller. */
  getProfile(dot: string): WireProfile | undefined;
  getIdentity(dot: string): CarrierIdentity | undefined;
  /**
   * All DOTs matching a search, in a stable, documented order (best match first).
   * Values arrive validated but not normalised (e.g. phone may be formatted, EIN may carry a hyphen).
   */
  search(query: SearchQuery): string[];
  /** Prefix search on legal/DBA name (case-insensitive) and DOT-number prefix; at most `limit`. */
  autocomplete(q: string, limit: number): CarrierIdentity[];
  /** For a VIN search: decoded vehicle details and the vehicle's own inspection history. */
  vehicle(vin: string): { decoded: Record<string, unknown>; inspections: Record<string, unknown>[] } | undefined;
  /** The DOTs of the curated carriers (fixtures), in scenario order. */
  readonly curatedDots: readonly string[];
  readonly heavyDot: string;
}

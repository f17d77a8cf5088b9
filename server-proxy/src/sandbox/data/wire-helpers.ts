/** Small formatting helpers shared by the profile builder's family functions. */
import { Rng, hash, hashString } from './prng.ts';

export type Fields = Record<string, unknown>;

/** Integer counter as the service sends it (a string). */
export function count(n: number): string {
  return String(Math.round(n));
}

/** A ratio as a decimal-fraction string with up to 3 decimals ("0" when the base is zero). */
export function ratio(part: number, whole: number): string {
  if (whole <= 0) return '0';
  return String(Math.round((part / whole) * 1000) / 1000);
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Drop undefined values (the service omits fields without a value); null stays (tri-state). */
export function compact(fields: Fields): Fields {
  const out: Fields = {};
  for (const key in fields) {
    const value = fields[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Deterministic `_id` factory for the history records of one carrier. */
export function idMaker(dot: string, family: string): () => string {
  const rng = new Rng(hashString(dot), hashString(family));
  return () => rng.uuid();
}

/** A signed 64-bit-looking address id, equal for equal normalised addresses. */
export function addressId(normalised: string): string {
  const high = BigInt(hash(hashString(normalised), 1));
  const low = BigInt(hash(hashString(normalised), 2));
  return BigInt.asIntN(64, (high << 32n) | low).toString();
}

export function maxDate(dates: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const d of dates) if (best === undefined || d > best) best = d;
  return best;
}

/** Upper-case, only letters and digits: how addresses are compared. */
export function normaliseAddress(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

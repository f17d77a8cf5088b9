/** Helpers shared by the dataset tests: one dataset per test file and record accessors. */
import { createDataset } from './index.ts';
import type { CarrierDataset, WireProfile } from './types.ts';

export const TEST_SEED = 7;
export const TEST_POPULATION = 20_000;

let shared: CarrierDataset | undefined;

/** A 20,000-carrier dataset, built once per test file. */
export function testDataset(): CarrierDataset {
  shared ??= createDataset({ seed: TEST_SEED, population: TEST_POPULATION });
  return shared;
}

export function records(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null)
    : [];
}

export function profileOf(ds: CarrierDataset, dot: string): WireProfile {
  const profile = ds.getProfile(dot);
  if (!profile) throw new Error(`no profile for ${dot}`);
  return profile;
}

/** Every (path, value) leaf of a JSON value. */
export function leaves(value: unknown, path = ''): [string, unknown][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  }
  return [[path, value]];
}

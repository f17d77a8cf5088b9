import { describe, expect, it } from 'vitest';
import { createDataset } from './index.ts';
import { records, testDataset, TEST_POPULATION, TEST_SEED } from './dataset.test-support.ts';

const ds = testDataset();
const sample = ['5000000', '5000001', '5007777', '5019999'];

describe('seeded population', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    const again = createDataset({ seed: TEST_SEED, population: TEST_POPULATION });
    for (const dot of sample) expect(again.getProfile(dot)).toEqual(ds.getProfile(dot));
    const other = createDataset({ seed: TEST_SEED + 1, population: TEST_POPULATION });
    const names = (d: typeof ds) => sample.map((dot) => d.getIdentity(dot)?.legalName);
    expect(names(other)).not.toEqual(names(ds));
    expect(other.getProfile('568253')).toEqual(ds.getProfile('568253'));
  });

  it('numbers population DOTs after the curated and heavy carriers', () => {
    expect(ds.size).toBe(TEST_POPULATION + 11);
    expect(ds.getProfile('5000000')).toBeDefined();
    expect(ds.getProfile(String(5_000_000 + TEST_POPULATION))).toBeUndefined();
    for (const dot of ds.curatedDots) expect(Number(dot)).toBeLessThan(5_000_000);
  });

  it('keeps identity, search and profile in agreement', () => {
    for (const dot of sample) {
      const id = ds.getIdentity(dot);
      const p = ds.getProfile(dot);
      expect(id?.legalName).toBe(p?.legal_name);
      expect(id?.state).toBe(p?.physical_address_state);
      expect(ds.search({ key: 'phone', value: String(p?.telephone_number) })).toContain(dot);
      expect(ds.search({ key: 'email', value: String(p?.email_address) })).toContain(dot);
      expect(ds.search({ key: 'address', value: String(p?.physical_address) })).toContain(dot);
      expect(ds.search({ key: 'ein', value: String(p?.ein) })).toContain(dot);
      expect(Number(p?.inspections_total)).toBe(records(p?.inspection_history).length);
    }
  });

  it('spreads carriers across US states and Canadian provinces with plausible contacts', () => {
    const states = new Set<string>();
    let canadian = 0;
    for (let row = 0; row < 400; row += 1) {
      const p = ds.getProfile(String(5_000_000 + row));
      states.add(String(p?.physical_address_state));
      if (p?.physical_address_iso_country_code === 'CA') canadian += 1;
      expect(String(p?.telephone_number)).toMatch(/^\d{10}$/);
      expect(String(p?.ein)).toMatch(/^\d{9}$/);
      expect(String(p?.email_address)).toMatch(/^[a-z0-9.]+@[a-z0-9]+\.[a-z]+$/);
    }
    expect(states.size).toBeGreaterThan(30);
    expect(canadian).toBeGreaterThan(0);
  });
});

describe('heavy carrier', () => {
  it('has thousands of inspections, crashes and equipment records and a 500-DOT network', () => {
    const p = ds.getProfile(ds.heavyDot);
    const inspections = records(p?.inspection_history);
    expect(inspections.length).toBeGreaterThanOrEqual(5000);
    expect(inspections.some((i) => records(i.violations).length > 0)).toBe(true);
    expect(inspections.every((i) => typeof i.latitude === 'number')).toBe(true);
    expect(records(p?.crash_history).length).toBeGreaterThanOrEqual(1000);
    expect(records(p?.equipment_history).length).toBeGreaterThanOrEqual(2000);
    const network = p?.network_graph_equipment as string[];
    expect(network.length).toBeGreaterThanOrEqual(500);
    expect(network.every((dot) => ds.getProfile(dot) !== undefined)).toBe(true);
    expect(ds.getProfile(ds.heavyDot)).toBe(p);
  });
});

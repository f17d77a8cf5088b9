import { describe, expect, it } from 'vitest';
import type { StoredResponse } from '../cache.ts';
import { parseProfileResponse } from '../../../src/lib/service/index.ts';
import { evaluate } from '../../../src/lib/vetting/index.ts';
import { defaultSettings } from '../../../src/lib/vetting/policy.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../src/test/sandbox-profiles.node.ts';
import { VerdictProfiles, verdictProfileOf } from './verdict-profile.ts';

const HEAVY = '3999999';
const POLICY = { version: 1, settings: defaultSettings() };
const NOW = new Date('2026-11-26T12:00:00Z');

function wire(dot: string): Record<string, unknown> {
  return sandboxProfile(dot).raw as Record<string, unknown>;
}

describe('verdictProfileOf', () => {
  // every curated carrier (the live-shape 265752 among them) and the heavy one
  const dots = [...CURATED_DOTS, HEAVY];

  it.each(dots)('DOT %s: the same verdict as from the whole parsed answer', (dot) => {
    const body = { items: [wire(dot)] };
    const whole = parseProfileResponse(body).value.items[0];
    const trimmed = verdictProfileOf(body);
    expect(whole).toBeDefined();
    expect(trimmed).toBeDefined();
    expect(evaluate(trimmed!, POLICY, NOW)).toEqual(evaluate(whole!, POLICY, NOW));
    expect(trimmed!.dot_number).toBe(whole!.dot_number);
  });

  it('leaves the histories out and keeps the equipment network the rules read', () => {
    const raw = wire(HEAVY);
    expect((raw.inspection_history as unknown[]).length).toBeGreaterThan(0);
    const profile = verdictProfileOf({ items: [raw] })!;
    expect(profile.inspection_history).toBeUndefined();
    expect(profile.crash_history).toBeUndefined();
    expect(profile.equipment_history).toBeUndefined();
    expect((profile.network_graph_equipment_ext ?? []).length).toBeGreaterThan(0);
  });

  it('reads every form of answer: envelope, bare array, bare item', () => {
    const raw = wire('4418207');
    const fromEnvelope = verdictProfileOf({ items: [raw] });
    expect(verdictProfileOf([raw])).toEqual(fromEnvelope);
    expect(verdictProfileOf(raw)).toEqual(fromEnvelope);
    expect(fromEnvelope?.dot_number).toBe('4418207');
  });

  it('finds no profile in an empty or foreign answer', () => {
    expect(verdictProfileOf({ items: [] })).toBeUndefined();
    expect(verdictProfileOf(null)).toBeUndefined();
  });
});

describe('VerdictProfiles', () => {
  const stored = (): StoredResponse => ({
    status: 200,
    body: '',
    headers: {},
    fetchedAt: new Date(),
    dots: ['4418207'],
  });

  it('parses a stored answer once and a new one again', () => {
    const profiles = new VerdictProfiles();
    let reads = 0;
    const json = () => {
      reads += 1;
      return { items: [wire('4418207')] };
    };
    const first = stored();
    expect(profiles.of(first, json)?.dot_number).toBe('4418207');
    expect(profiles.of(first, json)?.dot_number).toBe('4418207');
    expect(reads).toBe(1);
    profiles.of(stored(), json);
    expect(reads).toBe(2);
  });

  it('keeps "no profile" too, and parses every time without a stored answer', () => {
    const profiles = new VerdictProfiles();
    let reads = 0;
    const empty = () => {
      reads += 1;
      return { items: [] };
    };
    const entry = stored();
    expect(profiles.of(entry, empty)).toBeUndefined();
    expect(profiles.of(entry, empty)).toBeUndefined();
    expect(reads).toBe(1);
    profiles.of(undefined, empty);
    profiles.of(undefined, empty);
    expect(reads).toBe(3);
  });
});

/**
 * A bulk row names the BASICs in alert by their names; the service's keys (and its misspelling
 * `vehicle_maintence`) stay in the wire format.
 */
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../src/lib/vetting/index.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../src/test/sandbox-profiles.node.ts';
import { itemResult } from './result.ts';

const POLICY = { version: 1, settings: defaultSettings() };
const NOW = new Date('2026-11-20T12:00:00Z');

describe('itemResult', () => {
  it('names the BASICs in alert as people read them', () => {
    const result = itemResult(sandboxProfile('3187452').parsed.value, POLICY, NOW);
    expect(result.basic_alerts).toEqual(['Hours-of-Service Compliance', 'Vehicle Maintenance']);
  });

  it('puts no service key in any text of a curated carrier', () => {
    for (const dot of CURATED_DOTS) {
      const result = itemResult(sandboxProfile(dot).parsed.value, POLICY, NOW);
      const texts = [...result.basic_alerts, ...result.reasons, result.authority ?? ''];
      for (const text of texts) expect(text, `DOT ${dot}`).not.toMatch(/[a-z]_[a-z]/);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { auditProfileParse, parseProfile } from '../../../../src/lib/service/index.ts';
import { testDataset } from './dataset.test-support.ts';

const ds = testDataset();
const population = ['5000000', '5000003', '5004242', '5012345', '5019999'];

describe('profiles read by the shared parser', () => {
  it.each([...ds.curatedDots, ...population, ds.heavyDot])('DOT %s parses with no lost known field', (dot) => {
    const raw = ds.getProfile(dot);
    const parsed = parseProfile(raw);
    expect(parsed.value.dot_number).toBe(dot);
    const audit = auditProfileParse(raw);
    expect(audit.lost).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { exceedsJsonDepth } from './json-depth.ts';

describe('exceedsJsonDepth', () => {
  it('counts arrays and objects, not brackets inside strings', () => {
    const nested = (n: number) => `${'[{"a":'.repeat(n)}1${'}]'.repeat(n)}`;
    expect(exceedsJsonDepth(nested(100))).toBe(false); // 200 levels
    expect(exceedsJsonDepth(nested(101))).toBe(true);
    expect(exceedsJsonDepth(`["${'['.repeat(1000)}"]`)).toBe(false);
    expect(exceedsJsonDepth(`["\\"${'['.repeat(1000)}\\\\"]`)).toBe(false);
    expect(exceedsJsonDepth(`["\\\\"${'['.repeat(300)}`)).toBe(true);
    expect(exceedsJsonDepth('['.repeat(100_000))).toBe(true);
  });
});

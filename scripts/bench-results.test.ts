import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  meets,
  metric,
  percentile,
  resultsFileName,
  summarise,
  writeResultsFile,
} from './bench-results.ts';

describe('summarise', () => {
  it('takes the middle value of an odd count and the mean of the two middle ones otherwise', () => {
    expect(summarise([30, 10, 20]).median).toBe(20);
    expect(summarise([40, 10, 30, 20]).median).toBe(25);
  });

  it('reports the count, range and nearest-rank p95, rounded to 0.1', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i + 0.04);
    expect(summarise(values)).toEqual({ n: 100, median: 50.5, p95: 95, min: 1, max: 100 });
  });

  it('gives NaN figures for no values', () => {
    const empty = summarise([]);
    expect(empty.n).toBe(0);
    expect(empty.median).toBeNaN();
    expect(empty.max).toBeNaN();
  });
});

describe('percentile', () => {
  it('is the smallest value with at least p % of the values at or below it', () => {
    const sorted = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(sorted, 95)).toBe(19);
    expect(percentile(sorted, 100)).toBe(20);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile([7], 95)).toBe(7);
  });
});

describe('meets', () => {
  it('compares with each kind of target', () => {
    expect(meets(100, { op: '<=', value: 100 })).toBe(true);
    expect(meets(100.1, { op: '<=', value: 100 })).toBe(false);
    expect(meets(95, { op: '>=', value: 95 })).toBe(true);
    expect(meets(94, { op: '>=', value: 95 })).toBe(false);
    expect(meets(100, { op: '=', value: 100 })).toBe(true);
    expect(meets(99, { op: '=', value: 100 })).toBe(false);
  });

  it('has no verdict without a target or a finite value', () => {
    expect(meets(5, null)).toBeNull();
    expect(meets(null, { op: '<=', value: 1 })).toBeNull();
    expect(meets(Number.NaN, { op: '<=', value: 1 })).toBeNull();
  });
});

describe('metric', () => {
  it('fills in the verdict and a missing target', () => {
    const entry = metric({ metric: 'x.y', label: 'y', value: 3, unit: 'ms' });
    expect(entry).toEqual({
      metric: 'x.y',
      label: 'y',
      value: 3,
      unit: 'ms',
      target: null,
      met: null,
    });
    const missed = metric({ ...entry, target: { op: '<=', value: 2 } });
    expect(missed.met).toBe(false);
  });
});

describe('writeResultsFile', () => {
  it('writes <bench>-<UTC date>.json with the write time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
    try {
      const file = writeResultsFile({ bench: 'demo', settings: { runs: 1 }, metrics: [] }, dir);
      expect(file).toBe(join(dir, resultsFileName('demo')));
      const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(written).toMatchObject({ bench: 'demo', settings: { runs: 1 }, metrics: [] });
      expect(Date.now() - Date.parse(String(written.date))).toBeLessThan(60_000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the file after the UTC day', () => {
    expect(resultsFileName('browser', new Date('2026-11-22T23:59:59Z'))).toBe(
      'browser-2026-11-22.json',
    );
  });
});

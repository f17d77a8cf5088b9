import { describe, expect, it } from 'vitest';
import { metric, type ResultsFile } from './bench-results.ts';
import {
  EXPECTED,
  buildSummary,
  figureText,
  latestResultFile,
  markdownTable,
  parseResultsFile,
  targetText,
  type ExpectedMetric,
} from './bench-summary.ts';

const file = (bench: string, metrics: ResultsFile['metrics']): ResultsFile => ({
  bench,
  date: '2026-11-22T12:00:00.000Z',
  settings: {},
  metrics,
});

const expected: ExpectedMetric[] = [
  { group: 'A', metric: 'one.p95', label: 'p95', unit: 'ms', target: { op: '<=', value: 100 } },
  { group: 'B', metric: 'two.lazy.', label: 'lazy', unit: 'kB', target: null, prefix: true },
  { group: 'C', metric: 'three.rss', label: 'RSS', unit: 'MB', target: { op: '<=', value: 600 } },
];

describe('buildSummary', () => {
  it('lists the expected figures in order with their verdicts, then the other figures', () => {
    const rows = buildSummary(
      {
        one: file('one', [
          metric({ metric: 'one.extra', label: 'an extra', value: 1, unit: 'ms' }),
          metric({
            metric: 'one.p95',
            label: 'from the file',
            value: 120,
            unit: 'ms',
            target: { op: '<=', value: 100 },
            spread: { n: 60, min: 50, max: 150 },
          }),
        ]),
        two: file('two', [
          metric({ metric: 'two.lazy.map', label: 'map', value: 376.4, unit: 'kB' }),
          metric({ metric: 'two.lazy.charts', label: 'charts', value: 109.6, unit: 'kB' }),
        ]),
      },
      expected,
    );
    expect(rows.map((row) => [row.group, row.label, row.status])).toEqual([
      ['A', 'p95', 'MISSED'],
      ['B', 'map', 'no target'],
      ['B', 'charts', 'no target'],
      ['C', 'RSS', 'no figures'],
      ['also measured (one)', 'an extra', 'no target'],
    ]);
    expect(rows[0]?.spread).toEqual({ n: 60, min: 50, max: 150 });
    expect(rows[3]).toMatchObject({ value: null, target: { op: '<=', value: 600 }, unit: 'MB' });
  });

  it('tells a figure not measured (no value) from one without a file', () => {
    const rows = buildSummary(
      {
        one: file('one', [
          metric({ metric: 'one.p95', label: 'p95', value: null, unit: 'ms', target: null }),
        ]),
      },
      expected.slice(0, 1),
    );
    expect(rows[0]?.status).toBe('not measured');
  });

  it('expects each figure of the issue table once, each from a known benchmark', () => {
    const ids = EXPECTED.map((row) => row.metric);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('browser.autocomplete.p95');
    expect(ids).toContain('lighthouse.profile.best-practices');
    expect(ids).toContain('sandbox.profile_first.p95');
    expect(ids).toContain('proxy.ratio_nginx');
    const rows = buildSummary({});
    expect(rows).toHaveLength(EXPECTED.length);
    expect(rows.every((row) => row.status === 'no figures')).toBe(true);
  });
});

describe('latestResultFile', () => {
  const files = [
    { name: 'browser-2026-11-21.json', mtimeMs: 1_000 },
    { name: 'browser-2026-11-22.json', mtimeMs: 3_000 },
    { name: 'browser-notes.json', mtimeMs: 9_000 },
    { name: 'summary-2026-11-22.json', mtimeMs: 9_000 },
  ];

  it('picks the newest file of that benchmark', () => {
    expect(latestResultFile(files, 'browser')).toBe('browser-2026-11-22.json');
  });

  it('ignores files older than the run', () => {
    expect(latestResultFile(files, 'browser', 2_000)).toBe('browser-2026-11-22.json');
    expect(latestResultFile(files, 'browser', 4_000)).toBeUndefined();
    expect(latestResultFile(files, 'proxy')).toBeUndefined();
  });
});

describe('parseResultsFile', () => {
  it('accepts the results shape', () => {
    const good = file('one', [metric({ metric: 'one.a', label: 'a', value: 1, unit: 'ms' })]);
    expect(parseResultsFile(JSON.parse(JSON.stringify(good)))).toEqual(good);
  });

  it('says what is wrong with another shape', () => {
    const result = parseResultsFile({ bench: 'one', date: 'x', settings: {}, metrics: [{}] });
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toContain('metric');
  });
});

describe('text', () => {
  it('writes targets and figures with their units and spread', () => {
    expect(targetText({ op: '<=', value: 10_000 }, 'ms')).toBe('≤ 10,000 ms');
    expect(targetText({ op: '>=', value: 0.7 }, 'ratio')).toBe('≥ 0.70');
    expect(targetText({ op: '=', value: 100 }, 'score')).toBe('= 100');
    expect(targetText(null, 'ms')).toBe('—');
    const row = buildSummary(
      {
        one: file('one', [
          metric({
            metric: 'one.p95',
            label: 'p95',
            value: 1234.5,
            unit: 'ms',
            spread: { n: 3, min: 1000, max: 1500 },
          }),
        ]),
      },
      expected.slice(0, 1),
    )[0];
    expect(row && figureText(row)).toBe('1,235 ms (n=3, 1,000–1,500)');
    const small = row && { ...row, value: 8.04, spread: { n: 100, min: 0.2, max: 61.34 } };
    expect(small && figureText(small)).toBe('8.04 ms (n=100, 0.2–61.3)');
    expect(small && figureText({ ...small, value: 119.53, unit: 'kB' })).toMatch(/^119\.5 kB/);
  });

  it('makes a Markdown table naming each group once', () => {
    const rows = buildSummary({}, [
      expected[0]!,
      { ...expected[0]!, metric: 'one.p50', label: 'p50' },
    ]);
    const lines = markdownTable(rows).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^\|-+\|/);
    expect(lines[2]).toMatch(/^\| A +\| p95 +\| no figures \| ≤ 100 ms \|/);
    expect(lines[3]).toMatch(/^\| {2,}\| p50 /);
  });
});

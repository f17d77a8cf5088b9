/**
 * The machine-readable shape every benchmark writes to `bench/results/<bench>-<YYYY-MM-DD>.json`,
 * and the statistics the TypeScript benchmarks share. `scripts/bench-report.ts` reads these files
 * into the one summary table of `npm run bench`; docs/performance.md describes the shape.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type TargetOp = '<=' | '>=' | '=';

/** A target such as "p95 ≤ 100 ms": `{ op: '<=', value: 100 }` in the entry's unit. */
export interface Target {
  op: TargetOp;
  value: number;
}

export interface Spread {
  n: number;
  min: number;
  max: number;
}

/** One figure. `value` null: not measured in this run (e.g. nginx not installed). */
export interface MetricEntry {
  /** stable id, `<bench>.<what>[.<statistic>]`, e.g. `browser.autocomplete.p95` */
  metric: string;
  /** what was measured, for people */
  label: string;
  value: number | null;
  /** ms, kB (1,000 bytes, gzip), MB (10^6 bytes), req/s, ratio, score (0–100) */
  unit: string;
  target: Target | null;
  /** null when there is no target or no value */
  met: boolean | null;
  spread?: Spread;
}

export interface ResultsFile {
  bench: string;
  /** ISO time the file was written */
  date: string;
  settings: Record<string, unknown>;
  metrics: MetricEntry[];
  /** anything else the benchmark wants to keep (raw runs, audits…) */
  details?: unknown;
}

export function meets(value: number | null, target: Target | null): boolean | null {
  if (value === null || target === null || !Number.isFinite(value)) return null;
  if (target.op === '<=') return value <= target.value;
  if (target.op === '>=') return value >= target.value;
  return value === target.value;
}

export function metric(
  fields: Omit<MetricEntry, 'met' | 'target'> & { target?: Target | null },
): MetricEntry {
  const target = fields.target ?? null;
  return { ...fields, target, met: meets(fields.value, target) };
}

export interface Summary {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of an ascending list (NaN when empty). */
export function percentile(sorted: readonly number[], p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] ?? NaN;
}

/** Median (the middle value, or the mean of the two middle ones), p95 and range, to 0.1. */
export function summarise(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (value: number) => Math.round(value * 10) / 10;
  const middle = sorted.length / 2;
  const median =
    sorted.length % 2 === 1
      ? (sorted[Math.floor(middle)] ?? NaN)
      : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
  return {
    n: sorted.length,
    median: round(median),
    p95: round(percentile(sorted, 95)),
    min: round(sorted[0] ?? NaN),
    max: round(sorted.at(-1) ?? NaN),
  };
}

/** bench/results/, or BENCH_RESULTS_DIR (a run of its own on a machine where others run too). */
export const RESULTS_DIR =
  process.env.BENCH_RESULTS_DIR || fileURLToPath(new URL('../bench/results/', import.meta.url));

/** `<bench>-<UTC date>.json` (a later run the same day replaces it). */
export function resultsFileName(bench: string, at = new Date()): string {
  return `${bench}-${at.toISOString().slice(0, 10)}.json`;
}

export function writeResultsFile(results: Omit<ResultsFile, 'date'>, dir = RESULTS_DIR): string {
  mkdirSync(dir, { recursive: true });
  const now = new Date();
  const file = join(dir, resultsFileName(results.bench, now));
  const content: ResultsFile = { ...results, date: now.toISOString() };
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
  return file;
}

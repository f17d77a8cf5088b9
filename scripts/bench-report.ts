/**
 * Prints the summary table of issue 6's figures from the newest result file of each benchmark in
 * bench/results/ and writes it to bench/results/summary-<date>.json. `npm run bench` runs it last,
 * with `--since` (files older than its start are ignored: a step that failed shows "no figures")
 * and `--steps` (how each step ended, JSON). Alone:
 *
 *   npx tsx scripts/bench-report.ts            # the newest file of each benchmark, however old
 */
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RESULTS_DIR, resultsFileName, type ResultsFile } from './bench-results.ts';
import {
  SOURCES,
  buildSummary,
  latestResultFile,
  markdownTable,
  parseResultsFile,
  type SummaryRow,
} from './bench-summary.ts';

interface Source {
  file: string | null;
  /** why the file was not used, if it was not */
  problem?: string;
}

function resultFiles(): { name: string; mtimeMs: number }[] {
  try {
    return readdirSync(RESULTS_DIR).map((name) => ({
      name,
      mtimeMs: statSync(join(RESULTS_DIR, name)).mtimeMs,
    }));
  } catch {
    return [];
  }
}

function readSources(since: number) {
  const listing = resultFiles();
  const files: Partial<Record<string, ResultsFile>> = {};
  const sources: Record<string, Source> = {};
  for (const bench of SOURCES) {
    const name = latestResultFile(listing, bench, since);
    if (name === undefined) {
      sources[bench] = {
        file: null,
        problem: since > 0 ? 'no result file from this run' : 'no result file',
      };
      continue;
    }
    const path = join(RESULTS_DIR, name);
    let parsed: ResultsFile | Error;
    try {
      parsed = parseResultsFile(JSON.parse(readFileSync(path, 'utf8')));
    } catch (error) {
      parsed = error instanceof Error ? error : new Error(String(error));
    }
    if (parsed instanceof Error) {
      sources[bench] = { file: path, problem: `not in the results shape: ${parsed.message}` };
    } else {
      files[bench] = parsed;
      sources[bench] = { file: path };
    }
  }
  return { files, sources };
}

function counts(rows: readonly SummaryRow[]) {
  const count = (status: SummaryRow['status']) => rows.filter((r) => r.status === status).length;
  return {
    met: count('met'),
    missed: count('MISSED'),
    noFigures: count('no figures'),
    notMeasured: count('not measured'),
  };
}

function main(): void {
  const { values } = parseArgs({
    options: { since: { type: 'string' }, mode: { type: 'string' }, steps: { type: 'string' } },
  });
  const since = Number(values.since ?? 0);
  const steps: unknown = values.steps ? JSON.parse(values.steps) : null;
  const { files, sources } = readSources(since);
  const rows = buildSummary(files);
  const totals = counts(rows);
  const mode =
    values.mode === 'quick' ? ' — QUICK mode: small populations, not the figures of record' : '';
  console.log(`\n=== issue 6 figures (${RESULTS_DIR})${mode}\n`);
  console.log(markdownTable(rows));
  for (const [bench, source] of Object.entries(sources)) {
    if (source.problem)
      console.log(`${bench}: ${source.problem}${source.file ? ` (${source.file})` : ''}`);
  }
  console.log(
    `\n${totals.met} met, ${totals.missed} missed, ${totals.noFigures} without figures, ${totals.notMeasured} not measured; load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, resultsFileName('summary'));
  const summary = {
    date: new Date().toISOString(),
    mode: values.mode ?? null,
    loadAverage: loadavg(),
    steps,
    sources,
    totals,
    rows,
  };
  writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`summary written to ${file}`);
}

main();

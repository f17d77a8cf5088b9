/**
 * Import a single proxy's SQLite file into the team deployment's PostgreSQL (docs/deployment.md):
 *   DATABASE_URL=postgres://… npm run db:import-sqlite -- --from <DATA_DIR>/proxy.sqlite [--dry-run]
 * PostgreSQL is named by DATABASE_URL only (it may hold a password: never an argument, never
 * printed). Prints one line per table and a total; exits 0 on success, 1 with a one-line reason
 * when the import is refused or fails (nothing is then copied), 2 on a usage error.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { importSqlite, ImportRefusal, NOT_IMPORTED } from './import-sqlite.ts';

const USAGE =
  'usage: DATABASE_URL=postgres://… npm run db:import-sqlite -- --from <DATA_DIR>/proxy.sqlite [--dry-run]';

function fail(code: number, message: string): never {
  process.stderr.write(`db:import-sqlite: ${message}\n`);
  process.exit(code);
}

/** One line, with any URL's user and password taken out (a driver's message might quote one). */
function oneLine(message: string, url: string): string {
  let text = message.replaceAll(url, '<DATABASE_URL>');
  text = text.replace(/(postgres(?:ql)?:\/\/)[^@\s/]*@/gi, '$1***@');
  return text.replace(/\s*\n\s*/g, ' ');
}

let args: { from?: string; dryRun: boolean };
try {
  const { values, positionals } = parseArgs({
    options: { from: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (positionals.length > 0) fail(2, `unexpected argument(s); ${USAGE}`);
  args = { from: values.from, dryRun: values['dry-run'] };
} catch (err) {
  fail(2, `${(err as Error).message.split('\n')[0] ?? ''}; ${USAGE}`);
}

const url = process.env.DATABASE_URL ?? '';
if (args.from === undefined || args.from === '') fail(2, `--from is required; ${USAGE}`);
if (!/^postgres(ql)?:\/\//i.test(url)) {
  fail(2, 'DATABASE_URL must be set to the PostgreSQL database to import into (postgres://…)');
}

const rowsText = (count: number) => `${count} ${count === 1 ? 'row' : 'rows'}`;

// `npm run` starts this in the package's folder: a relative --from is read from where npm was run.
const from = resolve(process.env.INIT_CWD ?? process.cwd(), args.from);

try {
  const report = await importSqlite(from, url, { dryRun: args.dryRun });
  const verb = report.dryRun ? 'would copy' : 'copied';
  const width = Math.max(...report.tables.map((t) => t.table.length));
  for (const { table, rows } of report.tables) {
    process.stdout.write(`${table.padEnd(width)}  ${verb} ${rowsText(rows)}\n`);
  }
  process.stdout.write(`${'total'.padEnd(width)}  ${verb} ${rowsText(report.total)}\n`);
  for (const [table, why] of Object.entries(NOT_IMPORTED)) {
    process.stdout.write(`${table.padEnd(width)}  not copied: ${why}\n`);
  }
  const where = report.dryRun ? 'in the SQLite file' : 'in PostgreSQL';
  const { chain } = report;
  process.stdout.write(
    chain.ok
      ? `decision chain ${where}: intact, ${chain.count} records\n`
      : `decision chain ${where}: BROKEN at record ${chain.first_bad_id ?? '?'} of ${chain.count} (${chain.problem ?? 'unknown'}); copied verbatim, the Decisions page shows the same\n`,
  );
  if (report.dryRun) process.stdout.write('dry run: nothing was copied\n');
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ImportRefusal) fail(1, oneLine(message, url));
  fail(1, `import failed, nothing was copied: ${oneLine(message, url)}`);
}

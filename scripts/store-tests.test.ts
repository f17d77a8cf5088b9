/**
 * Keeps the store tests honest (issue 30): every store module of the proxy — a file that runs SQL
 * through the engine (`sql.query(…)`, `tx.run(…)`, …) — is tested on both engines through the one
 * harness (server-proxy/src/sql/engines.test-support.ts: `forEachEngine`, or `forEachDatabase`
 * for a store tested through its routes), no test returns early when PostgreSQL or Redis is
 * missing (a test that returns passes having checked nothing; it must skip through the runner,
 * with the reason), and no Vitest test skips without a reason (`describe.skipIf(…)`, `it.skip(…)`,
 * `context.skip()`: the run could not say why; `context.skip(reason)` and the harness's `use…`
 * functions can).
 * STORE_TESTS_ROOT checks another checkout instead of this one.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('..', import.meta.url));

/** Files that run SQL through the engine but are no store, with why. */
const NOT_STORES: Record<string, string> = {
  'sql/postgres.ts': 'the PostgreSQL engine itself (sql/engine.test.ts)',
  'sql/sqlite.ts': 'the SQLite engine itself (sql/engine.test.ts)',
  'sql/import-sqlite.ts': 'copies a SQLite file into PostgreSQL: both engines by nature',
  'sql/migrate.ts': 'PostgreSQL migrations (schema tests)',
  'vetting/routes.ts':
    'one read of the audit log in a route (everFetched); tested through the routes on SQLite ' +
    '(vetting/routes.test.ts) and on PostgreSQL (vetting/postgres-vetting.test.ts)',
};

/**
 * Store modules that are part of a route and tested through it, on both engines, by the test
 * named (which must declare its cases through the harness).
 */
const TESTED_THROUGH_ROUTES: Record<string, string> = {
  'vetting/current.ts': 'vetting/standing.test.ts',
  'vetting/held.ts': 'vetting/standing.test.ts',
  'vetting/standing-changes.ts': 'vetting/standing.test.ts',
};

/** Runs SQL through an engine or a transaction: the mark of a store module. */
const RUNS_SQL = /\b(?:sql|tx|engine|executor)\.(?:query|run|transaction)\s*[<(]/;
/** A test that declares its cases through the both-engines harness. */
const USES_HARNESS = /\b(?:forEachEngine|forEachDatabase)\s*\(/;
/**
 * `if (<something about a service or a skip>) return`: a test (or its hook) that ends early,
 * passing, when PostgreSQL or Redis is missing. `return context.skip(…)` is the runner's skip.
 */
const EARLY_RETURN =
  /^\s*if\s*\((?:[^()]|\([^()]*\))*\b(?:skip\w*|\w*[Pp]ostgres\w*|\w*[Rr]edis\w*|pg|started|services?)\b(?:[^()]|\([^()]*\))*\)\s*\{?\s*return\s*(?:;|\}|$|undefined\b)/;

/**
 * A skip that gives the runner no reason: Vitest's `skipIf`/`runIf` and the static `.skip` of a
 * `describe`/`it`/`test` take none, nor does `context.skip()` called empty.
 */
const SKIP_WITHOUT_REASON =
  /\b(?:describe|it|test|suite)(?:\.\w+)*\.(?:skipIf|runIf|skip)\s*\(|\bskip\(\s*\)/;

/** The code of `line`: string literals emptied (a fixture's text), comments dropped. */
const codeOf = (line: string) =>
  /^\s*(?:\*|\/\*)/.test(line)
    ? ''
    : line
        .replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''")
        .replace(/\/\/.*$/, '');

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const isTest = (file: string) => file.endsWith('.test.ts');
const isSupport = (file: string) => file.endsWith('.test-support.ts');

/** The relative `.ts` imports of `file`, as absolute paths. */
function importsOf(file: string, text: string): string[] {
  const specs = [...text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+\.ts)'/g)].map((m) => m[1] ?? '');
  return specs.map((spec) => resolve(dirname(file), spec));
}

export interface StoreTestProblems {
  /** store modules (relative to server-proxy/src) no both-engines test reaches */
  untested: string[];
  /** test files (relative to the root) that return early on a missing service, with the line */
  earlyReturns: string[];
  /** Vitest test files (relative to the root) that skip without a reason, with the line */
  skipsWithoutReason: string[];
}

/**
 * The store modules under `root`/server-proxy/src that no test declared through the harness
 * reaches (directly, or through the modules of the store's own folder it imports), and the test
 * files that return early on a missing service or skip without a reason.
 */
export function storeTestProblems(root: string): StoreTestProblems {
  const src = join(root, 'server-proxy/src');
  const files = walk(src).filter((file) => !relative(src, file).startsWith('sandbox/'));
  const text = new Map(files.map((file) => [file, readFileSync(file, 'utf8')]));
  const read = (file: string) => text.get(file) ?? '';

  const stores = files.filter(
    (file) =>
      !isTest(file) &&
      !isSupport(file) &&
      RUNS_SQL.test(read(file)) &&
      !(relative(src, file) in NOT_STORES),
  );
  const reached = new Set<string>();
  for (const test of files.filter((file) => isTest(file) && USES_HARNESS.test(read(file)))) {
    const queue = importsOf(test, read(test));
    while (queue.length > 0) {
      const module = queue.pop() ?? '';
      if (reached.has(module) || !text.has(module) || isTest(module) || isSupport(module)) continue;
      reached.add(module);
      // a store split into modules: follow the imports inside its own folder
      const own = importsOf(module, read(module)).filter((m) => dirname(m) === dirname(module));
      queue.push(...own);
    }
  }
  const throughRoute = (file: string) => {
    const test = TESTED_THROUGH_ROUTES[relative(src, file)];
    return test !== undefined && USES_HARNESS.test(read(join(src, test)));
  };
  const untested = stores
    .filter((file) => !reached.has(file) && !throughRoute(file))
    .map((file) => relative(src, file));

  const earlyReturns: string[] = [];
  const skipsWithoutReason: string[] = [];
  const testDirs = ['server-proxy', 'src', 'scripts', 'e2e'].map((dir) => join(root, dir));
  for (const file of testDirs.flatMap((dir) => walk(dir)).filter(isTest)) {
    const where = relative(root, file);
    // e2e is Playwright's: its test.skip(condition, reason) carries the reason
    const vitest = !where.startsWith('e2e/');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (EARLY_RETURN.test(line)) earlyReturns.push(`${where}:${index + 1}: ${line.trim()}`);
      if (vitest && SKIP_WITHOUT_REASON.test(codeOf(line))) {
        skipsWithoutReason.push(`${where}:${index + 1}: ${line.trim()}`);
      }
    });
  }
  return {
    untested: untested.sort(),
    earlyReturns: earlyReturns.sort(),
    skipsWithoutReason: skipsWithoutReason.sort(),
  };
}

/** The checkout checked: this one, or STORE_TESTS_ROOT */
const ROOT = process.env.STORE_TESTS_ROOT ?? REPO;

describe('store tests', () => {
  const root = ROOT;

  it('every store module is tested on both engines through the harness', () => {
    expect(storeTestProblems(root).untested).toEqual([]);
  });

  it('no test returns early when PostgreSQL or Redis is missing', () => {
    expect(storeTestProblems(root).earlyReturns).toEqual([]);
  });

  it('no test skips without a reason', () => {
    expect(storeTestProblems(root).skipsWithoutReason).toEqual([]);
  });
});

describe('the check itself, on a made-up tree', () => {
  let tree: string | undefined;
  afterEach(() => {
    if (tree) rmSync(tree, { recursive: true, force: true });
  });

  function makeTree(files: Record<string, string>): string {
    tree = mkdtempSync(join(tmpdir(), 'store-tests-'));
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), content);
    }
    return tree;
  }

  const STORE = "export const get = (sql) => sql.query('SELECT 1');\n";

  it('names a store whose only test opens SQLite by hand, and passes it once the harness runs it', () => {
    const sqliteOnly = makeTree({
      'server-proxy/src/pets/store.ts': STORE,
      'server-proxy/src/pets/store.test.ts':
        "import { get } from './store.ts';\nit('reads', () => get(openSqlite()));\n",
    });
    expect(storeTestProblems(sqliteOnly).untested).toEqual(['pets/store.ts']);
    rmSync(sqliteOnly, { recursive: true, force: true });

    const both = makeTree({
      'server-proxy/src/pets/store.ts': "import { get } from './queries.ts';\nexport { get };\n",
      'server-proxy/src/pets/queries.ts': STORE,
      'server-proxy/src/pets/store.test.ts':
        "import { forEachEngine } from '../sql/engines.test-support.ts';\n" +
        "import { get } from './store.ts';\n" +
        "forEachEngine('pets', (engine) => it('reads', () => get(engine.sql)));\n",
    });
    expect(storeTestProblems(both)).toEqual({
      untested: [],
      earlyReturns: [],
      skipsWithoutReason: [],
    });
  });

  it('names each early return on a missing service, and lets the runner skip', () => {
    const root = makeTree({
      'server-proxy/src/a.test.ts': [
        'beforeAll(async () => {',
        '  if (skipReason !== undefined) return;',
        '});',
        "it('x', async () => {",
        "  if (typeof postgres === 'string' || typeof redis === 'string') return;",
        '  if (!postgres) return;',
        '  if (answer.status === 200) return;',
        "  if (postgresType === 'bigint') return sqliteType === 'INTEGER';",
        '});',
        'beforeEach((context) => {',
        '  if (skip !== undefined) return context.skip(skip);',
        '});',
      ].join('\n'),
    });
    expect(storeTestProblems(root).earlyReturns).toEqual([
      'server-proxy/src/a.test.ts:2: if (skipReason !== undefined) return;',
      "server-proxy/src/a.test.ts:5: if (typeof postgres === 'string' || typeof redis === 'string') return;",
      'server-proxy/src/a.test.ts:6: if (!postgres) return;',
    ]);
  });

  it('names each skip that gives no reason, and lets a skip with one pass', () => {
    const root = makeTree({
      'server-proxy/src/team/a.test.ts': [
        "describe.skipIf(skipReason !== undefined)('two replicas', () => {});",
        "it.skipIf(!redis)('shares', () => {});",
        "describe.runIf(postgres)('on postgres', () => {});",
        "it.skip('later', () => {});",
        'beforeEach((context) => {',
        '  if (skip !== undefined) return context.skip();',
        '});',
        'beforeEach((context) => context.skip(`Redis: ${reason}`));',
        "it('x', ({ skip }) => skip('PostgreSQL: not installed'));",
        "const fixture = 'describe.skipIf(x)(\\'y\\', () => {})'; // not it.skip('z')",
        ' * a comment: describe.skip(…) would not say why',
      ].join('\n'),
      // Playwright's test.skip takes its reason with the condition
      'e2e/b.spec.test.ts': "test.skip(!process.env.CI, 'only in CI');\n",
    });
    expect(storeTestProblems(root).skipsWithoutReason).toEqual([
      "server-proxy/src/team/a.test.ts:1: describe.skipIf(skipReason !== undefined)('two replicas', () => {});",
      "server-proxy/src/team/a.test.ts:2: it.skipIf(!redis)('shares', () => {});",
      "server-proxy/src/team/a.test.ts:3: describe.runIf(postgres)('on postgres', () => {});",
      "server-proxy/src/team/a.test.ts:4: it.skip('later', () => {});",
      'server-proxy/src/team/a.test.ts:6: if (skip !== undefined) return context.skip();',
    ]);
  });
});

describe('a store test where PostgreSQL is not installed', () => {
  /** a store test, and one that mixes both-engine cases with cases for one engine */
  const STORE_TESTS = [
    'server-proxy/src/names/store.test.ts',
    'server-proxy/src/governance/retention.test.ts',
  ];
  let out: string | undefined;
  afterEach(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  /** Run the store test in a Vitest of its own that finds no PostgreSQL (PATH and root emptied). */
  function runWithoutPostgres(required: boolean, files: string[] = STORE_TESTS) {
    out = mkdtempSync(join(tmpdir(), 'store-tests-run-'));
    const skips = join(out, 'skips.json');
    const report = join(out, 'report.json');
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        ...files,
        '--reporter=./scripts/vitest-skip-reporter.ts',
        '--reporter=json',
        `--outputFile.json=${report}`,
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: {
          ...process.env,
          PATH: '',
          TEST_POSTGRES_ROOT: join(out, 'none'),
          TEAM_SERVICES_REQUIRED: required ? '1' : '',
          VITEST_SKIPS_FILE: skips,
        },
      },
    );
    const text = readFileSync(report, 'utf8');
    const counts = JSON.parse(text) as {
      numTotalTests: number;
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
    };
    const skipped = existsSync(skips)
      ? (JSON.parse(readFileSync(skips, 'utf8')) as { name: string; reason: string }[])
      : [];
    return { status: run.status, counts, skipped, text };
  }

  it('runs the SQLite half and skips the PostgreSQL half through the runner, saying why', () => {
    const { status, counts, skipped } = runWithoutPostgres(false);
    expect(status).toBe(0);
    expect(counts.numFailedTests).toBe(0);
    expect(counts.numPassedTests).toBeGreaterThan(0);
    expect(counts.numPendingTests).toBe(counts.numPassedTests);
    expect(skipped).toHaveLength(counts.numPendingTests);
    for (const test of skipped) {
      expect(test.name).toMatch(/on postgres|in PostgreSQL/);
      expect(test.reason).toMatch(/^PostgreSQL: PostgreSQL is not installed/);
    }
  }, 120_000);

  it('fails the PostgreSQL half instead where the run requires the services (CI)', () => {
    const { status, counts, text } = runWithoutPostgres(true);
    expect(status).not.toBe(0);
    expect(counts.numPassedTests).toBeGreaterThan(0);
    // the PostgreSQL scopes' start fails the files, saying why; none of their tests passed
    expect(text).toContain('TEAM_SERVICES_REQUIRED=1, so this run needs it');
    expect(counts.numPassedTests).toBe(counts.numTotalTests / 2);
  }, 120_000);

  it('skips every team test where Redis is missing too (PATH emptied), each named with why', () => {
    // tests of PostgreSQL, of Redis, and of both, whose set-up needs them
    const team = [
      'server-proxy/src/sql/migrate.test.ts',
      'server-proxy/src/team/redis-login-limit.test.ts',
      'server-proxy/src/team/two-replicas.test.ts',
    ];
    const { status, counts, skipped } = runWithoutPostgres(false, team);
    expect(status).toBe(0);
    expect(counts.numPassedTests + counts.numFailedTests).toBe(0);
    expect(counts.numPendingTests).toBe(counts.numTotalTests);
    expect(skipped).toHaveLength(counts.numTotalTests);
    const byFile = (file: string) => skipped.filter((test) => test.name.startsWith(file));
    expect(byFile(team[0] ?? '').length).toBeGreaterThan(0);
    for (const test of byFile(team[0] ?? '')) {
      expect(test.reason).toMatch(/^PostgreSQL: PostgreSQL is not installed/);
    }
    expect(byFile(team[1] ?? '').length).toBeGreaterThan(0);
    for (const test of byFile(team[1] ?? '')) {
      expect(test.reason).toMatch(/^Redis: redis-server is not installed/);
    }
    expect(byFile(team[2] ?? '').length).toBeGreaterThan(0);
    for (const test of byFile(team[2] ?? '')) {
      expect(test.reason).toMatch(/^(PostgreSQL: PostgreSQL|Redis: redis-server) is not installed/);
    }
  }, 120_000);
});

/**
 * The import boundaries of eslint.config.js (docs/where-things-go.md), checked by linting one
 * import at a time as if it sat in a given file: the server takes from the SPA only
 * runtime-neutral src/lib modules, production code never imports test code, and the SPA's layers
 * point one way (app → features → entities → shared, shared code holding no React Query).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The messages of no-restricted-imports for `import … from spec` placed in `file`. */
async function restricted(file: string, spec: string): Promise<string[]> {
  const code = `import { thing } from '${spec}';\nexport const used = thing;\n`;
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

describe('server code and the SPA', () => {
  it('a proxy file may import runtime-neutral src/lib modules', async () => {
    expect(
      await restricted(
        'server-proxy/src/alerts/poller.ts',
        '../../../src/lib/vetting/decision-record.ts',
      ),
    ).toEqual([]);
    expect(await restricted('server-proxy/src/app.ts', '../../src/lib/service/index.ts')).toEqual(
      [],
    );
  });

  it('no server file imports a feature, a component or the app, at any depth', async () => {
    const cases: [string, string][] = [
      ['server-proxy/src/app.ts', '../../src/features/decisions/model/csv.ts'],
      ['server-proxy/src/alerts/poller.ts', '../../../src/components/Button.tsx'],
      ['server-proxy/src/alerts/poller.ts', '../../../src/app/routes.tsx'],
      ['server-proxy/src/sandbox/data/index.ts', '../../../../src/features/search/api/x.ts'],
      ['server-proxy/src/http/api-error.ts', '../../../src/app/theme.ts'],
      ['server-proxy/src/alerts/store.test.ts', '../../../src/features/alerts/x.ts'],
    ];
    for (const [file, spec] of cases) {
      const messages = await restricted(file, spec);
      expect(messages.join('\n'), `${file} <- ${spec}`).toMatch(
        /imports from the SPA only src\/lib/,
      );
    }
  });

  it('no server file imports a src/lib module that uses React', async () => {
    const messages = await restricted(
      'server-proxy/src/alerts/poller.ts',
      '../../../src/lib/server-reachable.ts',
    );
    expect(messages.join('\n')).toMatch(/uses React or React Query/);
  });

  it("no server file imports an entity (the SPA's server state)", async () => {
    const messages = await restricted(
      'server-proxy/src/vetting/current.ts',
      '../../../src/entities/vetting/keys.ts',
    );
    expect(messages.join('\n')).toMatch(/imports from the SPA only src\/lib/);
  });

  it('no server file imports React or React Query', async () => {
    for (const spec of ['react', 'react-dom/client', '@tanstack/react-query']) {
      const messages = await restricted('server-proxy/src/routes/mirror.ts', spec);
      expect(messages.join('\n'), spec).toMatch(/never imports React/);
    }
  });

  it("a server test may use the SPA's shared test support; production server code may not", async () => {
    const spec = '../../../src/test/sandbox-profiles.node.ts';
    expect(await restricted('server-proxy/src/bulk/result.test.ts', spec)).toEqual([]);
    expect((await restricted('server-proxy/src/bulk/result.ts', spec)).join('\n')).toMatch(
      /imports from the SPA only src\/lib/,
    );
  });
});

describe('production code and test support', () => {
  const production: [string, string][] = [
    ['server-proxy/src/app.ts', './helpers.test-support.ts'],
    ['server-proxy/src/bulk/runner.ts', './process-harness.test-support.ts'],
    ['server-proxy/src/sql/engine.ts', './databases.test-support.ts'],
    ['server-proxy/src/sandbox/monitoring/index.ts', './server.test-support.ts'],
    ['server-proxy/src/http/api-error.ts', './x.test.ts'],
    ['src/lib/service/index.ts', './fixtures.test-support.ts'],
    ['src/lib/format.ts', './service/fixtures.test-support.ts'],
    ['src/features/profile/components/tabs/network/Tab.tsx', '../testing/render-tab.node.tsx'],
    ['src/app/App.tsx', '../test/render-app.tsx'],
    ['src/components/map/CarrierMap.tsx', '../../test/match-media.ts'],
  ];

  it('production files never import test support, a test or a test folder', async () => {
    for (const [file, spec] of production) {
      const messages = await restricted(file, spec);
      expect(messages.join('\n'), `${file} <- ${spec}`).toMatch(/Production code must not import/);
    }
  });

  it('tests and test support may import test support', async () => {
    const tests: [string, string][] = [
      ['server-proxy/src/bulk/runner.test.ts', './process-harness.test-support.ts'],
      ['server-proxy/src/team/two-proxies.test-support.ts', './services.test-support.ts'],
      ['server-proxy/src/sandbox/monitoring/ids.test.ts', './server.test-support.ts'],
      ['src/lib/service/fixtures.test.ts', './fixtures.test-support.ts'],
      ['src/features/profile/components/tabs/network/Tab.node.test.tsx', '../testing/x.tsx'],
      ['src/lib/recent.test.tsx', '../test/render-app.tsx'],
    ];
    for (const [file, spec] of tests) {
      expect(await restricted(file, spec), `${file} <- ${spec}`).toEqual([]);
    }
  });
});

/** The .ts/.tsx files under `dir` (relative to the repository root). */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.tsx?$/.test(path))
    .map((path) => join(dir, path));
}

describe('the SPA layers: app → features → entities → shared', () => {
  it('src/lib and src/components never import React Query, in code or in tests', async () => {
    for (const [file, spec] of [
      ['src/lib/format.ts', '@tanstack/react-query'],
      ['src/lib/watchlist/profile-id.ts', '@tanstack/react-query'],
      ['src/lib/vetting/contract.ts', '@tanstack/react-query'],
      ['src/lib/decision-standing.test.ts', '@tanstack/react-query'],
      ['src/components/DecisionStanding.tsx', '@tanstack/react-query'],
      ['src/components/map/CarrierMap.tsx', '@tanstack/react-query'],
      ['src/lib/service/index.ts', '@tanstack/react-query'],
    ] as const) {
      const messages = await restricted(file, spec);
      expect(messages.join('\n'), `${file} <- ${spec}`).toMatch(/hold no React Query/);
    }
  });

  it('no file of src/lib or src/components imports React Query today', () => {
    const REACT_QUERY =
      /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]@tanstack\/react-query(?:\/[^'"]*)?['"]/;
    const offending = [...sourceFiles('src/lib'), ...sourceFiles('src/components')].filter((path) =>
      REACT_QUERY.test(readFileSync(join(root, path), 'utf8')),
    );
    expect(offending.map((path) => relative('.', path))).toEqual([]);
  });

  it('shared code never imports an entity, a feature or the app', async () => {
    const cases: [string, string][] = [
      ['src/lib/format.ts', '../entities/vetting/standing.ts'],
      ['src/lib/vetting/standing.ts', '../../entities/query-client.ts'],
      ['src/components/DecisionStanding.tsx', '../entities/vetting/keys.ts'],
      ['src/components/map/CarrierMap.tsx', '../../entities/carrier/keys.ts'],
      ['src/components/QueryState.tsx', '../features/decisions/api/policy.ts'],
      ['src/lib/recent.test.tsx', '../entities/watchlist/api.ts'],
    ];
    for (const [file, spec] of cases) {
      const messages = await restricted(file, spec);
      expect(messages.join('\n'), `${file} <- ${spec}`).toMatch(
        /Shared code must not import features, entities or the app/,
      );
    }
  });

  it('an entity imports shared code, never a feature, the app or another entity', async () => {
    expect(
      await restricted('src/entities/vetting/standing.ts', '../../lib/decision-standing.ts'),
    ).toEqual([]);
    expect(
      await restricted(
        'src/entities/watchlist/components/ResolveAndWatch.tsx',
        '../../../components/ErrorState.tsx',
      ),
    ).toEqual([]);
    const cases: [string, RegExp][] = [
      ['../../features/decisions/api/policy.ts', /Entities must not import features or the app/],
      ['../../app/routes.tsx', /Entities must not import features or the app/],
      ['../watchlist/keys.ts', /The vetting entity must not import the watchlist entity/],
      ['../carrier/lite-profile.ts', /The vetting entity must not import the carrier entity/],
      ['../../entities/carrier/keys.ts', /The vetting entity must not import the carrier entity/],
    ];
    for (const [spec, message] of cases) {
      const messages = await restricted('src/entities/vetting/standing.ts', spec);
      expect(messages.join('\n'), spec).toMatch(message);
    }
    expect(
      (
        await restricted('src/entities/watchlist/components/WatchCost.tsx', '../../vetting/keys.ts')
      ).join('\n'),
    ).toMatch(/The watchlist entity must not import the vetting entity/);
    expect(
      (await restricted('src/entities/query-client.ts', './vetting/keys.ts')).join('\n'),
    ).toMatch(/imports only shared code/);
  });

  it('features and the app may import entities', async () => {
    const cases: [string, string][] = [
      ['src/features/profile/components/WatchControl.tsx', '../../../entities/watchlist/api.ts'],
      ['src/features/decisions/api/policy.ts', '../../../entities/vetting/keys.ts'],
      [
        'src/features/search/components/LitePreview.tsx',
        '../../../entities/carrier/lite-profile.ts',
      ],
      ['src/app/profile-prefetch.ts', '../entities/vetting/verdict.ts'],
      ['src/main.tsx', './entities/query-client.ts'],
    ];
    for (const [file, spec] of cases) {
      expect(await restricted(file, spec), `${file} <- ${spec}`).toEqual([]);
    }
  });
});

// @ts-check
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The feature folders under src/features. */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The entity folders under src/entities: server state several features (or the app) share. */
const ENTITIES = readdirSync(new URL('./src/entities', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Shared code (src/lib, src/components) holds no server state: no React Query. */
const NO_REACT_QUERY = {
  group: ['@tanstack/react-query', '@tanstack/react-query/**'],
  message:
    'src/lib and src/components hold no React Query: queries and mutations live in the feature that uses them or, when several do, in an entity (src/entities); see docs/where-things-go.md.',
};

/** What shared code (src/lib, src/components) never imports. */
const SHARED_PATTERNS = [
  {
    group: ['**/features/**', '**/entities/**', '**/app/**'],
    message: 'Shared code must not import features, entities or the app.',
  },
  NO_REACT_QUERY,
];

/** Only src/components/map may import maplibre-gl; every other rule adds its own patterns. */
function restrictImports(patterns, { maplibre = false } = {}) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: maplibre
          ? []
          : [{ name: 'maplibre-gl', message: 'Only src/components/map imports maplibre-gl.' }],
        patterns,
      },
    ],
  };
}

/**
 * Test code (docs/where-things-go.md): test files, test support named `*.test-support.ts` next to
 * the code it serves, and the SPA's test folders (src/test, a feature's test/ or testing/).
 */
const TEST_FILES = [
  '**/*.test.{ts,tsx}',
  '**/*.test-support.{ts,tsx}',
  '**/test/**/*.{ts,tsx}',
  '**/testing/**/*.{ts,tsx}',
];

/** Production code never imports test code (checked on the import path, at any depth). */
const NO_TEST_CODE = [
  {
    regex: '\\.test(?:-support)?(?:\\.tsx?)?$',
    message:
      'Production code must not import a test or test support (*.test-support.ts); see docs/where-things-go.md.',
  },
  {
    regex: '(?:^|/)(?:test|testing)/',
    message:
      'Production code must not import the test folders (src/test, test/, testing/); see docs/where-things-go.md.',
  },
];

/**
 * One boundary block becomes two: production files get `patterns` plus NO_TEST_CODE; the test
 * files among `files` (a nested array is an AND of globs) get `testPatterns` (default `patterns`).
 * A later block that matches a file replaces the rule's options, so each file meets one of them.
 */
function boundary({
  files,
  ignores = [],
  patterns,
  testPatterns = patterns,
  tests = true,
  maplibre,
}) {
  const production = {
    files,
    ignores: [...ignores, ...TEST_FILES],
    rules: restrictImports([...patterns, ...NO_TEST_CODE], { maplibre }),
  };
  if (!tests) return [production];
  return [
    production,
    {
      files: files.flatMap((glob) => TEST_FILES.map((test) => [glob, test])),
      ignores,
      rules: restrictImports(testPatterns, { maplibre }),
    },
  ];
}

/**
 * The src/lib modules that reach React, React DOM or React Query (directly or through another
 * module of src/): the SPA's query hooks. The server may import src/lib, but not these.
 */
function reactModulesOfLib() {
  const root = fileURLToPath(new URL('.', import.meta.url));
  const REACT = /^(?:react|react-dom|react-router|@tanstack\/react-[\w-]+)(?:\/|$)/;
  const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;
  const imports = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const specs = [...readFileSync(path, 'utf8').matchAll(IMPORT)].map((m) => m[1]);
        imports.set(path, specs);
      }
    }
  };
  walk(join(root, 'src'));
  const reaches = new Set(
    [...imports]
      .filter(([path, specs]) => path.endsWith('.tsx') || specs.some((s) => REACT.test(s)))
      .map(([path]) => path),
  );
  for (let grew = true; grew;) {
    grew = false;
    for (const [path, specs] of imports) {
      if (reaches.has(path)) continue;
      const targets = specs
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => resolve(dirname(path), spec));
      if (
        targets.some((t) => reaches.has(t) || reaches.has(`${t}.ts`) || reaches.has(`${t}.tsx`))
      ) {
        reaches.add(path);
        grew = true;
      }
    }
  }
  return [...reaches]
    .map((path) => relative(root, path))
    .filter((path) => path.startsWith('src/lib/'))
    .sort();
}
const LIB_REACT_MODULES = reactModulesOfLib();
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Zones of the server code. The proxy (server-proxy/src) and the sandbox (server-proxy/src/sandbox)
 * never import each other, except that the proxy starts the sandbox through its one entry,
 * sandbox/index.ts. The server kit (server-proxy/src/http) is shared by both and imports neither.
 * What both need to agree on lives in the service contract (src/lib/service). Imports are relative,
 * so each rule is written per folder depth: `up(n)` is `../` n times.
 */
const SERVER = 'server-proxy/src';
const DEPTHS = [0, 1, 2, 3];
const up = (n) => (n === 0 ? '\\./' : `(?:\\.\\./){${n}}`);
/** `*` n times as folders: the files exactly `depth` folders below `base`. */
const filesAt = (base, depth) => [`${base}/${'*/'.repeat(depth)}*.{ts,tsx}`];

/**
 * What the server (proxy, sandbox, kit) may take from the SPA, for a file `depth` folders below
 * server-proxy/src (so `depth + 2` levels below the repository root): only src/lib, and there
 * only runtime-neutral modules, never React or React Query. Tests may also use the SPA's shared
 * test support in src/test.
 */
function serverSpaRules(depth, { test = false } = {}) {
  const root = up(depth + 2);
  return [
    {
      regex: `^${root}src/(?!lib/${test ? '|test/' : ''})`,
      message:
        'Server code imports from the SPA only src/lib (never features, components, the app); see docs/where-things-go.md.',
    },
    ...(LIB_REACT_MODULES.length > 0
      ? [
          {
            regex: `^${root}(?:${LIB_REACT_MODULES.map(escapeRegex).join('|')})$`,
            message:
              'This src/lib module uses React or React Query (an SPA hook module); the server imports only runtime-neutral src/lib modules.',
          },
        ]
      : []),
    {
      regex: '^(?:react|react-dom|react-router|@tanstack/react-[\\w-]+)(?:/|$)',
      message: 'Server code never imports React, React DOM, React Router or React Query.',
    },
  ];
}

/** One zone of the server code: its own patterns plus the SPA rule, for production and tests. */
function serverZone(files, ignores, depth, patterns) {
  return boundary({
    files,
    ignores,
    patterns: [...patterns, ...serverSpaRules(depth)],
    testPatterns: [...patterns, ...serverSpaRules(depth, { test: true })],
  });
}

const serverZones = [
  // Sandbox files: one level above the sandbox is the proxy; only its http/ kit may be imported.
  ...DEPTHS.flatMap((depth) =>
    serverZone(filesAt(`${SERVER}/sandbox`, depth), [], depth + 1, [
      {
        regex: `^${up(depth + 1)}(?!\\.\\./|http/)`,
        message:
          'The sandbox must not import the proxy; share code through src/lib/service or server-proxy/src/http.',
      },
    ]),
  ),
  // Proxy files: the sandbox only through sandbox/index.ts.
  ...DEPTHS.flatMap((depth) =>
    serverZone(filesAt(SERVER, depth), [`${SERVER}/sandbox/**`, `${SERVER}/http/**`], depth, [
      {
        regex: `^${up(depth)}sandbox/(?!index\\.ts$)`,
        message: 'The proxy imports the sandbox only through server-proxy/src/sandbox/index.ts.',
      },
    ]),
  ),
  // The server kit: nothing of the proxy or the sandbox (one level up is the proxy).
  ...DEPTHS.flatMap((depth) =>
    serverZone(filesAt(`${SERVER}/http`, depth), [], depth + 1, [
      {
        regex: `^${up(depth + 1)}(?!\\.\\./)`,
        message:
          'server-proxy/src/http is shared by the proxy and the sandbox and imports neither.',
      },
    ]),
  ),
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
      'data',
      'coverage',
      'node_modules',
      'test-results',
      'playwright-report',
      'fixtures/live-shapes',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...pluginQuery.configs['flat/recommended'],
  // Dependency direction: app -> features -> shared. A feature never imports the app or another
  // feature (one block per feature folder, naming the others).
  ...FEATURES.flatMap((feature) =>
    boundary({
      files: [`src/features/${feature}/**/*.{ts,tsx}`],
      patterns: [
        { group: ['**/app/**'], message: 'Features must not import the app layer.' },
        ...FEATURES.filter((other) => other !== feature).map((other) => ({
          group: [`**/${other}/**`, `**/${other}`],
          message: `The ${feature} feature must not import the ${other} feature; share code through src/lib or src/components.`,
        })),
      ],
    }),
  ),
  // Entities (src/entities/<entity>/) sit between features and shared code: features and the app
  // import them; an entity imports only shared code (src/lib, src/components) and the query
  // client at the root of src/entities, never a feature, the app or another entity.
  // (Imports are relative, so the sibling rule is written per folder depth, as the server's.)
  ...ENTITIES.flatMap((entity) =>
    [0, 1, 2].flatMap((depth) =>
      boundary({
        files: filesAt(`src/entities/${entity}`, depth),
        patterns: [
          {
            group: ['**/features/**', '**/app/**'],
            message: 'Entities must not import features or the app.',
          },
          ...ENTITIES.filter((other) => other !== entity).map((other) => ({
            regex: `^(?:${up(depth + 1)}|(?:\\.\\./)*entities/)${escapeRegex(other)}(?:/|$)`,
            message: `The ${entity} entity must not import the ${other} entity; share code through src/lib or src/components.`,
          })),
        ],
      }),
    ),
  ),
  ...boundary({
    files: ['src/entities/*.{ts,tsx}'],
    patterns: [
      {
        group: ['**/features/**', '**/app/**', './*/**'],
        message: 'The root of src/entities (the query client) imports only shared code.',
      },
    ],
  }),
  ...boundary({
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    ignores: ['src/components/map/**'],
    patterns: SHARED_PATTERNS,
  }),
  // The map may import maplibre-gl; it is still shared code and takes no test code.
  ...boundary({
    files: ['src/components/map/**/*.{ts,tsx}'],
    patterns: SHARED_PATTERNS,
    maplibre: true,
  }),
  ...boundary({ files: ['src/app/**/*.{ts,tsx}', 'src/*.{ts,tsx}'], patterns: [] }),
  // The service shape module is shared by the SPA, the proxy and the sandbox: no React, no Node built-ins.
  // (Its tests keep the shared-code block above.)
  ...boundary({
    files: ['src/lib/service/**/*.ts'],
    tests: false,
    patterns: [
      {
        group: ['react', 'react-*', 'node:*', 'fs', 'path'],
        message: 'src/lib/service stays runtime-neutral.',
      },
      {
        group: ['**/features/**', '**/app/**', '**/components/**', '**/entities/**'],
        message: 'src/lib/service imports nothing of the SPA.',
      },
      NO_REACT_QUERY,
    ],
  }),
  ...serverZones,
);

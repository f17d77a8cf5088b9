// @ts-check
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The feature folders under src/features. */
const FEATURES = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Only src/components/map may import maplibre-gl; every other rule adds its own patterns. */
function restrictImports(patterns) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: [{ name: 'maplibre-gl', message: 'Only src/components/map imports maplibre-gl.' }],
        patterns,
      },
    ],
  };
}

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

const serverZones = [
  // Sandbox files: one level above the sandbox is the proxy; only its http/ kit may be imported.
  ...DEPTHS.map((depth) => ({
    files: filesAt(`${SERVER}/sandbox`, depth),
    rules: restrictImports([
      {
        regex: `^${up(depth + 1)}(?!\\.\\./|http/)`,
        message:
          'The sandbox must not import the proxy; share code through src/lib/service or server-proxy/src/http.',
      },
    ]),
  })),
  // Proxy files: the sandbox only through sandbox/index.ts.
  ...DEPTHS.map((depth) => ({
    files: filesAt(SERVER, depth),
    ignores: [`${SERVER}/sandbox/**`, `${SERVER}/http/**`],
    rules: restrictImports([
      {
        regex: `^${up(depth)}sandbox/(?!index\\.ts$)`,
        message: 'The proxy imports the sandbox only through server-proxy/src/sandbox/index.ts.',
      },
    ]),
  })),
  // The server kit: nothing of the proxy or the sandbox (one level up is the proxy).
  ...DEPTHS.map((depth) => ({
    files: filesAt(`${SERVER}/http`, depth),
    rules: restrictImports([
      {
        regex: `^${up(depth + 1)}(?!\\.\\./)`,
        message:
          'server-proxy/src/http is shared by the proxy and the sandbox and imports neither.',
      },
    ]),
  })),
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
  ...FEATURES.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: restrictImports([
      { group: ['**/app/**'], message: 'Features must not import the app layer.' },
      ...FEATURES.filter((other) => other !== feature).map((other) => ({
        group: [`**/${other}/**`, `**/${other}`],
        message: `The ${feature} feature must not import the ${other} feature; share code through src/lib or src/components.`,
      })),
    ]),
  })),
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    ignores: ['src/components/map/**'],
    rules: restrictImports([
      {
        group: ['**/features/**', '**/app/**'],
        message: 'Shared code must not import features or the app.',
      },
    ]),
  },
  {
    files: ['src/app/**/*.{ts,tsx}', 'src/*.{ts,tsx}'],
    rules: restrictImports([]),
  },
  // The service shape module is shared by the SPA, the proxy and the sandbox: no React, no Node built-ins.
  {
    files: ['src/lib/service/**/*.ts'],
    ignores: ['src/lib/service/**/*.test.ts'],
    rules: restrictImports([
      {
        group: ['react', 'react-*', 'node:*', 'fs', 'path'],
        message: 'src/lib/service stays runtime-neutral.',
      },
      {
        group: ['**/features/**', '**/app/**', '**/components/**'],
        message: 'src/lib/service imports nothing of the SPA.',
      },
    ]),
  },
  ...serverZones,
);

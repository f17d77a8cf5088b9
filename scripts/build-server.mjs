#!/usr/bin/env node
// Compile the proxy and the standalone sandbox for production: one ESM bundle each in dist-server/
// (or `--outdir <dir>`), run by plain `node`, no tsx at run time. npm packages stay external:
// node_modules is needed at run time as for any Node server (better-sqlite3 is native anyway).
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist-server' } } });
const outdir = resolve(values.outdir);

/**
 * A source file that finds its data next to itself (`import.meta.url`) must keep doing so from
 * the bundle: its `import.meta.url` becomes the URL of the source file, spelt relative to the
 * bundle so the checkout can move.
 */
const keepSourceUrls = {
  name: 'keep-source-urls',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const fromBundle = relative(outdir, args.path).split('\\').join('/');
      const url = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
      return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

await build({
  absWorkingDir: root,
  entryPoints: {
    server: 'server-proxy/src/server.ts',
    sandbox: 'server-proxy/src/sandbox/main.ts',
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [keepSourceUrls],
});
console.log(`[build-server] ${relative(root, outdir)}/server.mjs and sandbox.mjs`);

#!/usr/bin/env node
// `npm start`: build the SPA with Vite when dist/index.html is missing, compile the server when
// dist-server/ is missing or older than its sources, then run the compiled proxy with plain node.
// `node scripts/start.mjs sandbox` (npm run sandbox) runs the standalone sandbox the same way.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const staticDir = process.env.STATIC_DIR || 'dist';
const entry = process.argv[2] === 'sandbox' ? 'sandbox' : 'server';
const bundle = join('dist-server', `${entry}.mjs`);
/** What the server bundle is compiled from. */
const SOURCES = ['server-proxy/src', 'src/lib/service'];

function run(label, command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`[start] ${label} failed`);
    process.exit(result.status ?? 1);
  }
}

/** The newest modification time of a file under `dir`. */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

if (entry === 'server' && !existsSync(join(staticDir, 'index.html'))) {
  console.log(`[start] ${staticDir}/index.html is missing; building the dashboard with Vite`);
  run('the dashboard build', 'node_modules/.bin/vite', ['build', '--outDir', staticDir]);
}

const builtAt = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.filter((dir) => existsSync(dir)).map(newestUnder));
if (builtAt < sourcesAt) {
  if (existsSync('node_modules/esbuild')) {
    console.log(`[start] ${bundle} is missing or older than its sources; compiling the server`);
    run('the server build', process.execPath, ['scripts/build-server.mjs']);
  } else if (builtAt === 0) {
    console.error(
      `[start] ${bundle} is missing; run \`npm run build\` where dev dependencies exist`,
    );
    process.exit(1);
  }
}

const server = spawn(process.execPath, [bundle], {
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));

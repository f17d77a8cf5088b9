#!/usr/bin/env node
// `npm start`: build the SPA with Vite when dist/index.html is missing, then run the proxy.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const staticDir = process.env.STATIC_DIR || 'dist';

if (!existsSync(join(staticDir, 'index.html'))) {
  console.log(`[start] ${staticDir}/index.html is missing; building the dashboard with Vite`);
  const build = spawnSync('node_modules/.bin/vite', ['build', '--outDir', staticDir], {
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('[start] the dashboard build failed');
    process.exit(build.status ?? 1);
  }
}

const server = spawn('node_modules/.bin/tsx', ['server-proxy/src/server.ts'], {
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));

#!/usr/bin/env node
// Development: Vite (hot reload) and the server in watch mode, side by side; Ctrl-C stops both.
// The server is the proxy, which embeds the sandbox when no API key is configured.
import { spawn } from 'node:child_process';

const processes = [
  ['server', 'node_modules/.bin/tsx', ['watch', 'server-proxy/src/server.ts']],
  ['vite', 'node_modules/.bin/vite', []],
].map(([name, command, args]) => {
  const child = spawn(command, args, { stdio: 'inherit', env: process.env });
  child.on('exit', (code, signal) => {
    console.log(`[dev] ${name} exited (${signal ?? code}); stopping the rest`);
    stopAll(code ?? 1);
  });
  return child;
});

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of processes) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500).unref();
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

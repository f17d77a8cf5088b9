import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, makeTempDir } from './helpers.test-support.ts';

const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

function runMain(env: Record<string, string>) {
  const child = spawn(TSX, [MAIN], {
    env: { PATH: process.env.PATH ?? '', SANDBOX_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`exited early: ${stderr}`)));
  });
  // A run that is expected to fail never awaits `listening`; keep its rejection handled.
  listening.catch(() => undefined);
  return { child, exited, listening, output: () => ({ stdout, stderr }) };
}

describe('main (npm run sandbox)', () => {
  it('listens, prints its address, serves, and exits 0 on SIGTERM', async () => {
    const dataDir = makeTempDir();
    try {
      const run = runMain({ SANDBOX_PORT: '0', DATA_DIR: dataDir, SANDBOX_POPULATION: '50' });
      const url = await run.listening;
      const response = await fetch(`${url}/v2/profile?dot_number=568253`, {
        headers: { 'x-api-key': TEST_KEY },
      });
      expect(response.status).toBe(200);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a bad environment with one message listing every problem', async () => {
    const run = runMain({ SANDBOX_PORT: 'eighty', SANDBOX_API_KEYS: 'sk_live_secret1234' });
    expect(await run.exited).toBe(1);
    const { stderr } = run.output();
    expect(stderr).toContain('SANDBOX_PORT');
    expect(stderr).toContain('live key');
    expect(stderr).not.toContain('sk_live_secret1234');
  });
});

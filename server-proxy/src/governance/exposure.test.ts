import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { insecureHttpWarning } from './exposure.ts';
import { makeTempDir } from './helpers.test-support.ts';

const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const SERVER = fileURLToPath(new URL('../server.ts', import.meta.url));
const HASH_PASSWORD = fileURLToPath(new URL('./hash-password.ts', import.meta.url));

function run(script: string, args: string[], env: Record<string, string>, stdin?: string) {
  const child = spawn(TSX, [script, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin ?? '');
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

const PASSWORD_MODE = {
  DASHBOARD_AUTH: 'password',
  DASHBOARD_PASSWORD: 'a long enough password',
  HOST: '0.0.0.0',
  ALLOWED_HOSTS: 'localhost',
  PORT: '0',
  STATIC_DIR: '/nonexistent',
  LOG_LEVEL: 'warn',
  // An upstream that is never called: no embedded sandbox to start.
  CARRIER_API_BASE_URL: 'http://127.0.0.1:9',
  CARRIER_API_KEY: 'sk_test_exposure',
};

describe('password mode off loopback without TLS', () => {
  it('warns only for password mode on a non-loopback HOST without SECURE_COOKIES', () => {
    const password = { kind: 'password' as const, password: 'x' };
    expect(insecureHttpWarning({ auth: password, host: '0.0.0.0', secureCookies: false })).toMatch(
      /WARNING: DASHBOARD_AUTH=password on HOST=0\.0\.0\.0 over plain HTTP/,
    );
    expect(insecureHttpWarning({ auth: password, host: '0.0.0.0', secureCookies: true })).toBe(
      undefined,
    );
    expect(insecureHttpWarning({ auth: password, host: '127.0.0.1', secureCookies: false })).toBe(
      undefined,
    );
    expect(
      insecureHttpWarning({ auth: { kind: 'none' }, host: '0.0.0.0', secureCookies: false }),
    ).toBe(undefined);
  });

  it('refuses to start unless ALLOW_INSECURE_HTTP=true, and then starts with a loud warning', async () => {
    const dataDir = makeTempDir();
    try {
      const refused = run(SERVER, [], { ...PASSWORD_MODE, DATA_DIR: dataDir });
      expect(await refused.exited).toBe(1);
      expect(refused.output().stderr).toMatch(/plain HTTP/);
      expect(refused.output().stderr).not.toContain('a long enough password');

      const started = run(SERVER, [], {
        ...PASSWORD_MODE,
        DATA_DIR: dataDir,
        ALLOW_INSECURE_HTTP: 'true',
      });
      await new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (started.output().stdout.includes('carrier-desk proxy on')) {
            clearInterval(timer);
            resolve();
          }
        }, 50);
        void started.exited.then(() => {
          clearInterval(timer);
          reject(new Error(`exited early: ${started.output().stderr}`));
        });
      });
      expect(started.output().stderr).toMatch(
        /WARNING: DASHBOARD_AUTH=password on HOST=0\.0\.0\.0/,
      );
      started.child.kill('SIGTERM');
      await started.exited;
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('hash-password.ts', () => {
  it('refuses a password under 12 characters', async () => {
    const short = run(HASH_PASSWORD, ['alice'], {}, 'elevenchars');
    expect(await short.exited).toBe(2);
    expect(short.output().stderr).toMatch(/at least 12 characters/);
    expect(short.output().stdout).toBe('');
  });

  it('prints a users-file line for 12 characters or more', async () => {
    const ok = run(HASH_PASSWORD, ['alice'], {}, 'twelve chars\n');
    expect(await ok.exited).toBe(0);
    expect(ok.output().stdout).toMatch(/^alice:scrypt\$[\w-]+\$[\w-]+\n$/);
  });

  it('adds the role given after the name, and refuses an unknown one', async () => {
    const admin = run(HASH_PASSWORD, ['alice', 'admin'], {}, 'twelve chars\n');
    expect(await admin.exited).toBe(0);
    expect(admin.output().stdout).toMatch(/^alice:scrypt\$[\w-]+\$[\w-]+:admin\n$/);
    const root = run(HASH_PASSWORD, ['alice', 'root'], {}, 'twelve chars\n');
    expect(await root.exited).toBe(2);
    expect(root.output().stderr).toMatch(/\[viewer\|analyst\|admin\]/);
    expect(root.output().stdout).toBe('');
  });
});

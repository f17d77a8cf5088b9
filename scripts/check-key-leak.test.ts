import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EMBEDDED_SANDBOX_KEY } from '../server-proxy/src/config.ts';
import { base64Forms, configuredKeys, findLeaks, needlesOf, scanDir } from './check-key-leak.ts';

const REAL = 'sk_live_Zq81mXv0pLr7';
const dirs: string[] = [];

function builtDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'key-leak-'));
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('base64 forms of a key', () => {
  it('are found inside the base64 of any text that carries the key, at every alignment', () => {
    for (const prefix of ['', 'a', 'ab', 'abc', 'user:']) {
      const encoded = Buffer.from(`${prefix}${REAL}!tail`).toString('base64');
      expect(
        base64Forms(REAL).some((form) => encoded.includes(form)),
        prefix,
      ).toBe(true);
    }
  });

  it('are not found in the base64 of a text without the key', () => {
    const encoded = Buffer.from('sk_live_Zq81mYv0pLr7 and more').toString('base64');
    expect(base64Forms(REAL).some((form) => encoded.includes(form))).toBe(false);
  });
});

describe('findLeaks', () => {
  it('finds a configured key by byte offset, and any key-shaped token, masked', () => {
    const text = `const a="${EMBEDDED_SANDBOX_KEY}";const b="sk_live_9abcdef";`;
    const leaks = findLeaks(text, needlesOf('the embedded sandbox key', EMBEDDED_SANDBOX_KEY));
    expect(leaks).toEqual([
      { offset: 9, label: 'the embedded sandbox key' },
      { offset: 9, label: 'a key-shaped token sk_test_sa…' },
      { offset: 35, label: 'a key-shaped token sk_live_9a…' },
    ]);
  });

  it('lets the bare prefixes of a help text through', () => {
    expect(findLeaks('Send a key (sk_test_…), never sk_live_ keys, e.g. sk_test_...', [])).toEqual(
      [],
    );
  });
});

describe('configuredKeys', () => {
  it('takes CARRIER_API_KEY or the key file when set, and ignores values too short to be keys', () => {
    const dir = builtDir({ 'key.txt': `${REAL}\n` });
    const labels = (env: NodeJS.ProcessEnv) => [
      ...new Set(configuredKeys(env).map((needle) => needle.label.replace(' (base64)', ''))),
    ];
    expect(labels({})).toEqual(['the embedded sandbox key']);
    expect(labels({ CARRIER_API_KEY: 'short' })).toEqual(['the embedded sandbox key']);
    expect(labels({ CARRIER_API_KEY: REAL })).toEqual([
      'the embedded sandbox key',
      'CARRIER_API_KEY',
    ]);
    const fromFile = configuredKeys({ CARRIER_API_KEY_FILE: join(dir, 'key.txt') });
    expect(fromFile.map((needle) => needle.text)).toContain(REAL);
  });
});

describe('scanDir', () => {
  it('scans every file, source maps and nested folders included', () => {
    const dir = builtDir({
      'index.html': '<script src="/assets/a.js"></script>',
      'assets/a.js': 'console.log(1)',
      'assets/a.js.map': `{"sourcesContent":["const key = '${REAL}'"]}`,
      'assets/deep/b.css': `.x{background:url(data:text/plain;base64,${Buffer.from(`k=${REAL}`).toString('base64')})}`,
    });
    const scan = scanDir(dir, needlesOf('CARRIER_API_KEY', REAL));
    expect([scan.files, scan.sourceMaps]).toEqual([4, 1]);
    expect(scan.leaks.map((leak) => [leak.file.endsWith('a.js.map'), leak.label])).toEqual([
      [true, 'CARRIER_API_KEY'],
      [true, 'a key-shaped token sk_live_Zq…'],
      [false, 'CARRIER_API_KEY (base64)'],
    ]);
  });
});

describe('the gate as a command', () => {
  const run = (dir: string, env: NodeJS.ProcessEnv = {}) =>
    spawnSync('node_modules/.bin/tsx', ['scripts/check-key-leak.ts', dir], {
      encoding: 'utf8',
      env: { ...process.env, CARRIER_API_KEY: '', CARRIER_API_KEY_FILE: '', ...env },
    });

  it('passes a clean build and fails one with the key, naming file and offset, never the key', () => {
    const clean = run(builtDir({ 'index.html': '<p>hello</p>', 'a.js.map': '{}' }));
    expect(clean.status).toBe(0);
    expect(clean.stdout).toContain('no key in 2 files (1 source maps');

    const secret = 'sk_live_only_in_env_42';
    const dir = builtDir({ 'assets/x.js': `fetch("/v2",{headers:{k:"${secret}"}})` });
    const leaky = run(dir, { CARRIER_API_KEY: secret });
    expect(leaky.status).toBe(1);
    expect(leaky.stderr).toMatch(/assets\/x\.js:25: CARRIER_API_KEY\n/);
    expect(leaky.stdout + leaky.stderr).not.toContain(secret);
  });

  it('fails when there is nothing to scan', () => {
    expect(run(join(tmpdir(), 'no-such-dist-dir')).status).toBe(1);
  });
});

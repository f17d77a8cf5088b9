import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { guessablePasswordProblem } from './password-policy.ts';
import { passwordProblem } from './passwords.ts';

const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const HASH_PASSWORD = fileURLToPath(new URL('./hash-password.ts', import.meta.url));

/** Too easy to guess, each 12 characters or more (so only the new rules can refuse them). */
const GUESSABLE: Record<string, RegExp> = {
  password1234: /most common passwords/,
  PassWord1234: /most common passwords/,
  'pass word 1234': /most common passwords/,
  qwertyuiop12: /most common passwords/,
  '1q2w3e4r5t6y': /most common passwords/,
  aaaaaaaaaaaa: /repeats/,
  abcabcabcabc: /repeats/,
  '121212121212': /repeats/,
  zaq1zaq1zaq1: /repeats/,
  '123456789012': /most common passwords|sequence/,
  '345678901234': /sequence/,
  abcdefghijklmn: /sequence/,
  '987654321098': /sequence/,
  iloveyou1234: /common passwords, repeats or sequences/,
  'qwerty123456!': /common passwords, repeats or sequences/,
  monkeyaaaaaaaa: /common passwords, repeats or sequences/,
  abcdefghijk9: /common passwords, repeats or sequences/,
};

/** Fine: the passwords the project's tests and docs use, passphrases, random ones. */
const FINE = [
  'a long enough password',
  'correct horse battery staple',
  'twelve chars',
  'change-me-to-12-or-more-characters',
  'kitchen-sunlight-42',
  'my dog is called rex',
  'xK9#mQ2$vL7!',
  'Tr0ub4dor&3xyz',
];

describe('guessable passwords', () => {
  it.each(Object.entries(GUESSABLE))('refuses %s, saying why and never quoting it', (pw, why) => {
    const problem = passwordProblem(pw);
    expect(problem).toMatch(why);
    expect(problem).toMatch(/choose another/);
    expect(problem?.toLowerCase()).not.toContain(pw.toLowerCase());
  });

  it('accepts passphrases and random passwords', () => {
    for (const pw of FINE) expect(guessablePasswordProblem(pw), pw).toBeUndefined();
  });

  it('still refuses a short password for its length first', () => {
    expect(passwordProblem('password')).toMatch(/at least 12 characters \(it has 8\)/);
  });
});

describe('where a password is set', () => {
  it('DASHBOARD_PASSWORD: a common one stops the start with the reason', () => {
    const env = { DASHBOARD_AUTH: 'password', DASHBOARD_PASSWORD: 'password1234' };
    let problems: string[] = [];
    try {
      loadConfig(env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems = err.problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(/^DASHBOARD_PASSWORD is one of the most common/),
    ]);
    expect(problems.join('\n')).not.toContain('password1234');
    const repeated = { ...env, DASHBOARD_PASSWORD: 'aaaaaaaaaaaa' };
    expect(() => loadConfig(repeated)).toThrow(ConfigError);
    expect(loadConfig({ ...env, DASHBOARD_PASSWORD: 'a long enough password' }).auth).toMatchObject(
      { kind: 'password' },
    );
  });

  it('hash-password.ts: refuses a common one (exit 2, nothing printed on stdout)', async () => {
    const child = spawn(TSX, [HASH_PASSWORD, 'alice'], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end('abcabcabcabc\n');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/the password repeats the same characters/);
    expect(stdout).toBe('');
  });
});

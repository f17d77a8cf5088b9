import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPasswordCheck, hashPassword, parseUsersFile, verifyPassword } from './passwords.ts';
import { openProxyDb } from '../db.ts';
import { createSqliteEngine } from '../sql/sqlite.ts';
import { cookieOf, makeTempDir, startGovernedApp, testConfig } from './helpers.test-support.ts';

describe('password hashes', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');
    expect(first).toMatch(/^scrypt\$[\w-]+\$[\w-]+$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse', first)).toBe(true);
    expect(await verifyPassword('correct horsf', first)).toBe(false);
    expect(await verifyPassword('correct horse', 'plain-text')).toBe(false);
  });
});

describe('users file', () => {
  it('reads name:hash lines, skipping comments and blank lines', async () => {
    const hash = await hashPassword('pw');
    const users = parseUsersFile(`# team\n\nalice:${hash}\r\nbob.smith@example.com:${hash}\n`);
    expect([...users.keys()]).toEqual(['alice', 'bob.smith@example.com']);
  });

  it('lists every malformed line in one error', async () => {
    const hash = await hashPassword('pw');
    const text = `alice:${hash}\nbob:plaintext\n:${hash}\nalice:${hash}`;
    expect(() => parseUsersFile(text, 'users.txt')).toThrow(
      'users.txt: line 2: not a scrypt$salt$hash; line 3: bad user name; line 4: duplicate user "alice"',
    );
  });

  it('checks users from the file and the single admin password', async () => {
    const dir = makeTempDir();
    const file = join(dir, 'users');
    writeFileSync(file, `alice:${await hashPassword('alice-pw')}\n`);
    const accounts = await createPasswordCheck({ usersFile: file, password: 'admin-pw' });
    rmSync(dir, { recursive: true, force: true });
    expect(await accounts.check('alice', 'alice-pw')).toBe('alice');
    expect(await accounts.check('admin', 'admin-pw')).toBe('admin');
    expect(await accounts.check('alice', 'admin-pw')).toBeUndefined();
    expect(await accounts.check('mallory', 'alice-pw')).toBeUndefined();
    expect([accounts.roleOf('alice'), accounts.roleOf('admin')]).toEqual(['analyst', 'admin']);
  });

  it('refuses a password mode with no users at all', async () => {
    await expect(createPasswordCheck({})).rejects.toThrow(/users file or a password/);
  });
});

describe('users file roles', () => {
  it('reads an optional third field as the role; a line without one is an analyst', async () => {
    const hash = await hashPassword('pw');
    const users = parseUsersFile(
      `ann:${hash}:admin\nvic:${hash}:viewer\nal:${hash}:analyst\nbo:${hash}\n`,
    );
    expect(Object.fromEntries([...users].map(([name, account]) => [name, account.role]))).toEqual({
      ann: 'admin',
      vic: 'viewer',
      al: 'analyst',
      bo: 'analyst',
    });
    expect(users.get('ann')?.hash).toBe(hash);
  });

  it('refuses an unknown role and the names the proxy writes itself', async () => {
    const hash = await hashPassword('pw');
    const text = `ann:${hash}:root\nalerts:${hash}:admin\nlocal:${hash}\nbo:${hash}:`;
    expect(() => parseUsersFile(text, 'users.txt')).toThrow(
      'users.txt: line 1: unknown role "root" (viewer, analyst, admin); line 2: "alerts" is a name the proxy uses itself; line 3: "local" is a name the proxy uses itself; line 4: unknown role "" (viewer, analyst, admin)',
    );
  });

  it('stops the start when no user of the file is an admin', async () => {
    const dir = makeTempDir();
    const file = join(dir, 'users');
    writeFileSync(file, `al:${await hashPassword('pw')}\nvic:${await hashPassword('pw')}:viewer\n`);
    await expect(createPasswordCheck({ usersFile: file })).rejects.toThrow(
      /no user has the admin role.*":admin"/,
    );
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives the one DASHBOARD_PASSWORD account the admin role', async () => {
    const accounts = await createPasswordCheck({ password: 'a long enough password' });
    expect(accounts.roleOf('admin')).toBe('admin');
    expect(accounts.roleOf('someone')).toBeUndefined();
  });
});

describe('a session and the users file', () => {
  it('carries the role of the account, and ends when the account leaves the file', async () => {
    const dir = makeTempDir();
    const db = openProxyDb(join(dir, 'sessions.sqlite'));
    const sql = createSqliteEngine(db);
    const file = join(dir, 'users');
    const hash = await hashPassword('a long enough password');
    writeFileSync(file, `ann:${hash}:admin\nbob:${hash}\n`);
    const auth = { kind: 'password' as const, usersFile: file };
    const first = await startGovernedApp(testConfig({ auth }), { sql });
    const signedIn = await first.call('/api/local/session', {
      method: 'POST',
      browser: true,
      body: { username: 'bob', password: 'a long enough password' },
    });
    expect(signedIn.json).toMatchObject({ user: { id: 'bob', role: 'analyst' } });
    const cookie = cookieOf(signedIn);
    expect((await first.call('/api/local/session', { headers: { cookie } })).json).toMatchObject({
      user: { id: 'bob', role: 'analyst' },
    });
    await first.close();
    // restarted with bob taken out of the file: his session (still in the database) is refused
    writeFileSync(file, `ann:${hash}:admin\n`);
    const second = await startGovernedApp(testConfig({ auth }), { sql });
    expect((await second.call('/api/local/session', { headers: { cookie } })).status).toBe(401);
    await second.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

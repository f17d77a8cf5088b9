import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPasswordCheck, hashPassword, parseUsersFile, verifyPassword } from './passwords.ts';
import { makeTempDir } from './helpers.test-support.ts';

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
    const check = await createPasswordCheck({ usersFile: file, password: 'admin-pw' });
    rmSync(dir, { recursive: true, force: true });
    expect(await check('alice', 'alice-pw')).toBe('alice');
    expect(await check('admin', 'admin-pw')).toBe('admin');
    expect(await check('alice', 'admin-pw')).toBeUndefined();
    expect(await check('mallory', 'alice-pw')).toBeUndefined();
  });

  it('refuses a password mode with no users at all', async () => {
    await expect(createPasswordCheck({})).rejects.toThrow(/users file or a password/);
  });
});

import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** scrypt cost parameters (N = 2^15, r = 8, p = 1; about 32 MiB and tens of ms per hash). */
const SCRYPT: ScryptOptions = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, SCRYPT, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$<salt>$<hash>` (base64url), the format of a users-file line after `name:`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt);
  return `scrypt$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const HASH = /^scrypt\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{40,})$/;

function isPasswordHash(value: string): boolean {
  return HASH.test(value);
}

/** Constant-time comparison of a password with a `scrypt$salt$hash` string. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = HASH.exec(stored);
  if (!match) return false;
  const expected = Buffer.from(match[2] ?? '', 'base64url');
  const key = await derive(password, Buffer.from(match[1] ?? '', 'base64url'));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Shortest password accepted for DASHBOARD_PASSWORD and by hash-password.ts. */
const MIN_PASSWORD_LENGTH = 12;

/** Why a new password is refused (too short), or undefined when it is long enough. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password.normalize('NFC')].length;
  return length < MIN_PASSWORD_LENGTH
    ? `must have at least ${MIN_PASSWORD_LENGTH} characters (it has ${length})`
    : undefined;
}

const USER_NAME = /^[A-Za-z0-9._@-]{1,64}$/;

export function isUserName(value: string): boolean {
  return USER_NAME.test(value);
}

/**
 * Parse a users file: one `name:scrypt$salt$hash` line per user; blank lines and lines starting with
 * `#` are ignored. Throws one error listing every malformed line.
 */
export function parseUsersFile(text: string, source = 'users file'): Map<string, string> {
  const users = new Map<string, string>();
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    const hash = line.slice(colon + 1);
    if (colon < 1 || !isUserName(name)) problems.push(`line ${index + 1}: bad user name`);
    else if (!isPasswordHash(hash)) problems.push(`line ${index + 1}: not a scrypt$salt$hash`);
    else if (users.has(name)) problems.push(`line ${index + 1}: duplicate user "${name}"`);
    else users.set(name, hash);
  });
  if (problems.length > 0) throw new Error(`${source}: ${problems.join('; ')}`);
  return users;
}

/** Checks a name and password; resolves to the user name when they match. */
export type PasswordCheck = (name: string, password: string) => Promise<string | undefined>;

/**
 * Build the password check for DASHBOARD_AUTH=password: users from `usersFile`, plus user `admin`
 * with `password` (DASHBOARD_PASSWORD) when given and the file has no `admin` of its own.
 */
export async function createPasswordCheck(auth: {
  usersFile?: string;
  password?: string;
}): Promise<PasswordCheck> {
  const users =
    auth.usersFile === undefined
      ? new Map<string, string>()
      : parseUsersFile(readFileSync(auth.usersFile, 'utf8'), auth.usersFile);
  if (auth.password !== undefined && !users.has('admin')) {
    users.set('admin', await hashPassword(auth.password));
  }
  if (users.size === 0) throw new Error('DASHBOARD_AUTH=password needs a users file or a password');
  // Compared against when the name is unknown, so timing does not reveal which names exist.
  const decoy = await hashPassword(randomBytes(16).toString('hex'));
  return async (name, password) => {
    const stored = users.get(name);
    const ok = await verifyPassword(password, stored ?? decoy);
    return ok && stored !== undefined ? name : undefined;
  };
}

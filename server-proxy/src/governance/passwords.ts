import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { guessablePasswordProblem } from './password-policy.ts';
import { isRole, ROLES, type Role } from '../../../src/lib/roles.ts';
import { isReservedName } from './roles.ts';

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

/**
 * Why a new password is refused (too short, or too easy to guess: governance/password-policy.ts),
 * with what to do; undefined when it is fine. Never quotes the password.
 */
export function passwordProblem(password: string): string | undefined {
  const length = [...password.normalize('NFC')].length;
  return length < MIN_PASSWORD_LENGTH
    ? `must have at least ${MIN_PASSWORD_LENGTH} characters (it has ${length}); choose a longer one`
    : guessablePasswordProblem(password);
}

const USER_NAME = /^[A-Za-z0-9._@-]{1,64}$/;

export function isUserName(value: string): boolean {
  return USER_NAME.test(value);
}

/** One account of a users file: its password hash and its role. */
export interface Account {
  hash: string;
  role: Role;
}

/**
 * Parse a users file: one `name:scrypt$salt$hash[:role]` line per user (role `viewer`, `analyst`
 * or `admin`; none is `analyst`); blank lines and lines starting with `#` are ignored. The name
 * ends at the first `:` and the role starts after the last one (a scrypt hash holds no `:`).
 * Throws one error listing every malformed line.
 */
export function parseUsersFile(text: string, source = 'users file'): Map<string, Account> {
  const users = new Map<string, Account>();
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    let hash = line.slice(colon + 1);
    let role: string = 'analyst';
    const last = hash.lastIndexOf(':');
    if (last !== -1) {
      role = hash.slice(last + 1);
      hash = hash.slice(0, last);
    }
    const at = `line ${index + 1}`;
    if (colon < 1 || !isUserName(name)) problems.push(`${at}: bad user name`);
    else if (isReservedName(name))
      problems.push(`${at}: "${name}" is a name the proxy uses itself`);
    else if (!isPasswordHash(hash)) problems.push(`${at}: not a scrypt$salt$hash`);
    else if (!isRole(role))
      problems.push(`${at}: unknown role "${role.slice(0, 20)}" (${ROLES.join(', ')})`);
    else if (users.has(name)) problems.push(`${at}: duplicate user "${name}"`);
    else users.set(name, { hash, role });
  });
  if (problems.length > 0) throw new Error(`${source}: ${problems.join('; ')}`);
  return users;
}

/** Checks a name and password; resolves to the user name when they match. */
type PasswordCheck = (name: string, password: string) => Promise<string | undefined>;

/** The accounts of DASHBOARD_AUTH=password: the password check and each name's role. */
export interface PasswordAccounts {
  check: PasswordCheck;
  /** the role of `name`, or undefined when no such account exists (any more) */
  roleOf(name: string): Role | undefined;
}

/**
 * Build the accounts of DASHBOARD_AUTH=password: users from `usersFile` (with their roles), or
 * the one user `admin` with `password` (DASHBOARD_PASSWORD), who is an admin. Throws when no
 * account is an admin (the start stops: nobody could save the policy).
 */
export async function createPasswordCheck(auth: {
  usersFile?: string;
  password?: string;
}): Promise<PasswordAccounts> {
  const users =
    auth.usersFile === undefined
      ? new Map<string, Account>()
      : parseUsersFile(readFileSync(auth.usersFile, 'utf8'), auth.usersFile);
  if (auth.password !== undefined && !users.has('admin')) {
    users.set('admin', { hash: await hashPassword(auth.password), role: 'admin' });
  }
  if (users.size === 0) throw new Error('DASHBOARD_AUTH=password needs a users file or a password');
  if (![...users.values()].some((account) => account.role === 'admin')) {
    throw new Error(
      `${auth.usersFile ?? 'users file'}: no user has the admin role, so nobody could save the policy; end one line with ":admin" (name:scrypt$…:admin)`,
    );
  }
  // Compared against when the name is unknown, so timing does not reveal which names exist.
  const decoy = await hashPassword(randomBytes(16).toString('hex'));
  return {
    async check(name, password) {
      const stored = users.get(name)?.hash;
      const ok = await verifyPassword(password, stored ?? decoy);
      return ok && stored !== undefined ? name : undefined;
    },
    roleOf: (name) => users.get(name)?.role,
  };
}

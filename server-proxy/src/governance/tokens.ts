/**
 * API tokens for other systems (docs/api.md): an admin makes one with a name, a role (viewer or
 * analyst) and an expiry; the token is answered once and only its SHA-256 is kept. A token is 32
 * random bytes, so a fast hash is enough (nothing to guess from; a slow hash would only slow every
 * request). Written once over SqlEngine (SQLite or PostgreSQL); every lookup reads the database, so
 * a revoke holds at once on every replica.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SqlEngine } from '../sql/engine.ts';

/** What every token starts with, so logs and secret scanners recognise one. */
const TOKEN_PREFIX = 'cdk_';
/** Characters of the token kept for display (`cdk_` and 8 more). */
const DISPLAY_CHARS = TOKEN_PREFIX.length + 8;
/** The last use is written at most this often per token. */
const TOUCH_EVERY_MS = 60_000;

type TokenRole = 'viewer' | 'analyst';

/** A token as listed: never its hash. */
interface ApiToken {
  id: number;
  name: string;
  role: TokenRole;
  /** the token's first characters, e.g. `cdk_ab12cd34…` */
  prefix: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
}

interface NewToken {
  name: string;
  role: TokenRole;
  createdBy: string;
  expiresAt: Date;
}

export interface TokenStore {
  /** Make a token; the answer carries the token itself, which is never shown again. */
  create(token: NewToken, now: Date): Promise<ApiToken & { token: string }>;
  /** Every token, newest first. */
  list(): Promise<ApiToken[]>;
  /** Revoke a token; the token as now listed, undefined when there is none. A second revoke keeps the first's time and actor. */
  revoke(id: number, by: string, now: Date): Promise<ApiToken | undefined>;
  /** The live token `token` is (not revoked, not expired), or undefined. */
  find(token: string, now: Date): Promise<ApiToken | undefined>;
  /** Note a use of `token` at `now`: written only when the last one noted is a minute old. */
  touch(token: ApiToken, now: Date): Promise<void>;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

interface Row extends Omit<ApiToken, 'id'> {
  id: number | string;
}

const COLUMNS = `id, name, role, prefix, created_by, created_at, expires_at, last_used_at,
  revoked_at, revoked_by`;

function toToken(row: Row): ApiToken {
  return { ...row, id: Number(row.id) };
}

export function createTokenStore(sql: SqlEngine): TokenStore {
  return {
    async create({ name, role, createdBy, expiresAt }, now) {
      const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
      const prefix = `${token.slice(0, DISPLAY_CHARS)}…`;
      const rows = await sql.query<Row>(
        `INSERT INTO api_token (name, role, token_hash, prefix, created_by, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
        [name, role, digest(token), prefix, createdBy, now.toISOString(), expiresAt.toISOString()],
      );
      const row = rows[0];
      if (row === undefined) throw new Error('api_token insert returned no row');
      return { ...toToken(row), token };
    },
    async list() {
      const rows = await sql.query<Row>(`SELECT ${COLUMNS} FROM api_token ORDER BY id DESC`);
      return rows.map(toToken);
    },
    async revoke(id, by, now) {
      await sql.run(
        'UPDATE api_token SET revoked_at = ?, revoked_by = ? WHERE id = ? AND revoked_at IS NULL',
        [now.toISOString(), by, id],
      );
      const rows = await sql.query<Row>(`SELECT ${COLUMNS} FROM api_token WHERE id = ?`, [id]);
      const row = rows[0];
      return row === undefined ? undefined : toToken(row);
    },
    async find(token, now) {
      if (!token.startsWith(TOKEN_PREFIX)) return undefined;
      const rows = await sql.query<Row>(
        `SELECT ${COLUMNS} FROM api_token
         WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?`,
        [digest(token), now.toISOString()],
      );
      const row = rows[0];
      return row === undefined ? undefined : toToken(row);
    },
    async touch(token, now) {
      const due = new Date(now.getTime() - TOUCH_EVERY_MS).toISOString();
      if (token.last_used_at !== null && token.last_used_at > due) return;
      await sql.run(
        `UPDATE api_token SET last_used_at = ?
         WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`,
        [now.toISOString(), token.id, due],
      );
    },
  };
}

import { createHash, randomBytes } from 'node:crypto';
import type { SqlEngine } from '../sql/engine.ts';

/** Sessions last 12 hours from login. */
export const DEFAULT_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/**
 * Sessions in the `sessions` table of SQLite (default) or of PostgreSQL (DATABASE_URL: every
 * replica sees every session). When the database cannot answer, each method rejects with a 503
 * `storage_unavailable` ProxyError (PostgreSQL) or SQLite's own error.
 */
export interface SessionStore {
  /** Start a session; resolves to the token for the cookie (only its hash is stored). */
  create(user: string, now: Date): Promise<{ token: string; expiresAt: Date }>;
  /** The user of a live session, or undefined when the token is unknown or expired. */
  lookup(token: string, now: Date): Promise<string | undefined>;
  destroy(token: string): Promise<void>;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Random 256-bit session tokens, stored hashed (SHA-256) with an absolute expiry. */
export function createSessionStore(sql: SqlEngine, ttlMs: number): SessionStore {
  return {
    async create(user, now) {
      await sql.run('DELETE FROM sessions WHERE expires_at <= ?', [now.toISOString()]);
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + ttlMs);
      await sql.run(
        'INSERT INTO sessions (id_hash, "user", created_at, expires_at) VALUES (?, ?, ?, ?)',
        [digest(token), user, now.toISOString(), expiresAt.toISOString()],
      );
      return { token, expiresAt };
    },
    async lookup(token, now) {
      const rows = await sql.query<{ name: string }>(
        'SELECT "user" AS name FROM sessions WHERE id_hash = ? AND expires_at > ?',
        [digest(token), now.toISOString()],
      );
      return rows[0]?.name;
    },
    async destroy(token) {
      await sql.run('DELETE FROM sessions WHERE id_hash = ?', [digest(token)]);
    },
  };
}

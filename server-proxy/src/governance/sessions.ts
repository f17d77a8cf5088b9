import { createHash, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';

/** Sessions last 12 hours from login. */
export const DEFAULT_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface SessionStore {
  /** Start a session; returns the token for the cookie (only its hash is stored). */
  create(user: string, now: Date): { token: string; expiresAt: Date };
  /** The user of a live session, or undefined when the token is unknown or expired. */
  lookup(token: string, now: Date): string | undefined;
  destroy(token: string): void;
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Random 256-bit session tokens, stored hashed (SHA-256) with an absolute expiry. */
export function createSessionStore(db: Database.Database, ttlMs: number): SessionStore {
  const insert = db.prepare<[string, string, string, string]>(
    'INSERT INTO sessions (id_hash, user, created_at, expires_at) VALUES (?, ?, ?, ?)',
  );
  const find = db.prepare<[string, string], { user: string }>(
    'SELECT user FROM sessions WHERE id_hash = ? AND expires_at > ?',
  );
  const remove = db.prepare<[string]>('DELETE FROM sessions WHERE id_hash = ?');
  const prune = db.prepare<[string]>('DELETE FROM sessions WHERE expires_at <= ?');
  return {
    create(user, now) {
      prune.run(now.toISOString());
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + ttlMs);
      insert.run(digest(token), user, now.toISOString(), expiresAt.toISOString());
      return { token, expiresAt };
    },
    lookup(token, now) {
      return find.get(digest(token), now.toISOString())?.user;
    },
    destroy(token) {
      remove.run(digest(token));
    },
  };
}

/**
 * Health of the proxy's SQLite file as its writers see it. Every write of the proxy goes through
 * `Storage.write`, which refuses (a 503 `storage_unavailable` ProxyError) when the file at the
 * database's path is gone or is no longer the file that is open (a deleted or replaced data dir:
 * SQLite would go on writing to the unlinked inode and every later write would be lost), and
 * which turns SQLite's own failures (write lock held past busy_timeout, read-only file, disk
 * full, I/O error) into the same refusal. After a failure, writes are refused at once (without
 * touching the file) until a back-off delay has passed, so a held lock does not block the event
 * loop for busy_timeout on every request; then the next write, or the retry timer, tries again
 * (the back-off is write-backoff.ts, shared with the PostgreSQL write buffers). Writers with queued
 * rows (write buffers) register a retry callback that runs on that timer.
 */
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { ProxyError } from './errors.ts';
import { WRITE_RETRY_MAX_MS, WriteBackoff } from './write-backoff.ts';

/** Where a storage failure is logged (the app's logger; silent until one is attached). */
export interface StorageLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export type FileState = 'ok' | 'missing' | 'replaced' | 'closed';

export interface StorageStatus {
  /** the file is the one open, and the last write succeeded */
  ok: boolean;
  file: FileState;
  /** the last write failed (until one succeeds) */
  failing: boolean;
  lastError: string | null;
  /** rows and settlements waiting in memory to be written */
  queuedWrites: number;
  /** rows dropped because a write queue was full (each drop is logged as an error) */
  droppedRows: number;
}

/** A writer that keeps rows in memory while the database refuses them. */
export interface Backlog {
  /** rows waiting */
  size(): number;
  /** try to write them (called by the retry timer); never throws */
  retry(): void;
}

/** Error codes of SQLite and of this module that say "the storage refuses writes now". */
const TRANSIENT = /^SQLITE_(BUSY|LOCKED|READONLY|IOERR|FULL|CANTOPEN|PROTOCOL|NOTADB|CORRUPT)/;

/** Is `err` a failure of the storage (retry later) rather than of the row (never succeeds)? */
export function isStorageFailure(err: unknown): boolean {
  if (err instanceof ProxyError) return err.code === 'storage_unavailable';
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && TRANSIENT.test(code);
}

function storageUnavailable(reason: string): ProxyError {
  return new ProxyError(
    503,
    'storage_unavailable',
    `The proxy cannot write to its database (${reason}); nothing was sent to the service`,
    'Try again in a moment. If it lasts, the administrator must check DATA_DIR (see /readyz).',
    { 'retry-after': '5' },
  );
}

function describe(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

export class Storage {
  private identity: { dev: number; ino: number } | undefined;
  private lastError: string | null = null;
  private readonly backoff: WriteBackoff;
  private readonly backlogs = new Set<Backlog>();
  private dropped = 0;
  private log: StorageLog | undefined;

  constructor(
    private readonly db: Database.Database,
    now: () => number = Date.now,
  ) {
    this.identity = this.fileIdentity();
    this.backoff = new WriteBackoff(() => this.retryBacklogs(), { now });
  }

  /** The file is a real path (not `:memory:` or a temporary database). */
  private get onDisk(): boolean {
    return this.db.name !== '' && this.db.name !== ':memory:' && !this.db.memory;
  }

  private fileIdentity(): { dev: number; ino: number } | undefined {
    if (!this.onDisk) return undefined;
    try {
      const { dev, ino } = statSync(this.db.name);
      return { dev, ino };
    } catch {
      return undefined;
    }
  }

  /** Is the file at the database's path still the file that is open? */
  fileState(): FileState {
    if (!this.db.open) return 'closed';
    if (!this.onDisk) return 'ok';
    const current = this.fileIdentity();
    if (!current) return 'missing';
    this.identity ??= current;
    return current.dev === this.identity.dev && current.ino === this.identity.ino
      ? 'ok'
      : 'replaced';
  }

  setLog(log: StorageLog): void {
    this.log = log;
  }

  /** Register a writer whose queued rows the retry timer writes. */
  addBacklog(backlog: Backlog): void {
    this.backlogs.add(backlog);
  }

  /** Count rows a full queue had to drop (reported by /readyz; the caller logs them). */
  noteDropped(rows: number, what: string): void {
    this.dropped += rows;
    this.log?.error(
      { rows, totalDropped: this.dropped },
      `storage: ${what} queue full; oldest rows dropped`,
    );
  }

  /**
   * Run `fn` (a write, usually a transaction) now. Throws a 503 `storage_unavailable` ProxyError
   * when the file is gone or replaced, when an earlier failure's back-off has not passed, or when
   * SQLite refuses the write. Errors that are not storage failures (a bug, a constraint) are
   * rethrown as they are.
   */
  write<T>(fn: () => T): T {
    const file = this.fileState();
    if (file === 'closed') throw storageUnavailable('the database is closed');
    if (file !== 'ok') {
      this.fail(new Error(`the database file ${this.db.name} is ${file}`), false);
      throw storageUnavailable(`its file is ${file}`);
    }
    if (!this.backoff.writable) {
      throw storageUnavailable(this.lastError ?? 'an earlier write failed');
    }
    try {
      const result = fn();
      this.succeeded();
      return result;
    } catch (err) {
      if (!isStorageFailure(err)) throw err;
      this.fail(err, true);
      throw storageUnavailable(describe(err));
    }
  }

  /** May a write be tried now (no back-off pending)? */
  get writable(): boolean {
    return this.backoff.writable;
  }

  status(): StorageStatus {
    const file = this.fileState();
    let queuedWrites = 0;
    for (const backlog of this.backlogs) queuedWrites += backlog.size();
    return {
      ok: file === 'ok' && !this.backoff.failing,
      file,
      failing: this.backoff.failing,
      lastError: this.lastError,
      queuedWrites,
      droppedRows: this.dropped,
    };
  }

  private succeeded(): void {
    const failures = this.backoff.failures;
    if (!this.backoff.succeeded()) return;
    this.log?.info({ failures }, 'storage: writes succeed again');
    this.lastError = null;
    // Queued rows go out now rather than at the next timer tick.
    this.backoff.retryIn(0);
  }

  /** Note a failure; `backOff` false (a missing or replaced file) waits the longest delay at once. */
  private fail(err: unknown, backOff: boolean): void {
    const first = !this.backoff.failing;
    this.lastError = describe(err);
    const delay = this.backoff.failed(backOff ? undefined : WRITE_RETRY_MAX_MS);
    const failures = this.backoff.failures;
    if (first || failures % 10 === 0) {
      this.log?.error(
        { err: this.lastError, failures, retryInMs: delay },
        'storage: a database write failed; rows are kept in memory and retried',
      );
    }
  }

  private retryBacklogs(): void {
    if (!this.db.open) return;
    for (const backlog of this.backlogs) {
      if (backlog.size() > 0) backlog.retry();
    }
    // Still failing with rows waiting: the failed write scheduled the next try. Nothing failed
    // but the back-off has not passed (no write was tried): look again when it has.
    if (this.backoff.failing && !this.backoff.retryScheduled && this.hasBacklog()) {
      this.backoff.retryIn(this.backoff.waitMs);
    }
  }

  private hasBacklog(): boolean {
    for (const backlog of this.backlogs) if (backlog.size() > 0) return true;
    return false;
  }

  /** Stop the retry timer (the database is closing). */
  stop(): void {
    this.backoff.stop();
  }
}

const storages = new WeakMap<Database.Database, Storage>();

/** The one Storage of a database connection (created, and the file's identity taken, on first use). */
export function storageOf(db: Database.Database): Storage {
  let storage = storages.get(db);
  if (!storage) {
    storage = new Storage(db);
    storages.set(db, storage);
  }
  return storage;
}

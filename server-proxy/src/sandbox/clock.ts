import type Database from 'better-sqlite3';
import type { SandboxClock } from './context.ts';

const DAY_MS = 86_400_000;

/** The sandbox clock plus the reset used by POST /__sandbox/reset. */
export interface ResettableClock extends SandboxClock {
  /** Back to real time (offset 0). */
  reset(): void;
  /** Whole days the clock has been moved forward. */
  offsetDays(): number;
}

/**
 * Real time shifted by a persisted offset of whole days. `realNow` is injectable so tests can pin
 * real time; the offset lives in the single row of `sandbox_clock`.
 */
export function createClock(
  db: Database.Database,
  realNow: () => number = Date.now,
): ResettableClock {
  db.exec(`CREATE TABLE IF NOT EXISTS sandbox_clock (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    offset_days INTEGER NOT NULL
  )`);
  db.prepare('INSERT OR IGNORE INTO sandbox_clock (id, offset_days) VALUES (1, 0)').run();
  const read = db.prepare<[], { offset_days: number }>(
    'SELECT offset_days FROM sandbox_clock WHERE id = 1',
  );
  const write = db.prepare<[number]>('UPDATE sandbox_clock SET offset_days = ? WHERE id = 1');

  const offsetDays = (): number => read.get()?.offset_days ?? 0;
  const now = (): Date => new Date(realNow() + offsetDays() * DAY_MS);

  return {
    now,
    offsetDays,
    advanceDays(days: number): Date {
      if (!Number.isInteger(days) || days < 0) {
        throw new RangeError(`advanceDays needs a whole, non-negative number of days, got ${days}`);
      }
      write.run(offsetDays() + days);
      return now();
    },
    reset(): void {
      write.run(0);
    },
  };
}

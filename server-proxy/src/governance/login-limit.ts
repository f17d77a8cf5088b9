/** At most this many failed logins per address and user name within the window. */
const MAX_FAILED_LOGINS = 5;
const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Past this many tracked keys, stale ones are swept before another is added. */
const MAX_TRACKED_KEYS = 10_000;

export interface LoginLimiter {
  /** Seconds to wait before another attempt is allowed, or 0 when one is allowed now. */
  retryAfterSeconds(key: string, now: number): number;
  fail(key: string, now: number): void;
  succeed(key: string): void;
}

/** In-memory count of recent failed logins per key (address + user name), pruned as it goes. */
export function createLoginLimiter(
  max = MAX_FAILED_LOGINS,
  windowMs = LOGIN_WINDOW_MS,
): LoginLimiter {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number) =>
    (failures.get(key) ?? []).filter((at) => at > now - windowMs);
  const sweep = (now: number) => {
    for (const key of failures.keys()) if (recent(key, now).length === 0) failures.delete(key);
  };
  return {
    retryAfterSeconds(key, now) {
      const times = recent(key, now);
      if (times.length === 0) failures.delete(key);
      else failures.set(key, times);
      if (times.length < max) return 0;
      const oldest = times[times.length - max] ?? now;
      return Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
    },
    fail(key, now) {
      if (failures.size >= MAX_TRACKED_KEYS) sweep(now);
      failures.set(key, [...recent(key, now), now]);
    },
    succeed(key) {
      failures.delete(key);
    },
  };
}

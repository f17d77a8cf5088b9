/**
 * Failed sign-in limits, kept in this process (here) or, with REDIS_URL, in Redis for every replica
 * (team/redis-login-limit.ts, the same rules):
 * - per address and user name: 5 failures within 15 minutes → that address waits for that name;
 * - per address, whatever the names (password spraying: one guess at each of many names): 20
 *   failures within 15 minutes → that address waits for every name. A successful sign-in takes its
 *   own attempt back out of this count, so a team behind one address signing in is not limited,
 *   but never clears the failures before it (an attacker's own account cannot reset the count);
 * - per user name, from any address: 10 failures within 15 minutes lock the name for 5 minutes; each
 *   further lock doubles (10, 20, 40 min) up to 60 minutes. The lock history is forgotten after
 *   24 hours without a failure, or on a successful sign-in. So however many addresses an attacker
 *   has, one name gets at most 10 guesses per lock period (about 10 an hour once at the cap).
 */

/** At most this many failed logins per address and user name within the window. */
const MAX_FAILED_LOGINS = 5;
const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export const ADDRESS_LIMIT = { max: MAX_FAILED_LOGINS, windowMs: LOGIN_WINDOW_MS };
/** At most this many failed logins per address, over all user names, within the window. */
export const SPRAY_LIMIT = { max: 20, windowMs: LOGIN_WINDOW_MS };
/** Past this many tracked keys, stale ones are swept before another is added. */
const MAX_TRACKED_KEYS = 10_000;

export interface AccountLockPolicy {
  /** failures of one name (any address) within `windowMs` that lock it */
  maxFailures: number;
  windowMs: number;
  /** the first lock; each later one doubles, up to `maxLockMs` */
  firstLockMs: number;
  maxLockMs: number;
  /** a name with no failure for this long starts again from the first lock */
  forgetAfterMs: number;
}

export const ACCOUNT_LOCK_POLICY: AccountLockPolicy = {
  maxFailures: 10,
  windowMs: 15 * 60 * 1000,
  firstLockMs: 5 * 60 * 1000,
  maxLockMs: 60 * 60 * 1000,
  forgetAfterMs: 24 * 60 * 60 * 1000,
};

/** Longest user name tracked per account: longer ones are not user names and never sign in. */
const MAX_NAME_LENGTH = 64;

/** The name whose failures lock it (lower case), or undefined when it is too long to be one. */
export const accountOf = (name: string) =>
  name.length <= MAX_NAME_LENGTH ? name.toLowerCase() : undefined;

/** What the per-address limit counts: one address guessing one name. */
export const addressKey = (address: string, name: string) => `${address}|${name.toLowerCase()}`;
/** What the spraying limit counts: one address, whatever name it guesses. */
export const sprayKey = (address: string) => `${address}|*`;

/** Why an attempt is refused, and for how long. */
export interface LoginRefusal {
  /**
   * `address`: this address failed too often for this name, or for all names together (spraying);
   * `account`: the name is locked
   */
  scope: 'address' | 'account';
  retryAfterSeconds: number;
}

export interface LoginLimiter {
  /** The refusal in force for an attempt now, or undefined when one is allowed. */
  check(address: string, name: string, now: number): LoginRefusal | undefined;
  /** Count an attempt as failed (before the password is checked, so parallel ones count too). */
  attempt(address: string, name: string, now: number): void;
  /**
   * The password was right: forget this name's failures and locks, and take this attempt back out
   * of the address's count over all names (its earlier failures stay).
   */
  succeed(address: string, name: string): void;
}

/**
 * The limits as the sign-in route uses them, wherever their state lives: this process
 * (`inMemoryLoginLimits`) or Redis, shared by every replica (team/redis-login-limit.ts).
 */
export interface LoginLimitStore {
  /**
   * The refusal in force for an attempt now; when there is none, the attempt is counted as failed
   * in the same atomic step (before the password is checked, so parallel guesses all count).
   * Rejects with an ApiError (503) when the state cannot be reached: the sign-in is then refused.
   */
  admit(address: string, name: string, now: number): Promise<LoginRefusal | undefined>;
  /** The password was right: forget this name's failures and locks. */
  succeed(address: string, name: string): Promise<void>;
}

/** The store of a single process: `limiter`'s check and count, with nothing awaited in between. */
export function inMemoryLoginLimits(limiter: LoginLimiter = createLoginLimiter()): LoginLimitStore {
  return {
    async admit(address, name, now) {
      const refusal = limiter.check(address, name, now);
      if (refusal === undefined) limiter.attempt(address, name, now);
      return refusal;
    },
    async succeed(address, name) {
      limiter.succeed(address, name);
    },
  };
}

export const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Recent failures per key within a sliding window. */
function createWindowCounter(max: number, windowMs: number) {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number) =>
    (failures.get(key) ?? []).filter((at) => at > now - windowMs);
  const sweep = (now: number) => {
    for (const key of failures.keys()) if (recent(key, now).length === 0) failures.delete(key);
  };
  return {
    retryAfterMs(key: string, now: number): number {
      const times = recent(key, now);
      if (times.length === 0) failures.delete(key);
      else failures.set(key, times);
      if (times.length < max) return 0;
      const oldest = times[times.length - max] ?? now;
      return oldest + windowMs - now;
    },
    fail(key: string, now: number) {
      if (failures.size >= MAX_TRACKED_KEYS) sweep(now);
      failures.set(key, [...recent(key, now), now].slice(-max));
    },
    clear(key: string) {
      failures.delete(key);
    },
    /** Take back the latest counted attempt of `key` (it turned out right). */
    uncount(key: string) {
      const times = failures.get(key);
      if (times === undefined) return;
      times.pop();
      if (times.length === 0) failures.delete(key);
    },
  };
}

interface AccountState {
  /** failures since the last lock ended, within the window */
  failures: number[];
  lockedUntil: number;
  /** locks so far: the next one lasts firstLockMs × 2^locks */
  locks: number;
  lastFailure: number;
}

/** Per-name lock with doubling duration, whatever address the failures came from. */
function createAccountLocks(policy: AccountLockPolicy) {
  const accounts = new Map<string, AccountState>();
  const isStale = (state: AccountState, now: number) =>
    state.lockedUntil <= now && now - state.lastFailure >= policy.forgetAfterMs;
  const makeRoom = (now: number) => {
    for (const [name, state] of accounts) if (isStale(state, now)) accounts.delete(name);
    // Still full: forget the least recently failed names that are not locked (never a lock).
    for (const [name, state] of accounts) {
      if (accounts.size < MAX_TRACKED_KEYS) break;
      if (state.lockedUntil <= now) accounts.delete(name);
    }
  };
  const stateOf = (name: string, now: number): AccountState | undefined => {
    const state = accounts.get(name);
    if (state && isStale(state, now)) {
      accounts.delete(name);
      return undefined;
    }
    return state;
  };
  return {
    retryAfterMs(name: string, now: number): number {
      const state = stateOf(name, now);
      return state && state.lockedUntil > now ? state.lockedUntil - now : 0;
    },
    fail(name: string, now: number) {
      let state = stateOf(name, now);
      if (state === undefined) {
        if (accounts.size >= MAX_TRACKED_KEYS) makeRoom(now);
        state = { failures: [], lockedUntil: 0, locks: 0, lastFailure: now };
      }
      accounts.delete(name); // re-inserted last: the map stays ordered by latest failure
      accounts.set(name, state);
      state.lastFailure = now;
      state.failures = [...state.failures.filter((at) => at > now - policy.windowMs), now];
      if (state.failures.length < policy.maxFailures) return;
      const lockMs = Math.min(policy.firstLockMs * 2 ** state.locks, policy.maxLockMs);
      state.lockedUntil = now + lockMs;
      state.locks += 1;
      state.failures = [];
    },
    clear(name: string) {
      accounts.delete(name);
    },
  };
}

/** The three limits: per address and name, per address, per name (see the file comment). */
export function createLoginLimiter(
  policy: AccountLockPolicy = ACCOUNT_LOCK_POLICY,
  perAddress = ADDRESS_LIMIT,
  perAddressAllNames = SPRAY_LIMIT,
): LoginLimiter {
  const byAddress = createWindowCounter(perAddress.max, perAddress.windowMs);
  const bySource = createWindowCounter(perAddressAllNames.max, perAddressAllNames.windowMs);
  const byAccount = createAccountLocks(policy);
  return {
    check(address, name, now) {
      const account = accountOf(name);
      const locked = account === undefined ? 0 : byAccount.retryAfterMs(account, now);
      if (locked > 0) return { scope: 'account', retryAfterSeconds: seconds(locked) };
      const wait = Math.max(
        byAddress.retryAfterMs(addressKey(address, name), now),
        bySource.retryAfterMs(sprayKey(address), now),
      );
      return wait > 0 ? { scope: 'address', retryAfterSeconds: seconds(wait) } : undefined;
    },
    attempt(address, name, now) {
      byAddress.fail(addressKey(address, name), now);
      bySource.fail(sprayKey(address), now);
      const account = accountOf(name);
      if (account !== undefined) byAccount.fail(account, now);
    },
    succeed(address, name) {
      byAddress.clear(addressKey(address, name));
      bySource.uncount(sprayKey(address));
      const account = accountOf(name);
      if (account !== undefined) byAccount.clear(account);
    },
  };
}

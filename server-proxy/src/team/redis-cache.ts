/**
 * The response cache shared by every proxy replica holding one API key, in Redis, and the lock that
 * lets only one of them call the service for a given request at a time: a carrier fetched (and
 * billed) through one replica is a free hit on every other.
 *
 * Keys carry a hash of the API key, never the key, and a hash of the request key:
 *   carrier-desk:cache:{<key hash>}:resp:<request hash>  the answer as JSON, PX = the endpoint's TTL
 *   carrier-desk:cache:{<key hash>}:lock:<request hash>  a random token, PX = the lock time, renewed
 *   carrier-desk:cache:{<key hash>}:dot:<dot>            the answer keys that concern one DOT
 *   carrier-desk:cache:{<key hash>}:stale:<dot>          the day of the newest change the
 *                                                         monitoring list reported for the DOT
 * and the channel carrier-desk:cache:{<key hash>}:stale, on which each such report is published
 * so every replica marks its local copies too.
 * The hash tag keeps one key's entries in one cluster slot, for the scripts.
 *
 * Every failure to ask Redis before a call is a refusal (503 `coordination_unavailable`): without the
 * shared store the proxy cannot know whether another replica already paid for the answer. Writes
 * after a call (storing the answer, dropping the lock) are best effort: the answer is served anyway.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { staleDayOf, type ChangeMarks, type StoredResponse } from '../cache.ts';
import { laterDay } from '../../../src/lib/monitoring/change-freshness.ts';
import {
  coordinationUnavailable,
  luaScript,
  runScript,
  whenReady,
  type LuaScript,
} from './redis-commands.ts';

/** KEYS: the answer, the lock. Returns {answer or '', its PTTL, 1 when the lock is held}. */
const READ = `
local value = redis.call('GET', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
local locked = redis.call('EXISTS', KEYS[2])
if not value then value = '' end
return {value, ttl, locked}
`;

/**
 * KEYS: the answer, the lock, then one index set per DOT. ARGV: the answer JSON, TTL ms, the lock
 * token ('' when the writer holds no lock). Stores the answer, indexes it by DOT (each set lives as
 * long as its longest entry), then drops the lock if it is still the writer's.
 */
const STORE = `
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
for i = 3, #KEYS do
  redis.call('SADD', KEYS[i], KEYS[1])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
if ARGV[3] ~= '' and redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
return 1
`;

/** KEYS: the lock. ARGV: the token, then 'del' or a new PX. Acts only while the lock is ours. */
const OWN_LOCK = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == 'del' then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
`;

/** KEYS: index sets of DOTs. Drops every answer they name, and the sets; returns how many answers. */
const INVALIDATE = `
local dropped = 0
for i = 1, #KEYS do
  local members = redis.call('SMEMBERS', KEYS[i])
  for _, key in ipairs(members) do dropped = dropped + redis.call('DEL', key) end
  redis.call('DEL', KEYS[i])
end
return dropped
`;

/**
 * KEYS: one change marker per DOT. ARGV: the day for each key in order, then the PX. Keeps the
 * later day; returns how many markers moved.
 */
const MARK = `
local ttl = tonumber(ARGV[#KEYS + 1])
local moved = 0
for i = 1, #KEYS do
  local held = redis.call('GET', KEYS[i])
  if not held or held < ARGV[i] then
    redis.call('SET', KEYS[i], ARGV[i], 'PX', ttl)
    moved = moved + 1
  end
end
return moved
`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const SCRIPTS = {
  read: luaScript(READ),
  store: luaScript(STORE),
  ownLock: luaScript(OWN_LOCK),
  invalidate: luaScript(INVALIDATE),
  mark: luaScript(MARK),
};

/** The shared store or its lock cannot be asked: calling could bill what another replica holds. */
function sharedCacheUnavailable() {
  return coordinationUnavailable(
    'The proxy cannot reach its shared cache (Redis), so it sends nothing to the service',
    'Retry after the time in Retry-After; carriers this replica already holds are still served at once.',
  );
}

/** An answer from the shared store, with how long it has left there. */
export interface SharedHit {
  stored: StoredResponse;
  ttlMs: number;
}

/** What `fetch` gave: a shared answer (free), or the one this replica's own call got. */
export type SharedFetch = ({ hit: true } & SharedHit) | { hit: false; stored: StoredResponse };

export interface SharedCacheOptions {
  /** PX of the lock; renewed every third of it while the holder is still calling */
  lockMs: number;
  /** the longest a replica waits for another's answer before refusing (503) */
  maxWaitMs: number;
  /** how often a waiting replica looks for the answer (default 75 ms) */
  pollMs?: number;
  /** where failed best-effort writes are reported */
  log?: { warn(message: string): void };
}

interface Serialised {
  status: number;
  body: string;
  headers: Record<string, string>;
  fetchedAt: string;
  dots: string[];
  refreshedAfterChange?: string;
}

/** The answer as stored; its staleness is not (the change markers decide it when it is read). */
function serialise(stored: StoredResponse): string {
  const { staleAfterChange: _local, ...kept } = stored;
  const value: Serialised = { ...kept, fetchedAt: stored.fetchedAt.toISOString() };
  return JSON.stringify(value);
}

function deserialise(text: string): StoredResponse | undefined {
  try {
    const value = JSON.parse(text) as Serialised;
    const fetchedAt = new Date(value.fetchedAt);
    const wellFormed =
      typeof value.status === 'number' &&
      typeof value.body === 'string' &&
      Array.isArray(value.dots) &&
      !Number.isNaN(fetchedAt.getTime());
    if (!wellFormed) return undefined;
    const { refreshedAfterChange, ...rest } = value;
    return {
      ...rest,
      fetchedAt,
      ...(typeof refreshedAfterChange === 'string' ? { refreshedAfterChange } : {}),
    };
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SharedResponseCache {
  private readonly prefix: string;
  private readonly pollMs: number;

  constructor(
    private readonly client: Redis,
    apiKey: string,
    private readonly options: SharedCacheOptions,
  ) {
    this.prefix = `carrier-desk:cache:{${sha256(apiKey).slice(0, 24)}}`;
    this.pollMs = options.pollMs ?? 75;
  }

  /** The shared answer to `key`, if any; throws 503 `coordination_unavailable` if Redis fails. */
  async get(key: string): Promise<SharedHit | undefined> {
    const { found } = await this.read(key);
    if (!found) return undefined;
    const stale = await this.staleDay(found.stored, undefined);
    if (stale !== undefined) found.stored.staleAfterChange = stale;
    return found;
  }

  /**
   * The answer to `key`: the shared one when another replica holds it (or is fetching it: then this
   * one waits for it), else the one `call` gets, stored for every replica when its status is 200.
   * `refresh` skips the shared answer and the wait, and overwrites the answer. A shared answer a
   * reported change outdated (its DOTs' change markers, or `staleAfter`: the day the caller's own
   * copy was outdated by) is not taken: one replica fetches it anew, the others wait for that answer;
   * `call` is told the day. Throws 503 `coordination_unavailable` when Redis cannot be asked before
   * the call; `call`'s errors pass.
   */
  async fetch(
    key: string,
    ttlMs: number,
    refresh: boolean,
    call: (staleAfter: string | undefined) => Promise<StoredResponse>,
    staleAfter?: string,
  ): Promise<SharedFetch> {
    const token = randomUUID();
    const deadline = Date.now() + this.options.maxWaitMs;
    if (refresh) {
      // Called whatever happens; holding the lock (when free) makes the others wait for this answer.
      const locked = await this.attempt(() => this.lock(key, token));
      const stored = await this.callHolding(key, token, ttlMs, locked, () => call(undefined));
      return { hit: false, stored };
    }
    let outdatedBy = staleAfter;
    for (;;) {
      const { found, locked } = await this.read(key);
      if (found) {
        const stale = await this.staleDay(found.stored, staleAfter);
        if (stale === undefined) return { hit: true, ...found };
        outdatedBy = stale;
      }
      if (!locked && (await this.attempt(() => this.lock(key, token)))) {
        const after = outdatedBy;
        const stored = await this.callHolding(key, token, ttlMs, true, () => call(after));
        return { hit: false, stored };
      }
      // Another replica is calling: wait for its answer. If its lock goes without an answer (it
      // failed, got no 200, or died), the loop takes the lock and calls once itself.
      if (Date.now() >= deadline) throw sharedCacheUnavailable();
      await sleep(this.pollMs);
    }
  }

  /**
   * Drop every shared answer that concerns one of `dots`; returns how many were dropped. Never
   * rejects: the watchlist change it follows went through, so a Redis failure is logged and the
   * entries live out their TTL.
   */
  async invalidateDots(dots: readonly string[]): Promise<number> {
    if (dots.length === 0) return 0;
    const keys = [...new Set(dots)].map((dot) => this.dotKey(dot));
    try {
      return Number(await this.run(SCRIPTS.invalidate, keys, []));
    } catch {
      this.options.log?.warn(
        'Redis: shared answers of a changed watchlist could not be dropped; they expire by their TTL',
      );
      return 0;
    }
  }

  /**
   * Record the changes a monitoring list reported (per DOT, the day of the newest), for `ttlMs` at
   * least (the longest an answer they outdate lives), and tell every replica (`onStale`). Never
   * rejects: the list answer is served anyway; a failure is logged.
   */
  async markStale(marks: ChangeMarks, ttlMs: number): Promise<void> {
    if (marks.size === 0 || ttlMs <= 0) return;
    const dots = [...marks.keys()];
    try {
      await this.run(
        SCRIPTS.mark,
        dots.map((dot) => this.staleKey(dot)),
        [...dots.map((dot) => marks.get(dot) ?? ''), Math.ceil(ttlMs)],
      );
      await this.client.publish(this.staleChannel(), JSON.stringify([...marks]));
    } catch {
      this.options.log?.warn(
        'Redis: monitoring changes could not be shared; other replicas may serve older answers until they read the list',
      );
    }
  }

  /**
   * Follow the changes any replica's list reads report (`listener` gets each report's marks), on a
   * connection of its own (a subscribed Redis connection can do nothing else). Returns the stop.
   */
  onStale(listener: (marks: ChangeMarks) => void): () => Promise<void> {
    // queued until connected, and subscribed again after a reconnection (ioredis' autoResubscribe)
    const subscriber = this.client.duplicate({ enableOfflineQueue: true });
    const channel = this.staleChannel();
    subscriber.on('message', (from: string, text: string) => {
      if (from !== channel) return;
      try {
        const pairs = JSON.parse(text) as unknown;
        if (!Array.isArray(pairs)) return;
        const marks = new Map<string, string>();
        for (const pair of pairs) {
          if (Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string') {
            marks.set(pair[0], pair[1]);
          }
        }
        listener(marks);
      } catch {
        // not one of ours
      }
    });
    subscriber.on('error', () => {
      // reconnects on its own; the markers are read again before a shared answer is taken
    });
    subscriber.subscribe(channel).catch(() => {
      this.options.log?.warn('Redis: cannot follow other replicas’ monitoring changes');
    });
    return async () => {
      subscriber.disconnect();
    };
  }

  /** The day `stored` is outdated from, after its DOTs' markers and `staleAfter`, if any. */
  private async staleDay(
    stored: StoredResponse,
    staleAfter: string | undefined,
  ): Promise<string | undefined> {
    if (stored.dots.length === 0) return undefined;
    const held = await this.attempt(async () => {
      await whenReady(this.client);
      return this.client.mget(...stored.dots.map((dot) => this.staleKey(dot)));
    });
    const byDot = new Map(stored.dots.map((dot, i) => [dot, held[i] ?? undefined]));
    return staleDayOf(stored, (dot) => laterDay(byDot.get(dot), staleAfter));
  }

  private async callHolding(
    key: string,
    token: string,
    ttlMs: number,
    locked: boolean,
    call: () => Promise<StoredResponse>,
  ): Promise<StoredResponse> {
    // Queue waits and retries may outlast one lock time: renew it while the call is running.
    const renew = locked
      ? setInterval(() => {
          this.run(SCRIPTS.ownLock, [this.lockKey(key)], [token, this.options.lockMs]).catch(
            () => {},
          );
        }, this.options.lockMs / 3)
      : undefined;
    let stored: StoredResponse;
    try {
      stored = await call();
    } catch (err) {
      if (locked) await this.unlock(key, token);
      throw err;
    } finally {
      clearInterval(renew);
    }
    if (stored.status === 200 && ttlMs > 0) {
      try {
        await this.store(key, stored, ttlMs, locked ? token : '');
        return stored;
      } catch {
        this.options.log?.warn(
          'Redis: an answer could not be stored for the other replicas; they may fetch it again',
        );
      }
    }
    if (locked) await this.unlock(key, token);
    return stored;
  }

  private async store(key: string, stored: StoredResponse, ttlMs: number, token: string) {
    const keys = [
      this.answerKey(key),
      this.lockKey(key),
      ...stored.dots.map((d) => this.dotKey(d)),
    ];
    await this.run(SCRIPTS.store, keys, [serialise(stored), Math.ceil(ttlMs), token]);
  }

  /** Drop our lock; a failure leaves it to expire on its own. */
  private async unlock(key: string, token: string): Promise<void> {
    try {
      await this.run(SCRIPTS.ownLock, [this.lockKey(key)], [token, 'del']);
    } catch {
      // expires after lockMs
    }
  }

  private async lock(key: string, token: string): Promise<boolean> {
    await whenReady(this.client);
    const answer = await this.client.set(this.lockKey(key), token, 'PX', this.options.lockMs, 'NX');
    return answer === 'OK';
  }

  private async read(key: string): Promise<{ found?: SharedHit; locked: boolean }> {
    const answer = await this.attempt(() =>
      this.run(SCRIPTS.read, [this.answerKey(key), this.lockKey(key)], []),
    );
    const [text, ttlMs, locked] = answer as [string, number, number];
    const stored = text === '' ? undefined : deserialise(text);
    return {
      found: stored ? { stored, ttlMs: ttlMs > 0 ? ttlMs : 0 } : undefined,
      locked: locked === 1,
    };
  }

  /** Redis's answer, or 503 `coordination_unavailable` when it cannot be asked. */
  private async attempt<T>(ask: () => Promise<T>): Promise<T> {
    try {
      return await ask();
    } catch {
      throw sharedCacheUnavailable();
    }
  }

  private answerKey(key: string): string {
    return `${this.prefix}:resp:${sha256(key)}`;
  }

  private lockKey(key: string): string {
    return `${this.prefix}:lock:${sha256(key)}`;
  }

  private dotKey(dot: string): string {
    return `${this.prefix}:dot:${dot}`;
  }

  private staleKey(dot: string): string {
    return `${this.prefix}:stale:${dot}`;
  }

  private staleChannel(): string {
    return `${this.prefix}:stale`;
  }

  private run(script: LuaScript, keys: string[], args: (number | string)[]) {
    return runScript(this.client, script, keys, args);
  }
}

/**
 * The upstream token buckets of buckets.ts held in Redis, so every proxy replica holding one API key
 * draws on one budget: same rule ("N requests in any 60 s", FIFO slots reserved ahead, a refusal
 * past `maxWaitMs`, a shared pause after a 429). Each reservation is one Lua script, atomic in
 * Redis, on Redis's own clock (TIME), so replicas with drifting clocks still agree.
 *
 * When Redis cannot be asked, the answer is a refusal marked `unavailable`: nothing is sent, since
 * the budget is unknown. ioredis reconnects by itself and the next reservation works again.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Reservation, UpstreamBuckets } from '../buckets.ts';
import type { Endpoint } from '../context.ts';

const WINDOW_MS = 60_000;
/** the same slack as the in-process buckets: our departure clock never beats the service's */
const SAFETY_MS = 250;
/** Retry-After of a refusal while Redis is unreachable (ioredis retries at least once a second) */
const UNAVAILABLE_RETRY_SECONDS = 5;
/** how long a reservation waits for a connection that is being (re)established */
const READY_WAIT_MS = 500;

/**
 * KEYS: the slot list (departure times, oldest first), the pause (epoch ms).
 * ARGV: per minute (0: pauses only), max wait ms, window + safety ms.
 * Returns {1, waitMs} (slot taken) or {0, waitMs} (refused: the next slot is that far away).
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local per = tonumber(ARGV[1])
local maxWait = tonumber(ARGV[2])
local span = tonumber(ARGV[3])
while true do
  local head = redis.call('LINDEX', KEYS[1], 0)
  if not head or tonumber(head) > now - span then break end
  redis.call('LPOP', KEYS[1])
end
local slot = math.max(now, tonumber(redis.call('GET', KEYS[2]) or '0'))
local count = redis.call('LLEN', KEYS[1])
if count > 0 then slot = math.max(slot, tonumber(redis.call('LINDEX', KEYS[1], -1))) end
if per > 0 and count >= per then
  slot = math.max(slot, tonumber(redis.call('LINDEX', KEYS[1], count - per)) + span)
end
local wait = slot - now
if wait > maxWait then return {0, wait} end
if per > 0 then
  redis.call('RPUSH', KEYS[1], string.format('%.0f', slot))
  redis.call('LTRIM', KEYS[1], -per, -1)
  redis.call('PEXPIRE', KEYS[1], wait + span + 1000)
end
return {1, wait}
`;

/** KEYS: the pause. ARGV: ms from Redis's now. Keeps the later of the old and the new pause. */
const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = now + tonumber(ARGV[1])
local old = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilMs > old then
  redis.call('SET', KEYS[1], string.format('%.0f', untilMs), 'PX', tonumber(ARGV[1]) + 1000)
end
return 1
`;

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const RESERVE_SHA = sha1(RESERVE);
const PAUSE_SHA = sha1(PAUSE);

/**
 * A client that fails fast instead of queueing while Redis is away: no offline queue, one attempt
 * per command, a bounded command time; it reconnects in the background, at least once a second.
 */
export function createRedisClient(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 100, 1000),
  });
}

/**
 * Report an outage once and its end once (ioredis emits an error on every reconnect attempt); it
 * also keeps ioredis from printing "Unhandled error event" for each of them.
 */
export function watchRedis(
  client: Redis,
  log: { warn(message: string): void; info(message: string): void },
): void {
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.warn(`Redis unreachable (${err.message}); upstream calls are refused until it is back`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info('Redis reachable again; upstream calls resume');
  });
}

/** Resolves when the client is connected, or after `ms` (then the command fails at once). */
async function ready(client: Redis, ms: number): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.on('ready', done);
  });
}

function isNoScript(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('NOSCRIPT');
}

export class RedisBuckets implements UpstreamBuckets {
  private readonly prefix: string;

  /**
   * `limits` as for EndpointBuckets (0 or absent: no bucket, pauses only). The keys carry a hash of
   * the API key, never the key, so replicas of one key share and different keys do not.
   */
  constructor(
    private readonly client: Redis,
    apiKey: string,
    private readonly limits: Partial<Record<Endpoint, number>> | undefined,
    private readonly maxWaitMs: number,
  ) {
    const keyHash = createHash('sha256').update(apiKey).digest('hex').slice(0, 24);
    this.prefix = `carrier-desk:rate:${keyHash}`;
  }

  async reserve(endpoint: Endpoint): Promise<Reservation> {
    const perMinute = Math.max(0, this.limits?.[endpoint] ?? 0);
    let answer: unknown;
    try {
      answer = await this.run(RESERVE, RESERVE_SHA, this.keys(endpoint), [
        perMinute,
        this.maxWaitMs,
        WINDOW_MS + SAFETY_MS,
      ]);
    } catch {
      return { ok: false, retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS, unavailable: true };
    }
    const [taken, waitMs] = answer as [number, number];
    if (taken === 1) return { ok: true, waitMs };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** `until` is this replica's epoch ms; Redis stores it on its own clock. Never rejects. */
  async pauseUntil(endpoint: Endpoint, until: number): Promise<void> {
    const ms = Math.ceil(until - Date.now());
    if (ms <= 0) return;
    try {
      await this.run(PAUSE, PAUSE_SHA, [this.keys(endpoint)[1]], [ms]);
    } catch {
      // Redis is away: every reservation is refused meanwhile, which is stricter than the pause.
    }
  }

  /** The slot list and the pause; the hash tag keeps both in one cluster slot for the script. */
  private keys(endpoint: Endpoint): [string, string] {
    const tag = `{${this.prefix}:${endpoint}}`;
    return [`${tag}:slots`, `${tag}:pause`];
  }

  private async run(script: string, sha: string, keys: string[], args: number[]) {
    await ready(this.client, READY_WAIT_MS);
    try {
      return await this.client.evalsha(sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!isNoScript(err)) throw err;
      return await this.client.eval(script, keys.length, ...keys, ...args);
    }
  }
}

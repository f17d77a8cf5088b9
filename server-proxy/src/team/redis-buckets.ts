/**
 * The upstream token buckets of buckets.ts held in Redis, so every proxy replica holding one API key
 * draws on one budget: same rule ("N requests in any 60 s", FIFO slots reserved ahead, a refusal
 * past `maxWaitMs`, a shared pause after a 429). Each reservation is one Lua script, atomic in
 * Redis, on Redis's own clock (TIME), so replicas with drifting clocks still agree.
 *
 * When Redis cannot be asked, the answer is a refusal marked `unavailable`: nothing is sent, since
 * the budget is unknown. ioredis reconnects by itself and the next reservation works again.
 *
 * A Redis that comes back empty (restart without persistence, FLUSHALL, failover to an empty
 * replica) has forgotten the slots already handed out, so each limited endpoint carries an epoch
 * marker. A replica that knew an epoch and finds it gone (or replaced by one a fresh replica made
 * without pausing) pauses the endpoint for a whole window plus `maxWaitMs`, by which time every slot
 * granted before the loss has left and aged out. Remaining race: a replica that starts for the first
 * time right after the loss, and reserves before any older replica does, cannot tell the loss from
 * a fresh deployment and takes slots at once; the older replicas pause as soon as they next reserve.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Reservation, UpstreamBuckets } from '../buckets.ts';
import type { Endpoint } from '../context.ts';
import {
  luaScript,
  runScript,
  UNAVAILABLE_RETRY_SECONDS,
  type LuaScript,
} from './redis-commands.ts';

const WINDOW_MS = 60_000;
/** the same slack as the in-process buckets: our departure clock never beats the service's */
const SAFETY_MS = 250;

/**
 * KEYS: the slot list (departure times, oldest first), the pause (epoch ms), the epoch marker.
 * ARGV: per minute (0: pauses only), max wait ms, window + safety ms, the epoch this replica last
 * saw ('' if none), a random id for a new epoch.
 * Returns {taken, waitMs, epoch, lost}: taken 1 (slot taken) or 0 (refused: the next slot is that
 * far away); the current epoch; lost 1 when this call found Redis's state lost and paused.
 *
 * Epochs are 'f:<id>' (made by a replica that knew none, no pause) or 'p:<id>' (made with a loss
 * pause). A known epoch meeting an absent marker, or a different 'f:' one, means state was lost
 * and nobody has paused for it yet; a different 'p:' one means another replica already did.
 * Unlimited endpoints skip this: they have no slots to forget, only pauses.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local per = tonumber(ARGV[1])
local maxWait = tonumber(ARGV[2])
local span = tonumber(ARGV[3])
local known = ARGV[4]
local epoch = ''
local lost = 0
if per > 0 then
  epoch = redis.call('GET', KEYS[3]) or ''
  if known ~= '' and epoch ~= known and string.sub(epoch, 1, 2) ~= 'p:' then
    lost = 1
    epoch = 'p:' .. ARGV[5]
    local untilMs = now + span + maxWait
    if untilMs > tonumber(redis.call('GET', KEYS[2]) or '0') then
      redis.call('SET', KEYS[2], string.format('%.0f', untilMs), 'PX', span + maxWait + 1000)
    end
    redis.call('SET', KEYS[3], epoch)
  elseif epoch == '' then
    epoch = 'f:' .. ARGV[5]
    redis.call('SET', KEYS[3], epoch)
  end
end
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
if wait > maxWait then return {0, wait, epoch, lost} end
if per > 0 then
  redis.call('RPUSH', KEYS[1], string.format('%.0f', slot))
  redis.call('LTRIM', KEYS[1], -per, -1)
  redis.call('PEXPIRE', KEYS[1], wait + span + 1000)
end
return {1, wait, epoch, lost}
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

const RESERVE_SCRIPT = luaScript(RESERVE);
const PAUSE_SCRIPT = luaScript(PAUSE);

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

interface RedisLog {
  warn(message: string): void;
  info(message: string): void;
}

/** The log watchRedis was given for a client, so the buckets on it can report a loss of state. */
const logs = new WeakMap<Redis, RedisLog>();

/**
 * Report an outage once and its end once (ioredis emits an error on every reconnect attempt); it
 * also keeps ioredis from printing "Unhandled error event" for each of them.
 */
export function watchRedis(client: Redis, log: RedisLog): void {
  logs.set(client, log);
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

export class RedisBuckets implements UpstreamBuckets {
  private readonly prefix: string;
  /** per endpoint, the epoch marker this replica last saw in Redis */
  private readonly epochs = new Map<Endpoint, string>();

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
      answer = await this.run(RESERVE_SCRIPT, this.keys(endpoint), [
        perMinute,
        this.maxWaitMs,
        WINDOW_MS + SAFETY_MS,
        this.epochs.get(endpoint) ?? '',
        randomUUID(),
      ]);
    } catch {
      return { ok: false, retryAfterSeconds: UNAVAILABLE_RETRY_SECONDS, unavailable: true };
    }
    const [taken, waitMs, epoch, lost] = answer as [number, number, string, number];
    if (epoch !== '') this.epochs.set(endpoint, epoch);
    if (lost === 1) {
      logs
        .get(this.client)
        ?.warn(
          `Redis lost its rate-limit state (restart without persistence, flush or failover); ` +
            `upstream ${endpoint} calls paused for a minute so the key's limit holds`,
        );
    }
    if (taken === 1) return { ok: true, waitMs };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** `until` is this replica's epoch ms; Redis stores it on its own clock. Never rejects. */
  async pauseUntil(endpoint: Endpoint, until: number): Promise<void> {
    const ms = Math.ceil(until - Date.now());
    if (ms <= 0) return;
    try {
      await this.run(PAUSE_SCRIPT, [this.keys(endpoint)[1]], [ms]);
    } catch {
      // Redis is away: every reservation is refused meanwhile, which is stricter than the pause.
    }
  }

  /**
   * The slot list, the pause and the epoch marker; the hash tag keeps them in one cluster slot for
   * the script. The marker never expires: its absence is what tells a loss of state.
   */
  private keys(endpoint: Endpoint): [string, string, string] {
    const tag = `{${this.prefix}:${endpoint}}`;
    return [`${tag}:slots`, `${tag}:pause`, `${tag}:epoch`];
  }

  private run(script: LuaScript, keys: string[], args: (number | string)[]) {
    return runScript(this.client, script, keys, args);
  }
}

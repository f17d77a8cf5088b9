/**
 * The failed sign-in limits of governance/login-limit.ts held in Redis, so that every proxy replica
 * holding one API key applies them to the same counts: ten guesses at one name spread over two
 * replicas lock it exactly as ten on one would. The check and the count of an attempt are one Lua
 * script, atomic in Redis, so parallel guesses on several replicas cannot all pass the limits.
 *
 * Keys carry a hash of the API key, never the key, and a keyed hash (HMAC with the API key) of the
 * user name and address, so a copy of Redis names no user:
 *   carrier-desk:login:{<key hash>}:addr:<hash of address and name>  failure times (list), PX 15 min
 *   carrier-desk:login:{<key hash>}:from:<hash of address>           failure times (list), PX 15 min
 *   carrier-desk:login:{<key hash>}:acct:<hash of name>              lock state (hash), PX ≥ 24 h
 *   carrier-desk:login:{<key hash>}:fail:<hash of name>              failure times (list), PX 15 min
 * Every key expires once the rules no longer need it, so nothing grows for ever.
 *
 * The times are the replica's clock (as in memory); replicas' clocks agree to far better than the
 * minutes the rules count in.
 *
 * Redis unreachable → the sign-in is refused with 503 `coordination_unavailable` (fail closed): an
 * attacker who could break Redis must not get unlimited guesses.
 */
import { createHash, createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  ACCOUNT_LOCK_POLICY,
  ADDRESS_LIMIT,
  SPRAY_LIMIT,
  accountOf,
  addressKey,
  seconds,
  sprayKey,
  type AccountLockPolicy,
  type LoginLimitStore,
  type LoginRefusal,
} from '../governance/login-limit.ts';
import { coordinationUnavailable, luaScript, runScript, whenReady } from './redis-commands.ts';

/**
 * KEYS: the address's failures for the name, the address's failures for all names, the name's lock
 * state, the name's failures (the last two absent when the name is too long to be tracked per
 * account).
 * ARGV: now, per-address max, per-address window, then the account policy: max failures, window,
 * first lock, longest lock, forget after, then the all-names max and window (all ms).
 * Returns {'', 0} when the attempt is allowed (and counted), else {scope, ms to wait}.
 */
const ADMIT = `
local now = tonumber(ARGV[1])
local addrMax = tonumber(ARGV[2])
local addrWindow = tonumber(ARGV[3])
local ms = function(x) return string.format('%.0f', x) end
local recent = function(key, window)
  local kept = {}
  for _, at in ipairs(redis.call('LRANGE', key, 0, -1)) do
    if tonumber(at) > now - window then kept[#kept + 1] = tonumber(at) end
  end
  return kept
end
local rewrite = function(key, times, keep, ttl)
  redis.call('DEL', key)
  local first = math.max(1, #times - keep + 1)
  for i = first, #times do redis.call('RPUSH', key, ms(times[i])) end
  if #times > 0 then redis.call('PEXPIRE', key, ttl) end
end

local tracked = #KEYS == 4
local lockedUntil, locks = 0, 0
if tracked then
  local forget = tonumber(ARGV[8])
  local state = redis.call('HMGET', KEYS[3], 'until', 'locks', 'last')
  if state[3] then
    lockedUntil = tonumber(state[1])
    locks = tonumber(state[2])
    if lockedUntil <= now and now - tonumber(state[3]) >= forget then
      redis.call('DEL', KEYS[3], KEYS[4])
      lockedUntil, locks = 0, 0
    end
  end
  if lockedUntil > now then return {'account', ms(lockedUntil - now)} end
end

local byAddress = recent(KEYS[1], addrWindow)
local sprayMax = tonumber(ARGV[9])
local sprayWindow = tonumber(ARGV[10])
local bySource = recent(KEYS[2], sprayWindow)
local wait = 0
if #byAddress >= addrMax then wait = byAddress[#byAddress - addrMax + 1] + addrWindow - now end
if #bySource >= sprayMax then
  wait = math.max(wait, bySource[#bySource - sprayMax + 1] + sprayWindow - now)
end
if wait > 0 then return {'address', ms(wait)} end

byAddress[#byAddress + 1] = now
rewrite(KEYS[1], byAddress, addrMax, addrWindow)
bySource[#bySource + 1] = now
rewrite(KEYS[2], bySource, sprayMax, sprayWindow)
if tracked then
  local max = tonumber(ARGV[4])
  local window = tonumber(ARGV[5])
  local firstLock = tonumber(ARGV[6])
  local maxLock = tonumber(ARGV[7])
  local forget = tonumber(ARGV[8])
  local failures = recent(KEYS[4], window)
  failures[#failures + 1] = now
  if #failures >= max then
    lockedUntil = now + math.min(firstLock * 2 ^ locks, maxLock)
    locks = locks + 1
    failures = {}
  end
  redis.call('HSET', KEYS[3], 'until', ms(lockedUntil), 'locks', locks, 'last', ms(now))
  redis.call('PEXPIRE', KEYS[3], ms(math.max(lockedUntil - now, 0) + forget))
  rewrite(KEYS[4], failures, max, window)
end
return {'', '0'}
`;

const ADMIT_SCRIPT = luaScript(ADMIT);

/** Redis cannot be asked: refuse the sign-in rather than let guesses through uncounted. */
function loginLimitsUnavailable() {
  return coordinationUnavailable(
    'The proxy cannot reach its shared sign-in limits (Redis), so it accepts no sign-in',
    'Retry after the time in Retry-After; sessions already signed in keep working.',
  );
}

export class RedisLoginLimits implements LoginLimitStore {
  private readonly prefix: string;
  /** a name or address as it appears in a key: keyed by the API key, so not guessable */
  private readonly hash: (text: string) => string;

  constructor(
    private readonly client: Redis,
    apiKey: string,
    private readonly policy: AccountLockPolicy = ACCOUNT_LOCK_POLICY,
    private readonly perAddress = ADDRESS_LIMIT,
    private readonly perAddressAllNames = SPRAY_LIMIT,
  ) {
    const keyHash = createHash('sha256').update(apiKey).digest('hex');
    this.prefix = `carrier-desk:login:{${keyHash.slice(0, 24)}}`;
    this.hash = (text) => createHmac('sha256', apiKey).update(text).digest('hex');
  }

  async admit(address: string, name: string, now: number): Promise<LoginRefusal | undefined> {
    const { policy, perAddress, perAddressAllNames } = this;
    const args = [
      now,
      perAddress.max,
      perAddress.windowMs,
      policy.maxFailures,
      policy.windowMs,
      policy.firstLockMs,
      policy.maxLockMs,
      policy.forgetAfterMs,
      perAddressAllNames.max,
      perAddressAllNames.windowMs,
    ];
    let answer: unknown;
    try {
      answer = await this.run(this.keys(address, name), args);
    } catch {
      throw loginLimitsUnavailable();
    }
    const [scope, waitMs] = answer as [string, string];
    if (scope !== 'account' && scope !== 'address') return undefined;
    return { scope, retryAfterSeconds: seconds(Number(waitMs)) };
  }

  /**
   * Forget the name's failures and take this attempt back out of the address's count over all
   * names. Best effort: when Redis cannot be asked, the failures age out by their windows.
   */
  async succeed(address: string, name: string): Promise<void> {
    try {
      await whenReady(this.client);
      const [forName, forAddress, ...forAccount] = this.keys(address, name);
      await this.client
        .multi()
        .del(forName as string, ...forAccount)
        .rpop(forAddress as string)
        .exec();
    } catch {
      // the counted attempt expires with its window
    }
  }

  private keys(address: string, name: string): string[] {
    const keys = [
      `${this.prefix}:addr:${this.hash(addressKey(address, name))}`,
      `${this.prefix}:from:${this.hash(sprayKey(address))}`,
    ];
    const account = accountOf(name);
    if (account !== undefined) {
      const hashed = this.hash(account);
      keys.push(`${this.prefix}:acct:${hashed}`, `${this.prefix}:fail:${hashed}`);
    }
    return keys;
  }

  private run(keys: string[], args: number[]): Promise<unknown> {
    return runScript(this.client, ADMIT_SCRIPT, keys, args);
  }
}

/**
 * Resolves once a connection `client` is making right now is up (or after `ms`), at once when it is
 * up or waiting to retry. Lets the per-user /api limit, which lets requests through uncounted while
 * Redis cannot be asked, count the first requests after a start or a reconnect, without slowing
 * every request while Redis stays down.
 */
export async function connectionSettled(client: Redis, ms: number): Promise<void> {
  if (client.status !== 'connecting' && client.status !== 'connect') return;
  await whenReady(client, ms);
}

/** Where the per-user /api limit (@fastify/rate-limit) keeps its counters for one API key. */
export function userRateLimitNamespace(apiKey: string): string {
  const keyHash = createHash('sha256').update(apiKey).digest('hex');
  return `carrier-desk:user-limit:{${keyHash.slice(0, 24)}}:`;
}

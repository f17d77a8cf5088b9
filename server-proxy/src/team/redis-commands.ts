/**
 * What every Redis-held piece of the team deployment (rate-limit buckets, response cache, sign-in
 * limits) asks Redis the same way: Lua scripts by SHA with a fallback to the script's text after a
 * Redis restart (NOSCRIPT), a short wait for a connection being made, and the one 503 the proxy
 * answers when Redis cannot be asked.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ProxyError } from '../errors.ts';

/** Retry-After of every refusal while Redis cannot be asked. */
export const UNAVAILABLE_RETRY_SECONDS = 5;
/** How long a command waits for a connection that is being (re)established. */
const READY_WAIT_MS = 500;

/** A Lua script and its SHA-1, as EVALSHA names it. */
export interface LuaScript {
  lua: string;
  sha: string;
}

export function luaScript(lua: string): LuaScript {
  return { lua, sha: createHash('sha1').update(lua).digest('hex') };
}

/** Resolves when the client is connected, or after `ms` (then a command fails at once). */
export async function whenReady(client: Redis, ms: number = READY_WAIT_MS): Promise<void> {
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

/** Run `script` by its SHA, loading its text when Redis does not know it (after a restart). */
export async function runScript(
  client: Redis,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (number | string)[],
): Promise<unknown> {
  await whenReady(client);
  try {
    return await client.evalsha(script.sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err instanceof Error && err.message.startsWith('NOSCRIPT'))) throw err;
    return await client.eval(script.lua, keys.length, ...keys, ...args);
  }
}

/**
 * 503 `coordination_unavailable`: Redis cannot be asked, so the proxy does what it cannot account
 * for nowhere. `message` says which shared state, `hint` what still works.
 */
export function coordinationUnavailable(
  message: string,
  hint: string,
  retryAfterSeconds = UNAVAILABLE_RETRY_SECONDS,
): ProxyError {
  return new ProxyError(503, 'coordination_unavailable', message, hint, {
    'retry-after': String(retryAfterSeconds),
  });
}

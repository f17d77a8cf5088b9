import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { Redis } from 'ioredis';
import { describe, expect, it, afterEach } from 'vitest';
import { startPostgres, startRedis } from './services.test-support.ts';

/** Does a TCP connection to 127.0.0.1:port succeed? */
function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/**
 * PostgreSQL's SSLRequest (length 8, code 80877103): a PostgreSQL server answers one byte, 'S' or
 * 'N'. Proves the server speaks the protocol without a client library.
 */
function sslAnswer(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.on('connect', () => socket.write(Buffer.from([0, 0, 0, 8, 4, 210, 22, 47])));
    socket.on('data', (chunk: Buffer) => {
      socket.destroy();
      resolve(chunk.toString('latin1'));
    });
    socket.on('error', reject);
  });
}

describe('throwaway Redis', () => {
  it('answers PING through the client, and is gone with its directory after stop', async (ctx) => {
    const redis = await startRedis();
    if (typeof redis === 'string') {
      return ctx.skip(redis);
    }
    const client = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => null });
    try {
      await client.connect();
      expect(await client.ping()).toBe('PONG');
      expect(await client.config('GET', 'save')).toEqual(['save', '']);
      const [, dir] = (await client.config('GET', 'dir')) as [string, string];
      expect(existsSync(dir)).toBe(true);
      client.disconnect();
      await redis.stop();
      expect(existsSync(dir)).toBe(false);
      expect(await connects(redis.port)).toBe(false);
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });
});

describe('throwaway PostgreSQL', () => {
  it('accepts connections on loopback until stopped', async (ctx) => {
    const postgres = await startPostgres();
    if (typeof postgres === 'string') {
      return ctx.skip(postgres);
    }
    try {
      expect(postgres.url).toBe(`postgres://postgres@127.0.0.1:${postgres.port}/postgres`);
      expect(await sslAnswer(postgres.port)).toBe('N');
      await postgres.stop();
      expect(await connects(postgres.port)).toBe(false);
    } finally {
      await postgres.stop();
    }
  });
});

describe('a missing server', () => {
  const saved = { path: process.env.PATH, required: process.env.TEAM_SERVICES_REQUIRED };
  afterEach(() => {
    process.env.PATH = saved.path;
    if (saved.required === undefined) delete process.env.TEAM_SERVICES_REQUIRED;
    else process.env.TEAM_SERVICES_REQUIRED = saved.required;
  });

  it('is a skip reason, or a failure where the run requires the services (CI)', async () => {
    // redis-server is looked for on PATH only: an empty PATH hides it
    process.env.PATH = '';
    delete process.env.TEAM_SERVICES_REQUIRED;
    await expect(startRedis()).resolves.toMatch(/redis-server is not installed/);
    process.env.TEAM_SERVICES_REQUIRED = '1';
    await expect(startRedis()).rejects.toThrow(/redis-server is not installed.*needs it/);
  });
});

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxyConfig } from '../context.ts';
import {
  CSRF,
  LIVE_KEY,
  makeTempDir,
  startFakeOrigin,
  startProxy,
  testConfig,
  type FakeOrigin,
  type RunningProxy,
} from '../helpers.test-support.ts';
import { createHostAllowList, splitHost } from './host-check.ts';

interface RawReply {
  status: number;
  body: string;
}

/** A GET with a Host of our choosing (fetch does not let a caller set Host). */
function getWithHost(
  url: string,
  path: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, path, method: 'GET', headers: { ...CSRF, ...headers, host } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the Host allow-list', () => {
  const allowed = (config: Partial<ProxyConfig>, host: string | undefined) =>
    createHostAllowList({ host: '127.0.0.1', ...config })(host);

  it('accepts loopback names on any port and nothing else by default', () => {
    for (const host of ['localhost', 'LOCALHOST:5173', '127.0.0.1:8787', '127.9.8.7', '[::1]:80']) {
      expect(allowed({}, host), host).toBe(true);
    }
    for (const host of [
      'rebind.evil.example',
      'rebind.evil.example:8787',
      'localhost.evil.example',
      '127.0.0.1.evil.example',
      '10.0.0.5',
      '',
      'a b',
      'localhost:port',
    ]) {
      expect(allowed({}, host), host).toBe(false);
    }
    expect(allowed({}, undefined)).toBe(false);
  });

  it('accepts the configured HOST when it names one address, on any port', () => {
    expect(allowed({ host: '10.0.0.5' }, '10.0.0.5:8787')).toBe(true);
    expect(allowed({ host: 'fd00::5' }, '[fd00::5]:8787')).toBe(true);
    expect(allowed({ host: 'Desk.Internal' }, 'desk.internal')).toBe(true);
    expect(allowed({ host: '0.0.0.0' }, '0.0.0.0:8787')).toBe(false);
    expect(allowed({ host: '::' }, '[::]:8787')).toBe(false);
  });

  it('accepts ALLOWED_HOSTS entries: a bare name on any port, name:port on that port only', () => {
    const config = { host: '0.0.0.0', allowedHosts: ['desk.example.com', 'ops.example.com:8443'] };
    expect(allowed(config, 'desk.example.com')).toBe(true);
    expect(allowed(config, 'DESK.example.com:443')).toBe(true);
    expect(allowed(config, 'ops.example.com:8443')).toBe(true);
    expect(allowed(config, 'ops.example.com')).toBe(false);
    expect(allowed(config, 'ops.example.com:443')).toBe(false);
    expect(allowed(config, 'evil.desk.example.com')).toBe(false);
  });

  it('splits host and port', () => {
    expect(splitHost('[::1]:8080')).toEqual({ name: '::1', port: '8080' });
    expect(splitHost('Example.COM')).toEqual({ name: 'example.com', port: undefined });
    expect(splitHost('fd00::5')).toEqual({ name: 'fd00::5', port: undefined });
    expect(splitHost('x/y')).toBeUndefined();
  });
});

describe('DNS rebinding: a request for another Host', () => {
  let origin: FakeOrigin;
  let proxy: RunningProxy;
  let staticDir: string;

  beforeAll(async () => {
    staticDir = makeTempDir();
    mkdirSync(join(staticDir, 'assets'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><p>dashboard</p>');
    writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
    origin = await startFakeOrigin();
    proxy = await startProxy(
      testConfig({
        staticDir,
        allowedHosts: ['desk.example.com'],
        upstream: { baseUrl: origin.url, apiKey: LIVE_KEY, legacy: false, timeoutMs: 2000 },
      }),
    );
  });

  afterAll(async () => {
    await proxy.close();
    await origin.close();
    rmSync(staticDir, { recursive: true, force: true });
  });

  it('is refused with 421 misdirected_host on the API, pages and assets, before any work', async () => {
    const hostile = 'rebind.evil.example';
    for (const path of [
      '/api/v2/profile?dot_number=568253',
      '/api/local/audit',
      '/api/local/usage',
      '/',
      '/search',
      '/assets/app.js',
    ]) {
      const reply = await getWithHost(proxy.url, path, `${hostile}:${new URL(proxy.url).port}`);
      expect(reply.status, path).toBe(421);
      expect(JSON.parse(reply.body), path).toMatchObject({
        code: 'misdirected_host',
        hint: expect.stringMatching(/ALLOWED_HOSTS or PUBLIC_URL/) as unknown,
      });
    }
    expect(origin.requests).toHaveLength(0);
  });

  it('serves loopback names and the allowed hosts', async () => {
    for (const host of ['localhost', '127.0.0.1:1234', '[::1]', 'desk.example.com']) {
      const reply = await getWithHost(proxy.url, '/api/v2/profile?dot_number=568253', host);
      expect(reply.status, host).toBe(200);
    }
    expect((await getWithHost(proxy.url, '/', 'desk.example.com:8443')).status).toBe(200);
  });

  it('answers the orchestrator probes whatever the Host', async () => {
    expect((await getWithHost(proxy.url, '/healthz', '10.1.2.3:8787')).status).toBe(200);
    const ready = await getWithHost(proxy.url, '/readyz', '10.1.2.3:8787');
    expect(ready.status).not.toBe(421);
  });
});

/**
 * Webhook targets checked where the connection is made (issue 31, item 5): the sender resolves a
 * page-made webhook's host once, checks every address, and opens the socket to a checked address.
 * A real HTTP receiver listens on loopback (dual-stack `::`, so an IPv4-mapped loopback address
 * would reach it too); the DNS is a stand-in, the one part that cannot run here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AlertsConfig } from './config.ts';
import { createSender } from './sender.ts';
import type { Delivery } from './store.ts';
import { guardedConnector, webhookRefusal, type Resolve } from './webhook-guard.ts';

const SECRET = 'whsec_test_0123456789abcdef';

/** Every IPv6 form of a loopback or private IPv4 address, and the IPv6 ranges that are not public. */
const INSIDE_V6 = [
  '::127.0.0.1', // ::/96 IPv4-compatible
  '::7f00:1',
  '::ffff:127.0.0.1', // ::ffff:0:0/96 IPv4-mapped
  '::ffff:7f00:1',
  '::ffff:0:7f00:1', // ::ffff:0:0:0/96 IPv4-translated
  '::ffff:0:a00:1',
  '64:ff9b::7f00:1', // 64:ff9b::/96 NAT64
  '64:ff9b::10.0.0.1',
  '64:ff9b:1::8.8.8.8', // 64:ff9b:1::/48 local-use NAT64
  '2002:7f00:1::1', // 6to4 of 127.0.0.1
  '2002:c0a8:101::', // 6to4 of 192.168.1.1
  '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
  '::1',
  '::',
  'fd12:3456::1',
  'fe80::1%eth0',
  'ff02::1',
];

/** Inside addresses that lead to this machine (an IPv4-mapped one reaches a dual-stack socket). */
const LOOPBACK = ['127.0.0.1', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1'];

interface Hit {
  url: string;
  headers: IncomingHttpHeaders;
}

let server: Server;
let port = 0;
const hits: Hit[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  hits.length = 0;
});

const alerts: AlertsConfig = {
  pollIntervalSeconds: 0,
  emailTo: [],
  webhookHosts: [],
  webhookSecret: SECRET,
};

function delivery(target: string): Delivery {
  return {
    seq: 1,
    id: '0b7c1f9e-5d0a-4b8e-9f57-2f6f4e0a9c11',
    subscription_id: 1,
    source: 'test',
    kind: 'webhook',
    target,
    payload: { type: 'test', carriers: [] },
    state: 'sending',
    attempts: 1,
    next_attempt_at: '2026-11-29T08:00:00.000Z',
    give_up_at: '2026-11-30T08:00:00.000Z',
    last_error: null,
    created_at: '2026-11-29T08:00:00.000Z',
    delivered_at: null,
  };
}

/** A stand-in DNS answering `first` for the first question, `then` for every later one. */
function changingDns(first: string[], then: string[]): Resolve & { calls: number } {
  const resolve = Object.assign(
    async () => {
      resolve.calls += 1;
      return resolve.calls === 1 ? first : then;
    },
    { calls: 0 },
  );
  return resolve;
}

async function sendError(send: ReturnType<typeof createSender>, target: string) {
  try {
    await send(delivery(target));
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  return 'sent';
}

describe('page-made webhooks at connect time', () => {
  it('refuses every IPv6 form of an inside address when the subscription is saved', async () => {
    for (const address of INSIDE_V6) {
      const literal = `http://[${address.replace('%', '%25')}]:${port}/hook`;
      expect(await webhookRefusal(literal, []), literal).toMatch(/private, loopback|not a URL/);
      const named = await webhookRefusal('https://hooks.example.com/x', [], async () => [address]);
      expect(named, address).toContain('private, loopback or link-local address');
    }
    // public IPv6, and the embedding forms around a public IPv4 address, stay allowed
    for (const address of ['2606:4700::1111', '64:ff9b::8.8.8.8', '2002:808:808::1']) {
      expect(await webhookRefusal(`http://[${address}]/x`, []), address).toBeUndefined();
    }
  });

  it('a name that answers a public address for the check and an inside one later never connects inside', async () => {
    // only addresses that lead to this machine: should the check fail, nothing leaves it
    for (const inside of LOOPBACK) {
      const resolve = changingDns(['93.184.216.34'], [inside]);
      const send = createSender({ alerts, publicUrl: 'https://desk.example.com', resolve });
      // `localhost` is also what the system's resolver would answer with 127.0.0.1
      const error = await sendError(send, `http://localhost:${port}/hook`);
      expect(error, inside).toContain(`private, loopback or link-local address (${inside})`);
      expect(resolve.calls, inside).toBe(2);
    }
    expect(hits).toEqual([]);
  });

  it('refuses every IPv6 form on the connection itself', async () => {
    // the connector's sockets go to a Unix socket of this test whatever the address: a check that
    // let an address through would show as a request here, and nothing can leave the machine
    const dir = mkdtempSync(join(tmpdir(), 'webhook-ipc-'));
    const socketPath = join(dir, 'receiver.sock');
    const reached: string[] = [];
    const ipc = createServer((req, res) => {
      reached.push(req.headers.host ?? '');
      req.resume();
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => ipc.listen(socketPath, resolve));
    const through = (address: string) =>
      new Agent({
        connect: guardedConnector(
          { allowedHosts: [], resolve: async () => [address] },
          { socketPath },
        ),
      });
    try {
      for (const address of INSIDE_V6) {
        const agent = through(address);
        const answer = agent.request({ origin: 'http://inside.test', path: '/', method: 'GET' });
        await expect(answer, address).rejects.toThrow(/private, loopback or link-local/);
        await agent.close();
      }
      expect(reached).toEqual([]);
      // the harness does see a connection the check lets through
      const agent = through('93.184.216.34');
      const answer = await agent.request({
        origin: 'http://outside.test',
        path: '/',
        method: 'GET',
      });
      await answer.body.dump();
      await agent.close();
      expect(reached).toEqual(['outside.test']);
    } finally {
      ipc.closeAllConnections();
      await new Promise<void>((resolve) => ipc.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('checks literal addresses on the connection too', async () => {
    const agent = new Agent({ connect: guardedConnector({ allowedHosts: [] }) });
    try {
      for (const address of LOOPBACK.map((a) => (a.includes(':') ? `[${a}]` : a))) {
        const answer = agent.request({
          origin: `http://${address}:${port}`,
          path: '/',
          method: 'GET',
        });
        await expect(answer, address).rejects.toThrow(/private, loopback or link-local/);
      }
    } finally {
      await agent.close();
    }
    expect(hits).toEqual([]);
  });

  it('reaches a permitted receiver on the address that was checked, with the name as Host', async () => {
    const resolve = changingDns(['127.0.0.1'], ['127.0.0.1']);
    const send = createSender({
      alerts,
      publicUrl: 'https://desk.example.com',
      resolve,
      allowLoopback: true,
    });
    // a name the system cannot resolve: only the checked address can be where it went
    await send(delivery(`http://hooks.receiver.test:${port}/in?k=1`));
    expect(hits).toHaveLength(1);
    expect(hits[0]?.url).toBe('/in?k=1');
    expect(hits[0]?.headers.host).toBe(`hooks.receiver.test:${port}`);
    expect(hits[0]?.headers['x-carrierdesk-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(resolve.calls).toBe(2);
  });

  it('without allowLoopback the same receiver is refused, and an allow-list host connects by its name', async () => {
    const resolve = changingDns(['127.0.0.1'], ['127.0.0.1']);
    const refused = createSender({ alerts, publicUrl: 'https://desk.example.com', resolve });
    expect(await sendError(refused, `http://hooks.receiver.test:${port}/in`)).toContain(
      'private, loopback or link-local address (127.0.0.1)',
    );
    const listed = createSender({
      alerts: { ...alerts, webhookHosts: [`hooks.receiver.test:${port}`] },
      publicUrl: 'https://desk.example.com',
      resolve: async () => ['127.0.0.1'],
    });
    await listed(delivery(`http://hooks.receiver.test:${port}/in`));
    expect(hits).toHaveLength(1);
  });

  it('over TLS, sends the name as SNI and checks the certificate against the name, not the address', async (context) => {
    // a self-signed certificate for the name, made for this run (openssl, as on every machine here)
    const dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    try {
      try {
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'ec',
            '-pkeyopt',
            'ec_paramgen_curve:P-256',
            '-nodes',
            '-keyout',
            join(dir, 'key.pem'),
            '-out',
            join(dir, 'cert.pem'),
            '-days',
            '2',
            '-subj',
            '/CN=hooks.receiver.test',
            '-addext',
            'subjectAltName=DNS:hooks.receiver.test',
          ],
          { stdio: 'ignore' },
        );
      } catch (err) {
        context.skip(`openssl cannot make a test certificate: ${String(err)}`);
      }
      const cert = readFileSync(join(dir, 'cert.pem'));
      const names: (string | false)[] = [];
      const tls = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
        names.push((req.socket as TLSSocket).servername ?? false);
        req.resume();
        res.writeHead(200).end('ok');
      });
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      const tlsPort = (tls.address() as AddressInfo).port;
      const agent = new Agent({
        connect: guardedConnector(
          { allowedHosts: [], resolve: async () => ['127.0.0.1'], allowLoopback: true },
          { ca: cert },
        ),
      });
      try {
        const answer = await agent.request({
          origin: `https://hooks.receiver.test:${tlsPort}`,
          path: '/in',
          method: 'POST',
          body: '{}',
        });
        await answer.body.dump();
        expect(answer.statusCode).toBe(200);
        expect(names).toEqual(['hooks.receiver.test']);
        // another name on the same address: the certificate does not match it, so no request
        const other = agent.request({
          origin: `https://other.receiver.test:${tlsPort}`,
          path: '/in',
          method: 'POST',
          body: '{}',
        });
        await expect(other).rejects.toThrow(
          /altnames|does not match|ERR_TLS_CERT_ALTNAME_INVALID/i,
        );
        expect(names).toHaveLength(1);
      } finally {
        await agent.close();
        tls.closeAllConnections();
        await new Promise<void>((resolve) => tls.close(() => resolve()));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The standings of current decisions: one request per 500 DOTs (a loopback server that answers
 * what it is asked), and the one schema of `GET /api/local/decisions/current`
 * (src/lib/vetting/contract.ts) reading the real proxy's answers, both forms.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { apiGet } from '../../lib/api-client.ts';
import { standingDots } from '../../lib/decision-standing.ts';
import { currentDecisionPageSchema, type CurrentDecision } from '../../lib/vetting/contract.ts';
import { currentDecisionBody } from '../../lib/vetting/contract.test-support.ts';
import { startSandboxProxy } from '../../test/sandbox-proxy.node.ts';
import { fetchStandings } from './standing.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

/** A current decision as the proxy answers it, now failing (parsed with the contract's schema). */
function current(dot: string): CurrentDecision {
  return currentDecisionBody(dot, {
    now: {
      verdict: 'fail',
      policy_version: 2,
      reasons: [
        {
          rule: 'authority',
          label: 'Authority',
          outcome: 'fail',
          message: 'Not authorized',
          fields: [],
          tab: 'authority',
        },
      ],
      fetched_at: '2026-11-28T09:00:00.000Z',
      evaluated_at: '2026-11-28T09:00:01.000Z',
      source: 'profile',
    },
    standing: 'now_fails',
  });
}

describe('fetchStandings over HTTP', () => {
  let server: Server | undefined;
  afterAll(async () => {
    vi.unstubAllGlobals();
    if (server) await new Promise((resolve) => server?.close(resolve));
  });

  it('asks at most 500 DOTs per request and merges the answers by DOT', async () => {
    const asked: string[][] = [];
    server = createServer((req, res) => {
      const query = new URL(req.url ?? '', 'http://x').searchParams;
      const dots = (query.get('dot_numbers') ?? '').split(',');
      asked.push(dots);
      // only odd DOTs have a decision
      const items = dots
        .filter((dot) => Number(dot) % 2 === 1)
        .map((dot) => ({ ...current(dot), extra: 'ignored' }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ items }));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const path =
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      return realFetch(path.startsWith('/') ? `http://127.0.0.1:${port}${path}` : input, init);
    });
    const dots = standingDots(Array.from({ length: 1200 }, (_, i) => String(100000 + i)));
    const map = await fetchStandings(dots);
    expect(asked.map((part) => part.length)).toEqual([500, 500, 200]);
    expect(map.size).toBe(600);
    expect(map.get('100001')?.standing).toBe('now_fails');
    expect(map.has('100000')).toBe(false);
    vi.unstubAllGlobals();
  });
});

describe('the one schema of GET /api/local/decisions/current', () => {
  it("reads the real proxy's answers by DOT and a page of all", async () => {
    const proxy = await startSandboxProxy();
    try {
      const post = async (dot: string, decision: string) => {
        // a decision records what was seen: the profile first
        await apiGet('/api/v2/profile', { dot_number: dot });
        const response = await fetch('/api/local/decisions', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-requested-with': 'carrier-desk' },
          body: JSON.stringify({ dot_number: dot, decision, note: 'schema check' }),
        });
        expect(response.status, await response.clone().text()).toBeLessThan(300);
      };
      await post('568253', 'approved');
      await post('1893346', 'do_not_use');
      const standings = await fetchStandings(standingDots(['568253', '1893346', '2214589']));
      expect([...standings.keys()].sort()).toEqual(['1893346', '568253']);
      const approved = standings.get('568253');
      expect(approved).toMatchObject({ decision: 'approved', override: false, needs_revet: false });
      expect(approved?.now?.policy_version).toBe(1);
      expect(approved?.user.name).toBeTruthy();
      const page = currentDecisionPageSchema.parse(
        await apiGet('/api/local/decisions/current', { all: '1' }),
      );
      expect(page.total).toBe(2);
      expect(page.items.map((item) => item.dot_number)).toEqual(['1893346', '568253']);
    } finally {
      await proxy.stop();
    }
  });
});

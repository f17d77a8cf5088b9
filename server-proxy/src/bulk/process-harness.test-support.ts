/**
 * Shared by the bulk tests that run proxies as real processes (`crash.test.ts`, `replicas.test.ts`):
 * clean-ups run after each test, temporary folders, a sandbox on a loopback port and calls to it,
 * and reading a job over HTTP until it reaches a state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { bulkJobSchema, type BulkJob } from '../../../src/lib/bulk/contract.ts';
import { buildSandboxApp } from '../sandbox/index.ts';

/** Per test file: what the next `afterEach` undoes, last first. */
export function processHarness(key: string, prefix: string) {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  }

  async function startSandbox(): Promise<string> {
    const app = await buildSandboxApp({ dataDir: tempDir(), apiKeys: [key], population: 200 });
    await app.listen({ host: '127.0.0.1', port: 0 });
    cleanups.push(() => app.close());
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }

  function sandboxCall(sandbox: string, path: string, method = 'GET', body?: unknown) {
    return fetch(`${sandbox}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  return { cleanups, tempDir, startSandbox, sandboxCall };
}

export async function readJob(url: string, id: string): Promise<BulkJob> {
  const answer = await fetch(`${url}/api/local/bulk-jobs/${id}?limit=5000`);
  expect(answer.status, await answer.clone().text()).toBe(200);
  return bulkJobSchema.parse(await answer.json());
}

/** Read the job every `everyMs` until `check` holds; throws after `ms`. */
export async function waitForJob(
  url: string,
  id: string,
  check: (job: BulkJob) => boolean,
  { ms = 20_000, everyMs = 30 }: { ms?: number; everyMs?: number } = {},
): Promise<BulkJob> {
  const until = Date.now() + ms;
  for (;;) {
    const job = await readJob(url, id);
    if (check(job)) return job;
    if (Date.now() > until) throw new Error(`job stayed ${job.status} at ${job.done} done`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/**
 * docs/api.md's worked integration, run as written: every `bash` block of the page, in order, in
 * one bash with real curl and jq, against a real proxy on the embedded sandbox (password sign-in,
 * signed webhooks), with the page's own Node receiver listening on loopback for the delivery. A
 * step that no longer works, an answer that changed shape or a receiver that no longer verifies
 * the proxy's signature fails here.
 */
import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../server-proxy/src/helpers.test-support.ts';
import {
  adminPassword,
  apiDocBlocks,
  makeToken,
  startDocReceiver,
  startIntegrationProxy,
  type Receiver,
} from './api-doc.test-support.ts';

const MARK = '@@ block ';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `script` run by bash in `cwd` with only `env` (and PATH), at most 120 s. */
function bash(script: string, cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      {
        cwd,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, ...env },
        timeout: 120_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('docs/api.md: the worked integration with curl', () => {
  const secret = randomBytes(24).toString('hex');
  const password = adminPassword();
  const workDir = mkdtempSync(join(tmpdir(), 'cdk-doc-'));
  let receiver: Receiver;
  let proxy: RunningProxy;

  beforeAll(async () => {
    receiver = await startDocReceiver(secret);
    proxy = await startIntegrationProxy({ password, secret, receiverUrl: receiver.url });
  });

  afterAll(async () => {
    await proxy?.close();
    await receiver?.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('has every curl call of the page in a bash block, so the run below covers them all', () => {
    const blocks = apiDocBlocks();
    const curls = blocks.filter((block) => /(^|[\s|(])curl\s/m.test(block.code));
    expect(curls.length).toBeGreaterThanOrEqual(6);
    expect(curls.filter((block) => block.lang !== 'bash')).toEqual([]);
  });

  it('the receiver refuses a forged, a re-signed and a stale delivery', async () => {
    const body = JSON.stringify({ id: 'forged', type: 'alert.test', text: 'x' });
    const now = Math.floor(Date.now() / 1000);
    const sign = (key: string, t: number, text = body) =>
      `t=${t},v1=${createHmac('sha256', key).update(`${t}.${text}`).digest('hex')}`;
    const post = (signature: string | undefined, text = body) =>
      fetch(receiver.url, {
        method: 'POST',
        headers: signature ? { 'x-carrierdesk-signature': signature } : {},
        body: text,
      }).then((response) => response.status);
    expect(await post(undefined)).toBe(401);
    expect(await post(sign('another secret', now))).toBe(401);
    expect(await post(sign(secret, now), body.replace('x', 'y'))).toBe(401);
    expect(await post(sign(secret, now - 3600))).toBe(401);
    // the same, signed right and now: taken
    expect(await post(sign(secret, now))).toBe(204);
    expect(await receiver.verified()).toEqual(['verified alert.test forged: x']);
    receiver.lines.length = 0;
  });

  it('runs every bash block in order and each answers as the page says', async () => {
    const blocks = apiDocBlocks().filter((block) => block.lang === 'bash');
    const script = [
      'set -euo pipefail',
      ...blocks.map((block, n) => `printf '\\n${MARK}${n}\\n'\n${block.code}`),
    ].join('\n');
    const run = await bash(script, workDir, {
      CDK_URL: proxy.url,
      CDK_ADMIN_PASSWORD: password,
      CDK_WEBHOOK_URL: receiver.url,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    // each block's output, found by what its code does
    const outputs = run.stdout.split(MARK).slice(1);
    const outputOf = (marker: string): string[] => {
      const n = blocks.findIndex((block) => block.code.includes(marker));
      expect(n, `a bash block with ${marker}`).toBeGreaterThanOrEqual(0);
      return (outputs[n] ?? '').split('\n').slice(1).filter(Boolean);
    };

    // 1. the token, shown once; the admin made it
    const made = JSON.parse(outputOf('/api/local/tokens"').join('\n')) as Record<string, unknown>;
    expect(made).toMatchObject({ name: 'McLeod TMS', role: 'analyst' });
    expect(made.prefix).toMatch(/^cdk_/);

    // 2. the verdicts at tender time: a pass and a review with its reasons
    const verdicts = outputOf('/api/local/verdict?dot_number=$dot').map(
      (line) => JSON.parse(line) as { dot_number: string; verdict: string; why: string[] },
    );
    expect(verdicts.map((v) => [v.dot_number, v.verdict])).toEqual([
      ['568253', 'pass'],
      ['2214589', 'review'],
    ]);
    expect(verdicts[0]?.why).toEqual([]);
    expect(verdicts[1]?.why.length).toBeGreaterThan(0);

    // 3. the decision's receipt checks out against the chain
    expect(JSON.parse(outputOf('/api/local/decisions/verify').join(''))).toEqual({
      ok: true,
      count: 1,
      receipts: [{ index: 0, type: 'decision-receipt', record_id: 1, ok: true }],
    });

    // 4. the bulk job, polled to its end
    expect(outputOf('/api/local/bulk-jobs/$JOB_ID')).toEqual([
      'done',
      '568253\tdone\tpass',
      '2214589\tdone\treview',
      '3187452\tdone\tfail',
    ]);

    // 5. the test delivery queued, and the page's receiver verified exactly that one
    const queued = JSON.parse(outputOf('/api/local/alerts/test').join('')) as {
      deliveries_queued: number;
      ids: string[];
    };
    expect(queued.deliveries_queued).toBe(1);
    const [verified] = await receiver.verified();
    expect(verified).toMatch(new RegExp(`^verified alert\\.test ${queued.ids[0]}: `));

    // 6. listed with its last use, revoked, and refused at once
    const [listed, revoked, status] = outputOf('/revoke"').map((line) =>
      line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : line,
    );
    expect(listed).toMatchObject({ name: 'McLeod TMS', role: 'analyst', revoked_at: null });
    expect((listed as Record<string, unknown>).last_used_at).toEqual(expect.any(String));
    expect(revoked).toMatchObject({ name: 'McLeod TMS', revoked_at: expect.any(String) });
    expect(status).toBe('401');

    // the record names the token as its user (read with a viewer token of its own)
    const viewer = await makeToken(proxy, password, 'viewer');
    const record = await fetch(`${proxy.url}/api/local/decisions/1`, {
      headers: { authorization: `Bearer ${viewer}` },
    }).then((response) => response.json() as Promise<{ user: { id: string }; note: string }>);
    expect(record.user.id).toBe(`token:${String(made.id)}:McLeod TMS`);
    expect(record.note).toBe('Load 88231, tendered from the TMS');
  });
});

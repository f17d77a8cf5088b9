/**
 * The typed client of docs/api.md's worked integration, run against a real proxy on the embedded
 * sandbox: each step of `tender-time.ts` through openapi-fetch with a token, the script itself as a
 * TMS would run it, and `schema.d.ts` regenerated from the proxy's document (it must not differ).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProxy } from '../../../server-proxy/src/helpers.test-support.ts';
import {
  adminPassword,
  makeToken,
  startDocReceiver,
  startIntegrationProxy,
  type Receiver,
} from '../../api-doc.test-support.ts';
import { SCHEMA_FILE, fetchDocument, schemaSource } from './generate.ts';
import {
  CarrierDeskError,
  carrierDesk,
  checkAtTender,
  recordDecision,
  subscribeWebhook,
  verifyReceipt,
  vetList,
  type CarrierDesk,
} from './tender-time.ts';

const SCRIPT = fileURLToPath(new URL('./tender-time.ts', import.meta.url));

describe('docs/examples/tms-client: the typed client against a proxy on the sandbox', () => {
  const secret = randomBytes(24).toString('hex');
  const password = adminPassword();
  let receiver: Receiver;
  let proxy: RunningProxy;
  let token: string;
  let desk: CarrierDesk;

  beforeAll(async () => {
    receiver = await startDocReceiver(secret);
    proxy = await startIntegrationProxy({ password, secret, receiverUrl: receiver.url });
    token = await makeToken(proxy, password, 'analyst');
    desk = carrierDesk(proxy.url, token);
  });

  afterAll(async () => {
    await proxy?.close();
    await receiver?.stop();
  });

  it("schema.d.ts is what openapi-typescript makes of the proxy's document now", async () => {
    const document = await fetchDocument(proxy.url, token);
    expect(
      readFileSync(SCHEMA_FILE, 'utf8'),
      'docs/examples/tms-client/schema.d.ts is stale: run `npx tsx docs/examples/tms-client/generate.ts`',
    ).toBe(await schemaSource(document));
  });

  it('types every answer of /api/local in the document (no open or empty answer schema)', async () => {
    type Json = Record<string, unknown>;
    const document = (await fetchDocument(proxy.url, token)) as Json & {
      paths: Record<string, Record<string, { responses?: Record<string, Json> }>>;
    };
    const resolve = (node: unknown): Json => {
      const ref = (node as Json | undefined)?.$ref;
      if (typeof ref !== 'string') return (node ?? {}) as Json;
      return resolve(
        ref
          .split('/')
          .slice(1)
          .reduce<unknown>((at, key) => (at as Json)[key], document),
      );
    };
    const untyped: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!path.startsWith('/api/local/')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, answer] of Object.entries(operation.responses ?? {})) {
          const content = (resolve(answer).content ?? {}) as Record<string, { schema?: unknown }>;
          const json = content['application/json'];
          if (!status.startsWith('2') || json === undefined) continue;
          const schema = resolve(json.schema);
          const described = ['properties', 'anyOf', 'oneOf', 'allOf', 'items', 'enum', 'const'];
          // a map ({[key]: T}) is typed too; `additionalProperties: true` alone is not
          const map = typeof schema.additionalProperties === 'object';
          if (schema.type === 'object' || Object.keys(schema).length === 0) {
            if (!map && !described.some((key) => key in schema))
              untyped.push(`${method} ${path} ${status}`);
          }
        }
      }
    }
    expect(untyped).toEqual([]);
  });

  it("the document names the verdict's query, one key or the other (a union of objects)", async () => {
    const document = (await fetchDocument(proxy.url, token)) as {
      paths: Record<string, { get: { parameters: { name: string; required: boolean }[] } }>;
    };
    const parameters = document.paths['/api/local/verdict']?.get.parameters;
    expect(parameters?.map(({ name, required }) => ({ name, required }))).toEqual([
      { name: 'dot_number', required: false },
      { name: 'docket_number', required: false },
    ]);
  });

  it('checks a carrier, records the decision and verifies its receipt', async () => {
    const verdict = await checkAtTender(desk, '568253');
    expect(verdict).toMatchObject({ dot_number: '568253', verdict: 'pass' });
    expect(verdict.legal_name).toBe('HANSEN & ADKINS AUTO TRANSPORT INC');
    const review = await checkAtTender(desk, '2214589');
    expect(review.verdict).toBe('review');
    expect(review.reasons.filter((reason) => reason.outcome === 'review')).not.toEqual([]);

    const record = await recordDecision(desk, '568253', 'load 4471');
    expect(record).toMatchObject({ dot_number: '568253', decision: 'approved', note: 'load 4471' });
    expect(record.user.id).toBe('token:1:TMS analyst');
    const check = await verifyReceipt(desk, record.id);
    expect(check.ok).toBe(true);
    expect(check.receipts).toEqual([
      { index: 0, type: 'decision-receipt', record_id: record.id, ok: true },
    ]);
  });

  it("a refusal throws the proxy's {error, code, hint}", async () => {
    const viewer = carrierDesk(proxy.url, await makeToken(proxy, password, 'viewer'));
    const refused = await recordDecision(viewer, '568253', 'x').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(CarrierDeskError);
    expect(refused).toMatchObject({ status: 403, body: { code: 'forbidden_role' } });
    const revoked = carrierDesk(proxy.url, 'cdk_not-a-token');
    await expect(checkAtTender(revoked, '568253')).rejects.toMatchObject({
      status: 401,
      body: { code: 'invalid_token' },
    });
  });

  it('vets a list as a bulk job and polls it to the end', async () => {
    const job = await vetList(desk, ['568253', '2214589', '3187452'], { pollMs: 200 });
    expect(job.status).toBe('done');
    expect(job.items.map((item) => [item.identifier, item.status, item.verdict])).toEqual([
      ['568253', 'done', 'pass'],
      ['2214589', 'done', 'review'],
      ['3187452', 'done', 'fail'],
    ]);
    expect(job.created_by).toBe('token:1:TMS analyst');
  });

  it("subscribes a webhook whose signed test delivery the page's receiver verifies", async () => {
    await subscribeWebhook(desk, receiver.url);
    const [line] = await receiver.verified();
    expect(line).toMatch(/^verified alert\.test [0-9a-f-]{36}: /);
  });

  it('runs as a script: CDK_URL=… CDK_TOKEN=… tender-time.ts <dot>', async () => {
    const { NODE_OPTIONS: _options, ...env } = process.env;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', SCRIPT, '568253'],
        { env: { ...env, CDK_URL: proxy.url, CDK_TOKEN: token }, timeout: 60_000 },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      ),
    );
    expect(stdout).toMatch(
      /^568253 HANSEN & ADKINS AUTO TRANSPORT INC: pass\nrecorded decision \d+; receipt verified\n$/,
    );
  });
});

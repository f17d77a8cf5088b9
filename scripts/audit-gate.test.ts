import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { judgeAudit, runAudit, SKIPPED_EXIT_CODE } from './audit-gate.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A registry of our own on loopback: the bulk-advisory endpoint answers as `bulk` says. */
async function fakeRegistry(bulk: Handler): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url?.includes('/security/advisories/bulk')) return bulk(request, response);
      response.statusCode = 404;
      response.end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, server };
}

function advisories(severity: string): Handler {
  return (_request, response) => {
    response.setHeader('content-type', 'application/json');
    // npm caches what it computed per advisory id: a fresh id per run keeps the runs apart
    const id = 900_000_000 + Math.floor(Math.random() * 99_999_999);
    const advisory = {
      id,
      url: `https://example.invalid/advisory/${id}`,
      title: `a ${severity} problem in zod`,
      severity,
      vulnerable_versions: '<999.0.0',
      cwe: [],
      cvss: { score: 5, vectorString: null },
    };
    response.end(JSON.stringify({ zod: [advisory] }));
  };
}

const servers: Server[] = [];

/** `tsx scripts/audit-gate.ts` in a child process (async: the fake registry runs in this one). */
async function runGate(env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string }> {
  const child = spawn('node_modules/.bin/tsx', ['scripts/audit-gate.ts'], { env });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const [status] = (await once(child, 'exit')) as [number | null];
  return { status, stdout };
}

async function auditAgainst(bulk: Handler, timeoutMs?: number) {
  const { url, server } = await fakeRegistry(bulk);
  servers.push(server);
  return judgeAudit(await runAudit(url, timeoutMs));
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe('the npm audit gate against a registry of our own', () => {
  it('passes when the registry knows no advisory', async () => {
    const verdict = await auditAgainst((_request, response) => response.end('{}'));
    expect(verdict).toEqual({ outcome: 'pass', message: expect.stringContaining('no high') });
  });

  it('fails on a high finding in a production dependency and names it', async () => {
    const verdict = await auditAgainst(advisories('high'));
    expect(verdict.outcome).toBe('fail');
    expect(verdict.message).toContain('zod (high)');
  });

  it('passes a moderate finding (below --audit-level=high) and counts it', async () => {
    const verdict = await auditAgainst(advisories('moderate'));
    expect(verdict).toEqual({ outcome: 'pass', message: expect.stringContaining('1 lower') });
  });

  it('skips when the audit endpoint answers with an HTTP error', async () => {
    const verdict = await auditAgainst((_request, response) => {
      response.statusCode = 405;
      response.end();
    });
    expect(verdict.outcome).toBe('skip');
    expect(verdict.message).toContain('HTTP 405');
  });

  it('skips when nothing listens at the registry address', async () => {
    const { url, server } = await fakeRegistry(() => undefined);
    server.close();
    await once(server, 'close');
    const verdict = judgeAudit(await runAudit(url));
    expect(verdict.outcome).toBe('skip');
    expect(verdict.message).toContain('ECONNREFUSED');
  });

  it('skips when the registry never answers, within its time bound', async () => {
    const started = Date.now();
    const verdict = await auditAgainst(() => undefined, 3_000);
    expect(verdict.outcome).toBe('skip');
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('judging a report', () => {
  it('fails a local problem such as a missing lockfile instead of skipping it', () => {
    const stdout = JSON.stringify({ error: { code: 'ENOLOCK', summary: 'needs a lockfile' } });
    expect(judgeAudit({ status: 1, stdout, timedOut: false }).outcome).toBe('fail');
  });

  it('fails output it cannot read', () => {
    expect(judgeAudit({ status: 1, stdout: 'npm ERR! oops', timedOut: false }).outcome).toBe(
      'fail',
    );
  });

  it('fails a clean report whose exit status says otherwise', () => {
    const stdout = JSON.stringify({ vulnerabilities: {}, metadata: { vulnerabilities: {} } });
    expect(judgeAudit({ status: 1, stdout, timedOut: false }).outcome).toBe('fail');
    expect(judgeAudit({ status: 0, stdout, timedOut: false }).outcome).toBe('pass');
  });
});

describe('the gate as npm test runs it', () => {
  it('exits with the skipped code, and says why, when the registry refuses audits', async () => {
    const { url, server } = await fakeRegistry((_request, response) => {
      response.statusCode = 405;
      response.end();
    });
    servers.push(server);
    const run = await runGate({ ...process.env, npm_config_registry: url });
    expect(run.status).toBe(SKIPPED_EXIT_CODE);
    expect(run.stdout).toMatch(
      /skipped: the registry did not answer the audit request \(HTTP 405\)/,
    );
  });
});

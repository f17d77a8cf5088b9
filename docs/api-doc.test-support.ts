/**
 * What the tests of docs/api.md's worked integration share: the page's fenced code blocks, the
 * page's own webhook receiver run as a real process on loopback, and a proxy on the embedded
 * sandbox that signs webhooks and lets them reach that receiver.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CSRF,
  embeddedSandboxConfig,
  startProxy,
  type RunningProxy,
} from '../server-proxy/src/helpers.test-support.ts';

const API_DOC = fileURLToPath(new URL('./api.md', import.meta.url));

export interface CodeBlock {
  /** the info string's first word: bash, js, ts, sh… */
  lang: string;
  code: string;
}

/** Every fenced code block of a Markdown text, in order. */
function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const fence = /^```(\S*)[^\n]*\n([\s\S]*?)^```\s*$/gm;
  for (const match of markdown.matchAll(fence)) {
    blocks.push({ lang: match[1] ?? '', code: match[2] ?? '' });
  }
  return blocks;
}

export function apiDocBlocks(): CodeBlock[] {
  return codeBlocks(readFileSync(API_DOC, 'utf8'));
}

export interface Receiver {
  url: string;
  /** what the receiver printed, line by line */
  lines: string[];
  /** the lines that start with `verified`, waited for until `count` came (10 s at most) */
  verified(count?: number): Promise<string[]>;
  stop(): Promise<void>;
}

const RECEIVER_MARK = '// webhook-receiver.mjs';

/** The page's webhook receiver (its `js` block), run by Node on 127.0.0.1 and a free port. */
export async function startDocReceiver(secret: string, markdown?: string): Promise<Receiver> {
  const blocks = markdown === undefined ? apiDocBlocks() : codeBlocks(markdown);
  const block = blocks.find((b) => b.lang === 'js' && b.code.startsWith(RECEIVER_MARK));
  if (!block) throw new Error(`docs/api.md has no js block starting "${RECEIVER_MARK}"`);
  const dir = mkdtempSync(join(tmpdir(), 'cdk-receiver-'));
  const file = join(dir, 'webhook-receiver.mjs');
  writeFileSync(file, block.code);
  const { NODE_OPTIONS: _options, ...env } = process.env;
  const child = spawn(process.execPath, [file], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, CDK_WEBHOOK_SECRET: secret, PORT: '0' },
  });
  const lines: string[] = [];
  let errors = '';
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const until = async <T>(found: () => T | undefined, what: string): Promise<T> => {
    for (let waited = 0; waited < 10_000; waited += 50) {
      const value = found();
      if (value !== undefined) return value;
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`receiver: ${what}; printed ${JSON.stringify(lines)}; stderr ${errors}`);
  };
  try {
    const url = await until(
      () => /listening on (http:\/\/\S+)/.exec(lines.join('\n'))?.[1],
      'never listened',
    );
    return {
      url,
      lines,
      stop,
      verified: (count = 1) =>
        until(() => {
          const got = lines.filter((line) => line.startsWith('verified'));
          return got.length >= count ? got : undefined;
        }, `fewer than ${count} verified deliveries`),
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A password the password policy takes, new for each run. */
export const adminPassword = () => `doc-${randomBytes(12).toString('hex')}`;

/**
 * A proxy on the embedded sandbox as docs/api.md's integration expects it: password sign-in with
 * the one account `admin`, webhooks signed with `secret` and allowed to reach `receiverUrl`.
 */
export function startIntegrationProxy(options: {
  password: string;
  secret: string;
  receiverUrl: string;
}): Promise<RunningProxy> {
  return startProxy(
    embeddedSandboxConfig({
      auth: { kind: 'password', password: options.password },
      alerts: {
        pollIntervalSeconds: 0,
        emailTo: [],
        webhookSecret: options.secret,
        webhookHosts: [new URL(options.receiverUrl).host],
      },
    }),
  );
}

/** Sign in as `admin` and make a token of `role` (what an admin does on Settings → API tokens). */
export async function makeToken(
  proxy: RunningProxy,
  password: string,
  role: 'viewer' | 'analyst',
): Promise<string> {
  const session = await proxy.call('/api/local/session', {
    method: 'POST',
    headers: CSRF,
    body: { username: 'admin', password },
  });
  if (session.status !== 200) throw new Error(`sign-in: ${session.status} ${session.text}`);
  const cookie = (session.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const made = await proxy.call('/api/local/tokens', {
    method: 'POST',
    headers: { ...CSRF, cookie },
    body: { name: `TMS ${role}`, role, expires_in_days: 30 },
  });
  if (made.status !== 201) throw new Error(`token: ${made.status} ${made.text}`);
  return (made.json as { token: string }).token;
}

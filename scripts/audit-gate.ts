/**
 * The `npm audit` gate of `npm test`: production dependencies, high and critical findings only.
 *
 *   tsx scripts/audit-gate.ts   # exit 0 clean, 1 a finding (or a broken audit), 77 skipped
 *
 * The audit needs the registry's bulk-advisory endpoint. When that endpoint does not answer (offline,
 * DNS failure, refused connection, timeout, or an HTTP error such as the 405 a mirror without audit
 * support sends), the gate is skipped with the reason, exit code 77 (the automake "skipped"
 * convention). The two cases are told apart by npm's JSON report: an answered audit carries
 * `vulnerabilities` and `metadata.vulnerabilities` (counts per severity); a failed request carries an
 * `error` object instead. A local problem (no lockfile: `ENOLOCK`) and anything unrecognised fail.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';

export const SKIPPED_EXIT_CODE = 77;
const TIMEOUT_MS = 90_000;
const BLOCKING = ['high', 'critical'] as const;
/** npm error codes that are about this checkout, not about the registry. */
const LOCAL_ERRORS = new Set(['ENOLOCK', 'EJSONPARSE', 'ENOENT']);

interface AuditRun {
  /** npm's exit status; null when it was killed */
  status: number | null;
  stdout: string;
  timedOut: boolean;
}

interface AuditVerdict {
  outcome: 'pass' | 'fail' | 'skip';
  message: string;
}

interface Counts {
  info?: number;
  low?: number;
  moderate?: number;
  high?: number;
  critical?: number;
}

interface Report {
  vulnerabilities?: Record<string, { name?: string; severity?: string }>;
  metadata?: { vulnerabilities?: Counts };
  error?: { code?: string; summary?: string };
  message?: string;
  statusCode?: number;
}

function parse(stdout: string): Report | undefined {
  try {
    const value: unknown = JSON.parse(stdout);
    return typeof value === 'object' && value !== null ? (value as Report) : undefined;
  } catch {
    return undefined;
  }
}

function judgeAnswered(run: AuditRun, report: Report, counts: Counts): AuditVerdict {
  const findings = Object.entries(report.vulnerabilities ?? {})
    .filter(([, entry]) => (BLOCKING as readonly string[]).includes(entry.severity ?? ''))
    .map(([name, entry]) => `${name} (${entry.severity})`);
  const blocking = (counts.high ?? 0) + (counts.critical ?? 0);
  if (blocking > 0 || findings.length > 0) {
    return {
      outcome: 'fail',
      message: `${blocking} high/critical finding(s) in production dependencies: ${findings.join(', ')}`,
    };
  }
  if (run.status !== 0) {
    return { outcome: 'fail', message: `npm audit exited ${run.status} with no high finding` };
  }
  const lower = (counts.info ?? 0) + (counts.low ?? 0) + (counts.moderate ?? 0);
  return { outcome: 'pass', message: `no high/critical finding (${lower} lower-severity)` };
}

function judgeError(report: Report): AuditVerdict {
  const code = report.error?.code;
  const reason = report.message || report.error?.summary || code || 'no reason given';
  if (code !== undefined && LOCAL_ERRORS.has(code)) {
    return { outcome: 'fail', message: `npm audit could not run: ${code} ${reason}` };
  }
  const status = report.statusCode === undefined ? '' : ` (HTTP ${report.statusCode})`;
  return {
    outcome: 'skip',
    message: `skipped: the registry did not answer the audit request${status}: ${reason}`,
  };
}

/** What one `npm audit --json` run means for the gate. */
export function judgeAudit(run: AuditRun): AuditVerdict {
  if (run.timedOut) {
    return { outcome: 'skip', message: 'skipped: the registry did not answer the audit in time' };
  }
  const report = parse(run.stdout);
  const counts = report?.metadata?.vulnerabilities;
  if (report && counts && report.vulnerabilities) return judgeAnswered(run, report, counts);
  if (report?.error) return judgeError(report);
  return {
    outcome: 'fail',
    message: `npm audit printed no report it could read (exit ${run.status}): ${run.stdout.slice(0, 200)}`,
  };
}

/** Runs the audit against the configured registry (or `registry`), killed after `timeoutMs`. */
export async function runAudit(registry?: string, timeoutMs = TIMEOUT_MS): Promise<AuditRun> {
  const args = ['audit', '--omit=dev', '--audit-level=high', '--json'];
  args.push('--fetch-retries=1', '--fetch-timeout=30000');
  if (registry) args.push(`--registry=${registry}`);
  const child = spawn('npm', args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
  }, timeoutMs);
  const [status] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { status, stdout, timedOut };
}

async function main(): Promise<void> {
  const verdict = judgeAudit(await runAudit());
  console.log(`npm audit --omit=dev --audit-level=high: ${verdict.message}`);
  const codes = { pass: 0, fail: 1, skip: SKIPPED_EXIT_CODE };
  process.exitCode = codes[verdict.outcome];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();

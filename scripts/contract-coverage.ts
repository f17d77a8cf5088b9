/**
 * "contract: every route's responses validated" (scripts/test-all.mjs runs it after the unit
 * suite): reads what the contract check recorded during the run (CARRIER_DESK_CONTRACT_COVERAGE,
 * one JSON line per checked route and status: server-proxy/src/http/contract-route.ts) and fails
 * when a mismatch was recorded, or when a route under /api/local or /api (ROUTE_ROLES) had no
 * successful answer checked: it has no contract yet, or no test made it answer 2xx/3xx. The
 * mirrored /api/v2 routes answer what the service answers and are not ours to check.
 * Usage: tsx scripts/contract-coverage.ts <coverage dir>. docs/api.md, "Contracts".
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { routeKey } from '../src/lib/api/route-contract.ts';
import { API_CONTRACTS } from '../src/lib/api/routes.ts';
import { ROUTE_ROLES } from '../server-proxy/src/governance/roles.ts';

interface Line {
  route: string;
  status: number;
  mismatch?: string;
}

/** The checked (route, status) lines of every process of the run. */
export function readCoverage(dir: string): Line[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.jsonl'))
    .flatMap((file) => readFileSync(join(dir, file), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
}

export interface CoverageReport {
  routes: number;
  /** route → why it is not covered */
  uncovered: Map<string, string>;
  mismatches: string[];
}

/** Which of `routes` had a successful answer checked, and the mismatches seen. */
export function coverageOf(
  lines: readonly Line[],
  routes: readonly string[],
  contracts: ReadonlySet<string>,
): CoverageReport {
  const statuses = new Map<string, Set<number>>();
  const mismatches = new Set<string>();
  for (const line of lines) {
    if (line.mismatch) mismatches.add(`${line.route} ${line.status}: ${line.mismatch}`);
    else statuses.set(line.route, (statuses.get(line.route) ?? new Set()).add(line.status));
  }
  const uncovered = new Map<string, string>();
  for (const route of routes) {
    const seen = [...(statuses.get(route) ?? [])].sort();
    if (!contracts.has(route)) uncovered.set(route, 'no contract');
    else if (!seen.some((status) => status < 400)) {
      uncovered.set(
        route,
        seen.length === 0
          ? 'no answer checked'
          : `only errors checked (${seen.join(', ')}): no test made it succeed`,
      );
    }
  }
  return { routes: routes.length, uncovered, mismatches: [...mismatches] };
}

function main(): void {
  const dir = process.argv[2] ?? process.env.CARRIER_DESK_CONTRACT_COVERAGE;
  if (!dir) throw new Error('usage: tsx scripts/contract-coverage.ts <coverage dir>');
  const routes = Object.keys(ROUTE_ROLES).filter((key) => !key.includes(' /api/v2/'));
  const report = coverageOf(readCoverage(dir), routes, new Set(API_CONTRACTS.map(routeKey)));
  const covered = report.routes - report.uncovered.size;
  console.log(`contract: every route's responses validated: ${covered} of ${report.routes} routes`);
  for (const [route, why] of report.uncovered) console.log(`  not covered: ${route}: ${why}`);
  for (const mismatch of report.mismatches) console.log(`  mismatch: ${mismatch}`);
  process.exitCode = report.uncovered.size === 0 && report.mismatches.length === 0 ? 0 : 1;
}

if (process.argv[1]?.endsWith('contract-coverage.ts')) main();

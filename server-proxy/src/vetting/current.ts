/**
 * `GET /api/local/decisions/current` (docs/vetting.md, "Standing"): the current decision (newest
 * record) of each carrier asked (`?dot_numbers=`, at most 500), or of every carrier with a decision
 * (`?all=1`, a page at a time, newest first; `&needs_revet=1` keeps those a saved policy flagged),
 * each with the verdict of its freshest held data under the current policy (`now`, never a billed
 * call), its standing, whether a saved policy flagged it (`needs_revet`), whether it overrides the
 * verdict it was recorded on and whether its re-vet date is due.
 */
import type { FastifyInstance } from 'fastify';
import { CURRENT_DOTS, currentDecisionsRoute } from '../../../src/lib/vetting/contract.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { InputWording } from '../http/parse-input.ts';
import { unlessUnavailable } from './refuse.ts';
import { placeholders } from '../sql/placeholders.ts';
import type { SqlEngine } from '../sql/engine.ts';
import type { Policy } from '../../../src/lib/vetting/index.ts';
import type { Standing } from '../../../src/lib/vetting/standing.ts';
import {
  heldVerdict,
  standingFor,
  type CurrentRecord,
  type Held,
  type HeldVerdict,
} from './held.ts';
import { recordAnswer, revetDueOf, type RevetDue, type VettingSqlStore } from './store.ts';

/** Most DOTs one query of the flags reads (the route asks at most 500 anyway). */
const MAX_CURRENT_DOTS = 500;
const DEFAULT_PAGE_SIZE = 100;

export interface CurrentDeps {
  sql: SqlEngine;
  store: VettingSqlStore;
  held: Held;
  now: () => Date;
}

type CurrentItem = ReturnType<typeof recordAnswer<CurrentRecord>> & {
  now: HeldVerdict | null;
  standing: Standing;
  needs_revet: boolean;
  override: boolean;
  revet_due: RevetDue | null;
};

/** Which of these decision records a saved policy flagged (a row names the record itself). */
async function flagged(sql: SqlEngine, ids: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += MAX_CURRENT_DOTS) {
    const slice = ids.slice(i, i + MAX_CURRENT_DOTS);
    const rows = await sql.query<{ decision_id: number | string }>(
      `SELECT DISTINCT decision_id FROM vetting_standing_change
        WHERE decision_id IN (${placeholders(slice.length)})`,
      slice,
    );
    for (const row of rows) found.add(Number(row.decision_id));
  }
  return found;
}

/** The current decisions with their standing under `policy`, in the order given. */
async function withStanding(
  deps: CurrentDeps,
  records: readonly CurrentRecord[],
  policy: Policy,
): Promise<CurrentItem[]> {
  const now = deps.now();
  const held = await deps.held.gather(records);
  const flags = await flagged(
    deps.sql,
    records.map((record) => record.id),
  );
  return records.map((record) => {
    const verdict = heldVerdict(record, policy, held, now);
    return {
      ...recordAnswer(record),
      now: verdict,
      standing: standingFor(record, verdict),
      needs_revet: flags.has(record.id),
      override: typeof record.override_reason === 'string' && record.override_reason !== '',
      revet_due: revetDueOf(record.expires_on, now),
    };
  });
}

const CURRENT_WORDING: InputWording = {
  hint: 'GET /api/local/decisions/current?dot_numbers=568253,2214589, or ?all=1&page=1',
  rootCode: 'invalid_dot_numbers',
  codes: {
    dot_numbers: 'invalid_dot_numbers',
    all: 'invalid_query',
    page: 'invalid_query',
    page_size: 'invalid_query',
    needs_revet: 'invalid_query',
  },
  unknown: { code: 'invalid_dot_numbers', message: () => CURRENT_DOTS },
};

/** The DOTs of one page of every carrier with a decision (newest decision first), and the total. */
async function pageOfDots(
  sql: SqlEngine,
  page: number,
  pageSize: number,
  needsRevet: boolean,
): Promise<{ dots: string[]; total: number }> {
  // a carrier is flagged when a standing change names its current (newest) record
  const from = needsRevet
    ? `FROM vetting_decision d WHERE d.id IN (SELECT MAX(id) FROM vetting_decision GROUP BY dot_number)
         AND EXISTS (SELECT 1 FROM vetting_standing_change c WHERE c.decision_id = d.id)`
    : `FROM vetting_decision d WHERE d.id IN (SELECT MAX(id) FROM vetting_decision GROUP BY dot_number)`;
  const [count] = await sql.query<{ n: number | string }>(`SELECT COUNT(*) AS n ${from}`);
  const rows = await sql.query<{ dot_number: string }>(
    `SELECT d.dot_number ${from} ORDER BY d.id DESC LIMIT ? OFFSET ?`,
    [pageSize, (page - 1) * pageSize],
  );
  return { dots: rows.map((row) => row.dot_number), total: Number(count?.n ?? 0) };
}

export function registerCurrentRoute(app: FastifyInstance, deps: CurrentDeps): void {
  const wording = { query: CURRENT_WORDING };
  contractRoute(app, currentDecisionsRoute, { wording }, async (request, reply) =>
    unlessUnavailable(request, reply, async () => {
      const policy = await deps.store.currentPolicy();
      const asked = request.query;
      if (asked.dot_numbers !== undefined) {
        const records = await deps.store.currentDecisions(asked.dot_numbers);
        return { items: await withStanding(deps, records, policy) };
      }
      const page = asked.page ?? 1;
      const pageSize = asked.page_size ?? DEFAULT_PAGE_SIZE;
      const { dots, total } = await pageOfDots(deps.sql, page, pageSize, asked.needs_revet === '1');
      const records = await deps.store.currentDecisions(dots);
      return {
        items: await withStanding(deps, records, policy),
        total,
        page,
        page_size: pageSize,
      };
    }),
  );
}

/**
 * `GET /api/local/decisions/current` (docs/vetting.md, "Standing"): the current decision (newest
 * record) of each carrier asked (`?dot_numbers=`, at most 500), or of every carrier with a decision
 * (`?all=1`, a page at a time, newest first; `&needs_revet=1` keeps those a saved policy flagged),
 * each with the verdict of its freshest held data under the current policy (`now`, never a billed
 * call), its standing, whether a saved policy flagged it (`needs_revet`), whether it overrides the
 * verdict it was recorded on and whether its re-vet date is due.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sendApiError } from '../http/api-error.ts';
import { parseInput, type InputWording } from '../http/parse-input.ts';
import { unlessStorageUnavailable } from '../http/storage-unavailable.ts';
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
import { revetDueOf, type RevetDue, type VettingSqlStore } from './store.ts';

const MAX_CURRENT_DOTS = 500;
const MAX_PAGE_SIZE = 500;
const DEFAULT_PAGE_SIZE = 100;

export interface CurrentDeps {
  sql: SqlEngine;
  store: VettingSqlStore;
  held: Held;
  now: () => Date;
}

type CurrentItem = CurrentRecord & {
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
      ...record,
      now: verdict,
      standing: standingFor(record, verdict),
      needs_revet: flags.has(record.id),
      override: typeof record.override_reason === 'string' && record.override_reason !== '',
      revet_due: revetDueOf(record.expires_on, now),
    };
  });
}

const CURRENT_DOTS = `"dot_numbers" must be 1 to ${MAX_CURRENT_DOTS} comma-separated USDOT numbers`;
const ALL = `"all" must be 1, with "page" (1 or more), "page_size" (1 to ${MAX_PAGE_SIZE}) and "needs_revet" (1) optional`;

const dotNumbers = z
  .string({ error: CURRENT_DOTS })
  .transform((raw) => raw.split(',').map((dot) => dot.trim()))
  .refine((dots) => dots.length <= MAX_CURRENT_DOTS && dots.every((dot) => /^\d{1,8}$/.test(dot)), {
    error: CURRENT_DOTS,
  })
  .transform((dots) => dots.map((dot) => dot.replace(/^0+(?=\d)/, '')));

const positive = (max: number) =>
  z
    .string({ error: ALL })
    .regex(/^\d{1,6}$/, { error: ALL })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { error: ALL });

/** Either `dot_numbers`, or `all=1` with paging; other parameters are ignored. */
const currentSchema = z
  .object({
    dot_numbers: dotNumbers.optional(),
    all: z.literal('1', { error: ALL }).optional(),
    page: positive(1_000_000).optional(),
    page_size: positive(MAX_PAGE_SIZE).optional(),
    needs_revet: z.literal('1', { error: ALL }).optional(),
  })
  .refine((query) => (query.dot_numbers === undefined) !== (query.all === undefined), {
    error: `${CURRENT_DOTS}, or "all=1" (not both)`,
  });

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
  app.get('/api/local/decisions/current', async (request: FastifyRequest, reply: FastifyReply) => {
    const query = parseInput(currentSchema, request.query ?? {}, CURRENT_WORDING);
    if (!query.ok) return sendApiError(reply, query.error);
    return unlessStorageUnavailable(request, reply, 'vetting', async () => {
      const policy = await deps.store.currentPolicy();
      const asked = query.value;
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
    });
  });
}

/**
 * Stored tender checks (table `tender_check`, docs/tender-check.md): each check as answered, with
 * who, when, the inputs, the cost and the data's snapshot date; listed by carrier a page at a time.
 * Phone, e-mail and contact name identify people: `redactOlderThan` blanks them, and scrubs them
 * from the stored answer, once a check is older than the retention setting. One store for SQLite
 * and PostgreSQL (the SqlEngine subset both share).
 */
import type { SqlEngine, SqlExecutor } from '../sql/engine.ts';
import { placeholders } from '../sql/placeholders.ts';
import { formatPhone } from '../../../src/lib/tender/rules.ts';
import type {
  TenderAnswer,
  TenderCheckAnswer,
  TenderCheckListItem,
} from '../../../src/lib/tender/contract.ts';
import type { PastSearch } from './gather.ts';

/** What the route stores of one check (the id is the store's). */
export type NewTenderCheck = Omit<TenderCheckAnswer, 'id'> & { searches_run: PastSearch[] };

interface Row {
  id: number | string;
  checked_at: string;
  user: string;
  user_name: string;
  dot_number: string | null;
  legal_name: string | null;
  answer: string;
  phone: string | null;
  email: string | null;
  contact_name: string | null;
  input: string;
  result: string;
  cost_mills: number | string;
  pending_count: number | string;
  snapshot_date: string | null;
  redacted_at: string | null;
}

/** The answer's parts kept in `result` (everything but the columns of their own). */
type StoredResult = Pick<
  TenderCheckAnswer,
  'reasons' | 'identity' | 'load_fit' | 'verdict' | 'pending' | 'carrier'
>;

type StoredInput = Pick<
  TenderCheckAnswer['input'],
  'dot_number' | 'docket_number' | 'load' | 'max_cost_usd'
>;

interface TenderListFilter {
  dot?: string | undefined;
  page: number;
  pageSize: number;
}

export interface TenderCheckStore {
  insert(check: NewTenderCheck): Promise<TenderCheckAnswer>;
  get(id: number): Promise<TenderCheckAnswer | undefined>;
  list(filter: TenderListFilter): Promise<{ items: TenderCheckListItem[]; total: number }>;
  /** Searches stored checks ran in `month` (`YYYY-MM`), newest first (the free-repeat rule). */
  searchesIn(month: string): Promise<PastSearch[]>;
  /** Blank phone, e-mail and contact name of checks made before `cutoff`; how many. */
  redactOlderThan(cutoff: Date, now: Date): Promise<number>;
  /** Decision records each check is attached to. */
  decisionsOf(ids: readonly number[]): Promise<Map<number, number[]>>;
}

const COLUMNS = `id, checked_at, "user", user_name, dot_number, legal_name, answer, phone, email,
  contact_name, input, result, cost_mills, pending_count, snapshot_date, redacted_at`;

/** How many stored checks of a month the free-repeat rule reads at most. */
const MONTH_SEARCH_ROWS = 1000;

function toAnswer(row: Row): TenderCheckAnswer {
  const result = JSON.parse(row.result) as StoredResult;
  const input = JSON.parse(row.input) as StoredInput;
  return {
    id: Number(row.id),
    answer: row.answer as TenderAnswer,
    ...result,
    cost_usd: Number(row.cost_mills) / 1000,
    snapshot_date: row.snapshot_date,
    checked_at: row.checked_at,
    user: { id: row.user, name: row.user_name },
    input: {
      ...input,
      phone: row.phone,
      email: row.email,
      contact_name: row.contact_name,
      redacted: row.redacted_at !== null,
    },
  };
}

/** Every way a value appears in stored JSON text: as sent, and a phone as the rules format it. */
function appearances(row: Pick<Row, 'phone' | 'email' | 'contact_name'>): string[] {
  const out: string[] = [];
  const inJson = (text: string) => JSON.stringify(text).slice(1, -1);
  if (row.phone) out.push(inJson(formatPhone(row.phone)), row.phone);
  if (row.email) out.push(inJson(row.email));
  if (row.contact_name && row.contact_name.length >= 2) out.push(inJson(row.contact_name));
  return out.filter((text) => text !== '');
}

function scrub(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) out = out.split(value).join('[removed]');
  return out;
}

async function redactRow(tx: SqlExecutor, row: Row & { searches: string }, at: string) {
  const values = appearances(row);
  await tx.run(
    `UPDATE tender_check SET phone = NULL, email = NULL, contact_name = NULL, result = ?,
       searches = ?, redacted_at = ? WHERE id = ?`,
    [scrub(row.result, values), scrub(row.searches, values), at, Number(row.id)],
  );
}

export function createTenderCheckStore(sql: SqlEngine): TenderCheckStore {
  return {
    async insert(check) {
      const result: StoredResult = {
        reasons: check.reasons,
        identity: check.identity,
        load_fit: check.load_fit,
        verdict: check.verdict,
        pending: check.pending,
        carrier: check.carrier,
      };
      const input: StoredInput = {
        dot_number: check.input.dot_number,
        docket_number: check.input.docket_number,
        load: check.input.load,
        max_cost_usd: check.input.max_cost_usd,
      };
      const [inserted] = await sql.query<{ id: number | string }>(
        `INSERT INTO tender_check (checked_at, "user", user_name, dot_number, legal_name, answer,
           phone, email, contact_name, input, result, searches, cost_mills, pending_count,
           snapshot_date)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        [
          check.checked_at,
          check.user.id,
          check.user.name,
          check.carrier?.dot_number ?? check.input.dot_number,
          check.carrier?.legal_name ?? null,
          check.answer,
          check.input.phone,
          check.input.email,
          check.input.contact_name,
          JSON.stringify(input),
          JSON.stringify(result),
          JSON.stringify(check.searches_run),
          Math.round(check.cost_usd * 1000),
          check.pending.length,
          check.snapshot_date,
        ],
      );
      const { searches_run: _, ...answer } = check;
      return { ...answer, id: Number(inserted?.id) };
    },

    async get(id) {
      const [row] = await sql.query<Row>(`SELECT ${COLUMNS} FROM tender_check WHERE id = ?`, [id]);
      return row ? toAnswer(row) : undefined;
    },

    async list({ dot, page, pageSize }) {
      const where = dot === undefined ? '' : 'WHERE dot_number = ?';
      const params = dot === undefined ? [] : [dot];
      const [count] = await sql.query<{ n: number | string }>(
        `SELECT COUNT(*) AS n FROM tender_check ${where}`,
        params,
      );
      const rows = await sql.query<Row>(
        `SELECT ${COLUMNS} FROM tender_check ${where} ORDER BY id DESC LIMIT ? OFFSET ?`,
        [...params, pageSize, (page - 1) * pageSize],
      );
      const decisions = await this.decisionsOf(rows.map((row) => Number(row.id)));
      const items = rows.map((row): TenderCheckListItem => {
        const id = Number(row.id);
        return {
          id,
          checked_at: row.checked_at,
          user: { id: row.user, name: row.user_name },
          dot_number: row.dot_number,
          legal_name: row.legal_name,
          answer: row.answer as TenderAnswer,
          phone: row.phone,
          email: row.email,
          cost_usd: Number(row.cost_mills) / 1000,
          snapshot_date: row.snapshot_date,
          pending: Number(row.pending_count),
          decision_ids: decisions.get(id) ?? [],
        };
      });
      return { items, total: Number(count?.n ?? 0) };
    },

    async searchesIn(month) {
      const rows = await sql.query<{ searches: string }>(
        `SELECT searches FROM tender_check WHERE checked_at >= ? ORDER BY id DESC LIMIT ?`,
        [`${month}-01`, MONTH_SEARCH_ROWS],
      );
      return rows.flatMap((row) => {
        try {
          return JSON.parse(row.searches) as PastSearch[];
        } catch {
          return [];
        }
      });
    },

    async redactOlderThan(cutoff, now) {
      const rows = await sql.query<Row & { searches: string }>(
        `SELECT ${COLUMNS}, searches FROM tender_check
          WHERE checked_at < ? AND redacted_at IS NULL ORDER BY id LIMIT 500`,
        [cutoff.toISOString()],
      );
      if (rows.length === 0) return 0;
      const at = now.toISOString();
      await sql.transaction(async (tx) => {
        for (const row of rows) await redactRow(tx, row, at);
      });
      return rows.length;
    },

    async decisionsOf(ids) {
      const found = new Map<number, number[]>();
      if (ids.length === 0) return found;
      const rows = await sql.query<{ id: number | string; tender_check_id: number | string }>(
        `SELECT id, tender_check_id FROM vetting_decision
          WHERE tender_check_id IN (${placeholders(ids.length)}) ORDER BY id`,
        ids,
      );
      for (const row of rows) {
        const key = Number(row.tender_check_id);
        found.set(key, [...(found.get(key) ?? []), Number(row.id)]);
      }
      return found;
    },
  };
}

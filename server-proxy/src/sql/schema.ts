/**
 * The proxy's tables, each defined once for both engines (ddl.ts generates SQLite's and
 * PostgreSQL's DDL from it), and the one list of changes that brings an existing database of
 * either engine up to this definition (applied by ../db.ts on SQLite, ./migrate.ts on PostgreSQL).
 * See docs/storage.md, "Adding a table".
 *
 * Timestamps are ISO-8601 text compared as text: `sortedText` (PostgreSQL collates them "C", byte
 * order, as SQLite does); so are the ids triage and digests are ordered by. Keys the database hands
 * out are `id` (AUTOINCREMENT / identity, never reused; `pg` answers them as strings, the stores
 * wrap them in Number()), and columns referring to them `bigint`.
 *
 * The sandbox's own tables (sandbox/ledger.ts, sandbox/clock.ts, sandbox/monitoring/store.ts)
 * belong to a separate program's SQLite store and are not here.
 */
import {
  addColumnSql,
  createTableSql,
  indexSql,
  rebuildSqliteSql,
  type Dialect,
  type TableDef,
} from './ddl.ts';

export interface ProxyTable extends TableDef {
  /** why `import-sqlite` leaves the table behind; absent = imported */
  notImported?: string;
}

const APPEND_ONLY = 'decision records are append-only';

/**
 * Every table, in the order `import-sqlite` copies them: parents before children (bulk_item refers
 * to bulk_job), the decision records first (a failure in any later table shows the whole copy is
 * undone).
 */
export const TABLES = {
  // vetting (docs/vetting.md): numbered policy versions, and decision records chained by hash
  vetting_policy: {
    columns: {
      version: { type: 'int', primaryKey: true },
      settings: { type: 'text', notNull: true },
      created_by: { type: 'text', notNull: true },
      created_at: { type: 'sortedText', notNull: true },
      changes: { type: 'text', notNull: true },
      note: { type: 'text' },
    },
  },
  // Decisions are append-only: triggers refuse UPDATE and DELETE (and on PostgreSQL TRUNCATE; a
  // correction is a new record).
  vetting_decision: {
    columns: {
      id: { type: 'id' },
      dot_number: { type: 'text', notNull: true },
      decision: { type: 'text', notNull: true },
      user: { type: 'text', notNull: true },
      decided_at: { type: 'sortedText', notNull: true },
      expires_on: { type: 'sortedText' },
      verdict: { type: 'text' },
      policy_version: { type: 'int', notNull: true },
      content: { type: 'text', notNull: true },
      prev_hash: { type: 'text', notNull: true },
      hash: { type: 'text', notNull: true, unique: true },
      // Ed25519 signature (base64) of the record's hash and the id of the key that made it
      // (vetting/signing.ts); NULL on records made before signing began
      signature: { type: 'text' },
      signing_key_id: { type: 'text' },
      // the tender check attached to the record (docs/tender-check.md); also in its hashed content
      tender_check_id: { type: 'bigint' },
    },
    indexes: {
      vetting_decision_dot: { columns: ['dot_number', 'id'] },
      vetting_decision_user: { columns: ['user', 'id'] },
    },
    dialectSql: {
      sqlite: [
        `CREATE TRIGGER vetting_decision_no_update BEFORE UPDATE ON vetting_decision
           BEGIN SELECT RAISE(ABORT, '${APPEND_ONLY}'); END`,
        `CREATE TRIGGER vetting_decision_no_delete BEFORE DELETE ON vetting_decision
           BEGIN SELECT RAISE(ABORT, '${APPEND_ONLY}'); END`,
      ],
      postgres: [
        `CREATE FUNCTION vetting_decision_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN
             RAISE EXCEPTION '${APPEND_ONLY}';
           END
         $$`,
        `CREATE TRIGGER vetting_decision_no_change BEFORE UPDATE OR DELETE ON vetting_decision
           FOR EACH ROW EXECUTE FUNCTION vetting_decision_append_only()`,
        `CREATE TRIGGER vetting_decision_no_truncate BEFORE TRUNCATE ON vetting_decision
           FOR EACH STATEMENT EXECUTE FUNCTION vetting_decision_append_only()`,
      ],
    },
  },
  // Decisions whose standing a saved policy changed (vetting/standing-changes.ts): "needs re-vet"
  // until a newer decision on the carrier; the alerts announce each row once.
  vetting_standing_change: {
    columns: {
      id: { type: 'id' },
      policy_version: { type: 'int', notNull: true },
      dot_number: { type: 'text', notNull: true },
      decision_id: { type: 'bigint', notNull: true },
      standing_before: { type: 'text', notNull: true },
      standing_after: { type: 'text', notNull: true },
      verdict_after: { type: 'text' },
      created_at: { type: 'sortedText', notNull: true },
      announced_at: { type: 'sortedText' },
    },
    indexes: {
      vetting_standing_change_decision: { columns: ['decision_id'] },
      vetting_standing_change_unannounced: { columns: ['id'], where: 'announced_at IS NULL' },
    },
  },
  // The spend ledger. A call that may bill is written as `pending` rows (its intent) before it is
  // sent; they become the `settled` rows of what the service served, are deleted when the call
  // never reached the service, or stay as `uncertain` (priced at the quote) when it may have. Rows
  // left `pending` by a crash are made `uncertain` at start-up. Every state counts as spent.
  spend_ledger: {
    columns: {
      id: { type: 'id' },
      call_id: { type: 'text', notNull: true },
      at: { type: 'sortedText', notNull: true },
      month: { type: 'sortedText', notNull: true },
      day: { type: 'sortedText', notNull: true },
      mode: { type: 'text', notNull: true },
      endpoint: { type: 'text', notNull: true },
      dot: { type: 'text' },
      user: { type: 'sortedText', notNull: true },
      cache_hit: { type: 'int', notNull: true },
      price_mills: { type: 'int', notNull: true },
      state: {
        type: 'text',
        notNull: true,
        default: "'settled'",
        check: "state IN ('pending', 'settled', 'uncertain')",
      },
    },
    indexes: {
      spend_ledger_month: { columns: ['mode', 'month', 'endpoint', 'dot'] },
      spend_ledger_call: { columns: ['call_id'] },
      spend_ledger_state: { columns: ['state'], where: "state <> 'settled'" },
    },
  },
  audit_log: {
    columns: {
      id: { type: 'id' },
      at: { type: 'sortedText', notNull: true },
      user: { type: 'text', notNull: true },
      method: { type: 'text', notNull: true },
      endpoint: { type: 'text', notNull: true },
      search_key: { type: 'text' },
      search_value: { type: 'text' },
      dot: { type: 'text' },
      cache_hit: { type: 'int', notNull: true },
      billable: { type: 'int', notNull: true },
      status: { type: 'int', notNull: true },
    },
    indexes: {
      audit_log_user: { columns: ['user', 'id'] },
      audit_log_dot: { columns: ['dot', 'id'] },
      // the audit list is ordered by time, and retention deletes by time
      audit_log_at: { columns: ['at', 'id'] },
    },
  },
  // monitoring triage: one row per user and reviewed/escalated change
  triage_state: {
    columns: {
      user: { type: 'text', notNull: true },
      change_id: { type: 'sortedText', notNull: true },
      profile_id: { type: 'sortedText', notNull: true },
      field: { type: 'text', notNull: true },
      state: { type: 'text', notNull: true, check: "state IN ('reviewed', 'escalated')" },
      note: { type: 'text' },
      user_name: { type: 'text', notNull: true },
      updated_at: { type: 'sortedText', notNull: true },
    },
    primaryKey: ['user', 'change_id'],
    withoutRowid: true,
    indexes: { triage_state_profile: { columns: ['user', 'profile_id'] } },
  },
  inbox_visit: {
    columns: {
      user: { type: 'text', primaryKey: true },
      last_visit_at: { type: 'sortedText', notNull: true },
      previous_visit_at: { type: 'sortedText' },
    },
    withoutRowid: true,
  },
  // bulk vetting jobs (docs/bulk-vetting.md): a job and one row per identifier, each item's result
  // written as it finishes so a restarted proxy resumes at the first pending item. Which replica
  // works a job is a lease (`bulk-job:<id>`).
  bulk_job: {
    columns: {
      seq: { type: 'id' },
      id: { type: 'text', notNull: true, unique: true },
      status: {
        type: 'text',
        notNull: true,
        check: "status IN ('queued', 'running', 'paused', 'done', 'cancelled', 'failed')",
      },
      created_at: { type: 'sortedText', notNull: true },
      updated_at: { type: 'sortedText', notNull: true },
      created_by: { type: 'text', notNull: true },
      total: { type: 'int', notNull: true },
      estimate: { type: 'text', notNull: true },
      pause_code: { type: 'text' },
      pause_message: { type: 'text' },
    },
    indexes: { bulk_job_status: { columns: ['status', 'seq'] } },
  },
  bulk_item: {
    columns: {
      job_seq: {
        type: 'bigint',
        notNull: true,
        references: { table: 'bulk_job', column: 'seq', onDelete: 'cascade' },
      },
      position: { type: 'int', notNull: true },
      identifier: { type: 'text', notNull: true },
      kind: { type: 'text', notNull: true, check: "kind IN ('dot', 'docket')" },
      lookup: { type: 'text', notNull: true },
      dot_number: { type: 'text' },
      status: {
        type: 'text',
        notNull: true,
        check: "status IN ('pending', 'done', 'failed', 'cancelled')",
      },
      verdict: { type: 'text' },
      result: { type: 'text' },
      error_code: { type: 'text' },
      error_message: { type: 'text' },
      source: { type: 'text' },
      attempts: { type: 'int', notNull: true, default: '0' },
      finished_at: { type: 'sortedText' },
    },
    primaryKey: ['job_seq', 'position'],
    withoutRowid: true,
    indexes: {
      bulk_item_status: { columns: ['job_seq', 'status', 'position'] },
      bulk_item_finished: { columns: ['job_seq', 'finished_at'] },
      bulk_item_done_dot: { columns: ['dot_number', 'finished_at'], where: "status = 'done'" },
    },
  },
  // alerts (docs/alerts.md): subscriptions, change ids already seen by the poller (with what they
  // were, for digests), the outbox of deliveries and the poller's own state
  alert_subscription: {
    columns: {
      id: { type: 'id' },
      user: { type: 'text', notNull: true },
      kind: { type: 'text', notNull: true, check: "kind IN ('email', 'webhook')" },
      target: { type: 'text', notNull: true },
      channels: { type: 'text', notNull: true },
      severity: { type: 'text', notNull: true },
      schedule: { type: 'text', notNull: true, check: "schedule IN ('immediate', 'daily')" },
      digest_time: { type: 'text' },
      time_zone: { type: 'text' },
      last_digest_at: { type: 'sortedText' },
      created_at: { type: 'sortedText', notNull: true },
      updated_at: { type: 'sortedText', notNull: true },
    },
    indexes: { alert_subscription_user: { columns: ['user', 'id'] } },
  },
  alert_seen: {
    columns: {
      change_id: { type: 'sortedText', primaryKey: true },
      profile_id: { type: 'sortedText', notNull: true },
      dot: { type: 'text', notNull: true },
      field: { type: 'sortedText', notNull: true },
      channel: { type: 'text' },
      change_date: { type: 'sortedText' },
      prior: { type: 'text' },
      current: { type: 'text' },
      impact: { type: 'text' },
      first_seen_at: { type: 'sortedText', notNull: true },
      announced: { type: 'int', notNull: true },
    },
    withoutRowid: true,
    indexes: { alert_seen_first: { columns: ['first_seen_at'], where: 'announced = 1' } },
  },
  alert_delivery: {
    columns: {
      seq: { type: 'id' },
      id: { type: 'text', notNull: true, unique: true },
      subscription_id: { type: 'bigint' },
      source: { type: 'text', notNull: true },
      kind: { type: 'text', notNull: true, check: "kind IN ('email', 'webhook')" },
      target: { type: 'text', notNull: true },
      payload: { type: 'text', notNull: true },
      state: {
        type: 'text',
        notNull: true,
        check: "state IN ('pending', 'sending', 'delivered', 'failed')",
      },
      attempts: { type: 'int', notNull: true, default: '0' },
      next_attempt_at: { type: 'sortedText', notNull: true },
      give_up_at: { type: 'sortedText', notNull: true },
      last_error: { type: 'text' },
      created_at: { type: 'sortedText', notNull: true },
      delivered_at: { type: 'sortedText' },
    },
    indexes: { alert_delivery_due: { columns: ['state', 'next_attempt_at'] } },
  },
  alert_state: {
    columns: {
      key: { type: 'text', primaryKey: true },
      value: { type: 'text', notNull: true },
    },
    withoutRowid: true,
  },
  // carrier names seen in the service's answers (../names/), one row per DOT
  carrier_name: {
    columns: {
      dot_number: { type: 'text', primaryKey: true },
      legal_name: { type: 'text' },
      dba_name: { type: 'text' },
      docket: { type: 'text' },
      source: { type: 'text', notNull: true },
      seen_at: { type: 'sortedText', notNull: true },
    },
    withoutRowid: true,
  },
  // API tokens for other systems (governance/tokens.ts): only the SHA-256 of each token is kept
  api_token: {
    columns: {
      id: { type: 'id' },
      name: { type: 'text', notNull: true },
      role: { type: 'text', notNull: true, check: "role IN ('viewer', 'analyst')" },
      token_hash: { type: 'text', notNull: true, unique: true },
      prefix: { type: 'text', notNull: true },
      created_by: { type: 'text', notNull: true },
      created_at: { type: 'sortedText', notNull: true },
      expires_at: { type: 'sortedText', notNull: true },
      last_used_at: { type: 'sortedText' },
      revoked_at: { type: 'sortedText' },
      revoked_by: { type: 'text' },
    },
  },
  // tender checks (tender/): who checked which offer, the answer and its reasons, the cost and the
  // data's date; phone, e-mail and contact name are blanked (and scrubbed from the stored answer)
  // after TENDER_CONTACT_RETENTION_DAYS, `redacted_at` says when
  tender_check: {
    columns: {
      id: { type: 'id' },
      checked_at: { type: 'sortedText', notNull: true },
      user: { type: 'text', notNull: true },
      user_name: { type: 'text', notNull: true },
      dot_number: { type: 'text' },
      legal_name: { type: 'text' },
      answer: { type: 'text', notNull: true },
      phone: { type: 'text' },
      email: { type: 'text' },
      contact_name: { type: 'text' },
      input: { type: 'text', notNull: true },
      result: { type: 'text', notNull: true },
      searches: { type: 'text', notNull: true },
      cost_mills: { type: 'int', notNull: true },
      pending_count: { type: 'int', notNull: true },
      snapshot_date: { type: 'text' },
      redacted_at: { type: 'sortedText' },
    },
    indexes: {
      tender_check_dot: { columns: ['dot_number', 'id'] },
      tender_check_at: { columns: ['checked_at', 'id'] },
    },
  },
  sessions: {
    columns: {
      id_hash: { type: 'text', primaryKey: true, notNull: true },
      user: { type: 'text', notNull: true },
      created_at: { type: 'sortedText', notNull: true },
      expires_at: { type: 'sortedText', notNull: true },
    },
    indexes: { sessions_expiry: { columns: ['expires_at'] } },
    notImported: 'everyone signs in again after the switch',
  },
  // Leases: which process runs a piece of background work (alert polling, a bulk job) now.
  lease: {
    columns: {
      name: { type: 'text', primaryKey: true },
      holder: { type: 'text', notNull: true },
      expires_ms: { type: 'bigint', notNull: true },
    },
    withoutRowid: true,
    notImported: "the single proxy's runtime state",
  },
  // The changes below applied to this database (see the migrators); made by them, not a change.
  schema_change: {
    columns: {
      name: { type: 'text', primaryKey: true },
      applied_at: { type: 'text', notNull: true },
    },
    withoutRowid: true,
    notImported: 'the migration record of each database',
  },
} satisfies Record<string, ProxyTable>;

/** The table the migrators record applied changes in. */
export const CHANGE_RECORD_TABLE = 'schema_change';

/**
 * One change to the schema. It names what it changes; the SQL comes from the table's definition.
 * Creating a table (or rebuilding it) makes it as defined now, so it also counts as applying the
 * later changes to that table.
 */
export type Change = { name: string; table: string; legacyStep?: number } & (
  | { kind: 'createTable' }
  | { kind: 'addColumn'; column: string }
  | { kind: 'addIndex'; index: string }
  /** SQLite's copy into a new table as defined now (what its ALTER TABLE cannot change) */
  | { kind: 'rebuild'; dialects: readonly Dialect[] }
);

export const createTable = (table: string): Change => ({
  kind: 'createTable',
  table,
  name: `create ${table}`,
});
export const addColumn = (table: string, column: string): Change => ({
  kind: 'addColumn',
  table,
  column,
  name: `add column ${table}.${column}`,
});
const addIndex = (table: string, index: string): Change => ({
  kind: 'addIndex',
  table,
  index,
  name: `add index ${index}`,
});
/** `why` names the rebuild (a table may be rebuilt more than once). */
const rebuild = (table: string, why: string, dialects: readonly Dialect[]): Change => ({
  kind: 'rebuild',
  table,
  dialects,
  name: `rebuild ${table}: ${why}`,
});

/** The changes of SQLite's schema step `step` (PRAGMA user_version) before this list existed. */
const legacyStep = (step: number, changes: Change[]): Change[] =>
  changes.map((change) => ({ ...change, legacyStep: step }));

/**
 * Every change, in the order applied. Append only; never edit or reorder a released change (a
 * database records the names it applied).
 */
export const CHANGES: readonly Change[] = [
  ...legacyStep(1, [
    createTable('spend_ledger'),
    createTable('audit_log'),
    createTable('sessions'),
  ]),
  ...legacyStep(2, [createTable('triage_state'), createTable('inbox_visit')]),
  ...legacyStep(3, [
    addColumn('spend_ledger', 'state'),
    addIndex('spend_ledger', 'spend_ledger_call'),
    addIndex('spend_ledger', 'spend_ledger_state'),
  ]),
  ...legacyStep(4, [createTable('vetting_policy'), createTable('vetting_decision')]),
  ...legacyStep(5, [createTable('bulk_job'), createTable('bulk_item')]),
  ...legacyStep(6, [
    createTable('alert_seen'),
    createTable('alert_subscription'),
    createTable('alert_delivery'),
    createTable('alert_state'),
  ]),
  ...legacyStep(7, [createTable('lease')]),
  ...legacyStep(8, [createTable('carrier_name')]),
  ...legacyStep(9, [createTable('vetting_standing_change')]),
  // what PostgreSQL's schema already had (sql/schema-parity.test.ts found the gaps); a rowid
  // table's TEXT PRIMARY KEY accepts NULL in SQLite, and it cannot add NOT NULL to a column
  ...legacyStep(10, [
    addIndex('audit_log', 'audit_log_at'),
    addIndex('alert_subscription', 'alert_subscription_user'),
    rebuild('sessions', 'id_hash not null', ['sqlite']),
  ]),
  // the anchored decision record (docs/vetting.md): each record signed as it is written
  addColumn('vetting_decision', 'signature'),
  addColumn('vetting_decision', 'signing_key_id'),
  // API tokens (docs/api.md)
  createTable('api_token'),
  // tender checks (docs/tender-check.md)
  createTable('tender_check'),
  addColumn('vetting_decision', 'tender_check_id'),
];

/**
 * PostgreSQL's `schema_migrations` versions before this list existed, and the tables each created
 * (as they were defined when this list replaced them: every change above to those tables included).
 */
const LEGACY_POSTGRES_VERSIONS: Readonly<Record<number, readonly string[]>> = {
  1: ['sessions'],
  2: ['triage_state', 'inbox_visit'],
  3: ['lease'],
  4: ['vetting_policy', 'vetting_decision'],
  5: ['spend_ledger'],
  6: ['audit_log'],
  7: ['alert_seen', 'alert_subscription', 'alert_delivery', 'alert_state'],
  8: ['bulk_job', 'bulk_item'],
  9: ['carrier_name'],
  10: ['vetting_standing_change'],
};

export interface SchemaDefinition {
  tables: Readonly<Record<string, ProxyTable>>;
  changes: readonly Change[];
}

export const SCHEMA: SchemaDefinition = { tables: TABLES, changes: CHANGES };

/** The tables `import-sqlite` copies, in its order. */
export const IMPORTED_TABLES: readonly string[] = Object.entries(
  TABLES as Record<string, ProxyTable>,
)
  .filter(([, table]) => table.notImported === undefined)
  .map(([name]) => name);

/** The tables `import-sqlite` leaves behind, and why. */
export const NOT_IMPORTED: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(TABLES as Record<string, ProxyTable>).flatMap(([name, table]) =>
    table.notImported === undefined ? [] : [[name, table.notImported]],
  ),
);

/** The changes already applied, per the markers of the code before this list (see the migrators). */
export function legacyApplied(
  changes: readonly Change[],
  marker: { sqliteVersion: number } | { postgresVersions: readonly number[] },
): string[] {
  if ('sqliteVersion' in marker) {
    return changes
      .filter(
        (change) => change.legacyStep !== undefined && change.legacyStep <= marker.sqliteVersion,
      )
      .map((change) => change.name);
  }
  const tables = new Set(marker.postgresVersions.flatMap((v) => LEGACY_POSTGRES_VERSIONS[v] ?? []));
  return changes
    .filter((change) => change.legacyStep !== undefined && tables.has(change.table))
    .map((change) => change.name);
}

/** A change to apply now, and every change it counts as applying (itself first). */
export interface PlannedChange {
  change: Change;
  covers: string[];
}

const appliesTo = (change: Change, dialect: Dialect) =>
  change.kind !== 'rebuild' || change.dialects.includes(dialect);

/**
 * What to apply, in order, to a database of `dialect` that recorded `applied`: each change not
 * applied yet; a created (or, where it applies, rebuilt) table covers the later changes to it.
 */
export function plan(
  changes: readonly Change[],
  applied: ReadonlySet<string>,
  dialect: Dialect,
): PlannedChange[] {
  const done = new Set(applied);
  const names = new Set<string>();
  const planned: PlannedChange[] = [];
  changes.forEach((change, at) => {
    if (names.has(change.name)) throw new Error(`two schema changes are named "${change.name}"`);
    names.add(change.name);
    if (done.has(change.name)) return;
    const covers = [change.name];
    if (
      change.kind === 'createTable' ||
      (change.kind === 'rebuild' && appliesTo(change, dialect))
    ) {
      for (const later of changes.slice(at + 1)) {
        if (later.table === change.table && !done.has(later.name)) covers.push(later.name);
      }
    }
    for (const name of covers) done.add(name);
    planned.push({ change, covers });
  });
  return planned;
}

function tableOf(tables: SchemaDefinition['tables'], name: string): ProxyTable {
  const table = tables[name];
  if (table === undefined) throw new Error(`the schema change names an unknown table ${name}`);
  return table;
}

/**
 * The statements of `change` in `dialect`, generated from the table's definition now. A rebuild
 * needs the columns the table has now (`existingColumns`); one for another engine has none.
 */
export function changeSql(
  change: Change,
  tables: SchemaDefinition['tables'],
  dialect: Dialect,
  existingColumns: () => string[] = () => [],
): string[] {
  const table = tableOf(tables, change.table);
  switch (change.kind) {
    case 'createTable':
      return createTableSql(change.table, table, dialect);
    case 'addColumn': {
      const column = table.columns[change.column];
      if (column === undefined) throw new Error(`${change.name}: no such column in the definition`);
      return [addColumnSql(change.table, change.column, column, dialect)];
    }
    case 'addIndex': {
      const index = table.indexes?.[change.index];
      if (index === undefined) throw new Error(`${change.name}: no such index in the definition`);
      return [indexSql(change.table, change.index, index, dialect)];
    }
    case 'rebuild':
      if (!appliesTo(change, dialect)) return [];
      if (dialect !== 'sqlite') throw new Error(`${change.name}: a rebuild is SQLite's`);
      return rebuildSqliteSql(change.table, table, existingColumns());
  }
}

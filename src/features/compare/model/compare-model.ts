/**
 * The comparison as data: one row per attribute, one cell per carrier, and which cells differ in a
 * way that matters (a rule only some carriers fail, the worst value of a measure). Pure: the page
 * draws it, the CSV export writes it, the tests read it.
 */
import { tableCsv, type CsvColumn } from '../../../components/data-table/csv.ts';
import {
  buildBasicRows,
  buildOosRows,
  basicMarkers,
  type BasicRow,
} from '../../../lib/carrier/safety.ts';
import {
  MISSING,
  formatCount,
  formatDate,
  formatDollars,
  formatPercent,
} from '../../../lib/format.ts';
import type { Profile } from '../../../lib/service/index.ts';
import type { Outcome, RuleId, RuleResult, VerdictResult } from '../../../lib/vetting/index.ts';

/** A carrier's column: its profile and verdict once held, else only what the selection knows. */
export interface CompareColumn {
  dot: string;
  name?: string | undefined;
  profile?: Profile | undefined;
  /** undefined while the policy is loading (or failed) */
  verdict?: VerdictResult | undefined;
}

export type Tone = 'good' | 'warn' | 'bad';

export interface CompareCell {
  /** what is shown and exported; `—` when the profile lacks it */
  text: string;
  /** `not-held`: the profile is not fetched, nothing is known */
  state: 'value' | 'missing' | 'not-held';
  /** the number measures are compared by */
  value?: number | undefined;
  tone?: Tone | undefined;
  /** a BASIC's row, for the percentile bar */
  basic?: BasicRow | undefined;
  /** a difference that matters, in words (never colour alone) */
  mark?: string | undefined;
}

export interface CompareRow {
  id: string;
  label: string;
  cells: CompareCell[];
  /** the held carriers do not all show the same */
  differs: boolean;
}

export interface CompareSection {
  id: string;
  title: string;
  rows: CompareRow[];
}

type Read = Omit<CompareCell, 'state' | 'mark' | 'text'> & { text: string | undefined };

interface RowDef {
  id: string;
  label: string;
  read: (profile: Profile, column: CompareColumn) => Read;
  /** which end of `value` is worse, for rows whose worst value is marked */
  worse?: 'higher' | 'lower';
}

const OUTCOME_WORDS: Record<Outcome, string> = { pass: 'Pass', review: 'Review', fail: 'Fail' };
const OUTCOME_TONE: Record<Outcome, Tone | undefined> = {
  pass: 'good',
  review: 'warn',
  fail: 'bad',
};
const TONE_RANK: Record<Tone, number> = { good: 0, warn: 1, bad: 2 };

/** Rules whose findings are identity and network warnings (chameleon signals). */
const NETWORK_RULES: readonly RuleId[] = [
  'shared_identifiers',
  'virtual_address',
  'contact_changes',
];

const text = (value: string | undefined | null): Read => ({ text: value ?? undefined });

function docketsOf(profile: Profile): string | undefined {
  const main =
    profile.docket ??
    (profile.docket_number ? `${profile.docket_prefix ?? ''}${profile.docket_number}` : undefined);
  return main;
}

function placeOf(profile: Profile): string | undefined {
  const cityState = [profile.physical_address_city, profile.physical_address_state]
    .filter(Boolean)
    .join(', ');
  return cityState || profile.physical_address || undefined;
}

function daysSince(date: string | undefined, reference: string): number | undefined {
  if (!date) return undefined;
  const days = Math.floor((Date.parse(reference) - Date.parse(date)) / 86_400_000);
  return Number.isFinite(days) ? days : undefined;
}

function ageText(days: number | undefined): string | undefined {
  if (days === undefined) return undefined;
  return `${(days / 365.25).toFixed(1)} years (${formatCount(days)} days)`;
}

function referenceOf(column: CompareColumn, profile: Profile): string {
  return column.verdict?.reference_date ?? profile.snapshot_date ?? new Date().toISOString();
}

const AUTHORITY_TYPES = ['common', 'contract', 'broker'] as const;

function authorityText(profile: Profile): string | undefined {
  const parts = AUTHORITY_TYPES.filter((type) => profile[`authority_${type}`] !== undefined).map(
    (type) => `${type[0]?.toUpperCase()}${type.slice(1)}: ${profile[`authority_${type}`] ?? ''}`,
  );
  return parts.length ? parts.join(' · ') : undefined;
}

/** Days the oldest Active authority has existed (the "young authority" rule's measure). */
function oldestActiveAuthority(profile: Profile): number | undefined {
  const ages = AUTHORITY_TYPES.filter(
    (type) => (profile[`authority_${type}`] ?? '').toLowerCase() === 'active',
  )
    .map((type) =>
      type === 'broker'
        ? profile.authority_age_broker
        : (profile[`authority_age_${type}_active`] ?? profile[`authority_age_${type}`]),
    )
    .filter((age): age is number => age !== undefined);
  return ages.length ? Math.max(...ages) : undefined;
}

function coverage(onFile: number | undefined, required: number | undefined): Read {
  if (onFile === undefined && required === undefined) return text(undefined);
  const short = required !== undefined && required > 0 && (onFile ?? 0) < required;
  return {
    text: `${formatDollars(onFile)} on file / ${formatDollars(required)} required${short ? ' · short' : ''}`,
    value: onFile,
    tone: short ? 'bad' : required !== undefined ? 'good' : undefined,
  };
}

function ruleOf(column: CompareColumn, rule: RuleId): RuleResult | undefined {
  return column.verdict?.reasons.find((reason) => reason.rule === rule);
}

function basicRead(profile: Profile, index: number): Read {
  const row = buildBasicRows(profile)[index];
  if (!row) return text(undefined);
  if (row.insufficientData) {
    return { text: `Insufficient data (threshold ${formatPercent(row.threshold)})`, basic: row };
  }
  const markers = basicMarkers(row);
  const over = row.percentile !== undefined && row.percentile >= row.threshold;
  return {
    text: `${formatPercent(row.percentile)} (threshold ${formatPercent(row.threshold)})${
      markers.length ? ` · ${markers.join(', ')}` : ''
    }`,
    value: row.percentile,
    tone: row.alert || over ? 'bad' : 'good',
    basic: row,
  };
}

function oosRead(profile: Profile, index: number): Read {
  const row = buildOosRows(profile)[index];
  if (!row || row.carrierRate === undefined) return text(undefined);
  const above = row.nationalRate !== undefined && row.carrierRate > row.nationalRate;
  return {
    text: `${formatPercent(row.carrierRate)} (national ${formatPercent(row.nationalRate)})${
      row.alert ? ' · Alert' : above ? ' · above national' : ''
    }`,
    value: row.carrierRate,
    tone: row.alert ? 'bad' : above ? 'warn' : 'good',
  };
}

function count(value: number | undefined): Read {
  return { text: value === undefined ? undefined : formatCount(value), value };
}

function verdictRows(columns: readonly CompareColumn[]): RowDef[] {
  // A row per rule that does not pass for at least one carrier, in the policy's order.
  const rules: { rule: RuleId; label: string }[] = [];
  for (const column of columns) {
    for (const reason of column.verdict?.reasons ?? []) {
      if (reason.outcome !== 'pass' && !rules.some((r) => r.rule === reason.rule)) {
        rules.push({ rule: reason.rule, label: reason.label });
      }
    }
  }
  return [
    {
      id: 'verdict',
      label: 'Verdict',
      read: (_p, column) =>
        column.verdict
          ? {
              text: OUTCOME_WORDS[column.verdict.verdict],
              tone: OUTCOME_TONE[column.verdict.verdict],
            }
          : text(undefined),
    },
    {
      id: 'rules-not-passed',
      label: 'Rules not passed',
      worse: 'higher',
      read: (_p, column) =>
        column.verdict
          ? count(column.verdict.reasons.filter((r) => r.outcome !== 'pass').length)
          : text(undefined),
    },
    ...rules.map(({ rule, label }): RowDef => ({
      id: `rule-${rule}`,
      label,
      read: (_p, column) => {
        const reason = ruleOf(column, rule);
        if (!reason) return text(undefined);
        return {
          text: `${OUTCOME_WORDS[reason.outcome]}: ${reason.message}`,
          tone: OUTCOME_TONE[reason.outcome],
        };
      },
    })),
  ];
}

const IDENTITY: RowDef[] = [
  { id: 'legal-name', label: 'Legal name', read: (p) => text(p.legal_name) },
  { id: 'dba', label: 'Doing business as', read: (p) => text(p.dba_name) },
  { id: 'dot', label: 'USDOT number', read: (p, c) => text(p.dot_number ?? c.dot) },
  { id: 'docket', label: 'Docket', read: (p) => text(docketsOf(p)) },
  { id: 'entity', label: 'Entity type', read: (p) => text(p.entity_type_desc) },
  { id: 'operation', label: 'Operation', read: (p) => text(p.carrier_operation_desc) },
  { id: 'place', label: 'Location', read: (p) => text(placeOf(p)) },
];

const AUTHORITY: RowDef[] = [
  {
    id: 'usdot-status',
    label: 'USDOT status',
    read: (p) => {
      if (p.usdot_status === undefined && p.out_of_service_flag === undefined) {
        return text(undefined);
      }
      const oos = p.out_of_service_flag === true;
      const status = p.usdot_status ?? MISSING;
      return {
        text: oos ? `${status} · out of service` : status,
        tone: oos || status.toLowerCase() !== 'active' ? 'bad' : 'good',
      };
    },
  },
  {
    id: 'usdot-age',
    label: 'USDOT age',
    worse: 'lower',
    read: (p, c) => {
      const days = p.dot_age ?? daysSince(p.added_date, referenceOf(c, p));
      return { text: ageText(days), value: days };
    },
  },
  { id: 'authority', label: 'Operating authority', read: (p) => text(authorityText(p)) },
  {
    id: 'authority-age',
    label: 'Oldest active authority',
    worse: 'lower',
    read: (p) => {
      const days = oldestActiveAuthority(p);
      return { text: ageText(days), value: days };
    },
  },
  {
    id: 'revocations',
    label: 'Authority revocations',
    worse: 'higher',
    read: (p) => count(p.total_revocations),
  },
];

const INSURANCE: RowDef[] = [
  {
    id: 'bipd',
    label: 'BIPD (liability)',
    read: (p) => coverage(p.insurance_bipd_on_file, p.insurance_bipd_required),
  },
  {
    id: 'cargo',
    label: 'Cargo',
    read: (p) => coverage(p.insurance_cargo_on_file, p.insurance_cargo_required),
  },
  {
    id: 'pending-cancel',
    label: 'Pending cancellation',
    read: (p) =>
      p.insurance_pending_cancel_date
        ? { text: formatDate(p.insurance_pending_cancel_date), tone: 'bad' }
        : { text: 'None' },
  },
];

const RATING_TONE: Record<string, Tone> = {
  unsatisfactory: 'bad',
  conditional: 'warn',
  satisfactory: 'good',
};

const SAFETY: RowDef[] = [
  {
    id: 'safety-rating',
    label: 'Safety rating',
    read: (p) => {
      const rating = p.safety_rating_desc?.trim();
      if (!rating) return { text: 'Not rated' };
      const date = p.safety_rating_date ? ` (${formatDate(p.safety_rating_date)})` : '';
      return { text: `${rating}${date}`, tone: RATING_TONE[rating.toLowerCase()] };
    },
  },
];

function basicDefs(): RowDef[] {
  // Labels from a profile without data: the order and names of the seven BASICs.
  return buildBasicRows({ extra: {} } as Profile).map((row, index) => ({
    id: `basic-${row.category}`,
    label: row.label,
    worse: 'higher',
    read: (p) => basicRead(p, index),
  }));
}

function oosDefs(): RowDef[] {
  return buildOosRows({ extra: {} } as Profile).map((row, index) => ({
    id: `oos-${row.kind}`,
    label: `${row.label} out-of-service rate`,
    worse: 'higher',
    read: (p) => oosRead(p, index),
  }));
}

const ACTIVITY: RowDef[] = [
  { id: 'inspections', label: 'Inspections', read: (p) => count(p.inspections_total) },
  { id: 'crashes', label: 'Crashes', worse: 'higher', read: (p) => count(p.crashes_total) },
  {
    id: 'fatalities',
    label: 'Crash fatalities',
    worse: 'higher',
    read: (p) => count(p.crash_fatalities),
  },
  {
    id: 'injuries',
    label: 'Crash injuries',
    worse: 'higher',
    read: (p) => count(p.crash_injuries),
  },
];

const FLEET: RowDef[] = [
  { id: 'power-units', label: 'Power units', read: (p) => count(p.total_power_units) },
  { id: 'drivers', label: 'Drivers', read: (p) => count(p.total_drivers) },
];

const NETWORK: RowDef[] = [
  {
    id: 'network-warnings',
    label: 'Network and identity warnings',
    read: (_p, column) => {
      if (!column.verdict) return text(undefined);
      const warnings = column.verdict.reasons.filter(
        (r) => NETWORK_RULES.includes(r.rule) && r.outcome !== 'pass',
      );
      if (!warnings.length) return { text: 'None', tone: 'good', value: 0 };
      const worst = warnings.some((w) => w.outcome === 'fail') ? 'bad' : 'warn';
      return {
        text: warnings.map((w) => w.message).join(' '),
        tone: worst,
        value: warnings.length,
      };
    },
  },
];

function readCell(def: RowDef, column: CompareColumn): CompareCell {
  if (!column.profile) return { text: MISSING, state: 'not-held' };
  const read = def.read(column.profile, column);
  if (read.text === undefined || read.text === '') {
    return { ...read, text: MISSING, state: 'missing', value: undefined, tone: undefined };
  }
  return { ...read, text: read.text, state: 'value' };
}

/**
 * Marks what matters: with at least two carriers that have a value, the worst value of a measure
 * (when they are not all equal), and a bad or warning state that not every carrier shares.
 */
export function markDifferences(
  cells: CompareCell[],
  worse?: 'higher' | 'lower',
): CompareRow['differs'] {
  const known = cells.filter((cell) => cell.state === 'value');
  const held = cells.filter((cell) => cell.state !== 'not-held');
  const differs = new Set(held.map((cell) => cell.text)).size > 1;
  if (known.length < 2) return differs;
  const numbers = known.map((cell) => cell.value).filter((v): v is number => v !== undefined);
  if (worse && numbers.length >= 2 && new Set(numbers).size > 1) {
    const worst = worse === 'higher' ? Math.max(...numbers) : Math.min(...numbers);
    for (const cell of known) if (cell.value === worst) cell.mark = 'Worst';
    return differs;
  }
  const ranks = known.map((cell) => (cell.tone ? TONE_RANK[cell.tone] : 0));
  const top = Math.max(...ranks);
  if (top > 0 && ranks.some((rank) => rank < top)) {
    const worstCells = known.filter((_, i) => ranks[i] === top);
    for (const cell of worstCells) cell.mark = worstCells.length === 1 ? 'Only this one' : 'Worst';
  }
  return differs;
}

function buildRow(def: RowDef, columns: readonly CompareColumn[]): CompareRow {
  const cells = columns.map((column) => readCell(def, column));
  const differs = markDifferences(cells, def.worse);
  return { id: def.id, label: def.label, cells, differs };
}

/** The comparison's sections, in reading order. */
export function buildComparison(columns: readonly CompareColumn[]): CompareSection[] {
  const sections: { id: string; title: string; defs: RowDef[] }[] = [
    { id: 'verdict', title: 'Verdict', defs: verdictRows(columns) },
    { id: 'identity', title: 'Identity', defs: IDENTITY },
    { id: 'authority', title: 'Authority', defs: AUTHORITY },
    { id: 'insurance', title: 'Insurance on file vs required', defs: INSURANCE },
    { id: 'safety', title: 'Safety rating', defs: SAFETY },
    { id: 'basics', title: 'BASIC percentiles against thresholds', defs: basicDefs() },
    { id: 'oos', title: 'Out-of-service rates against national averages', defs: oosDefs() },
    { id: 'activity', title: 'Inspections and crashes (24 months)', defs: ACTIVITY },
    { id: 'fleet', title: 'Fleet', defs: FLEET },
    { id: 'network', title: 'Network warnings', defs: NETWORK },
  ];
  return sections.map(({ id, title, defs }) => ({
    id,
    title,
    rows: defs.map((def) => buildRow(def, columns)),
  }));
}

/** A column's heading: the carrier's name (held profile first, then the selection's), and DOT. */
export function columnTitle(column: CompareColumn): string {
  return column.profile?.legal_name ?? column.name ?? `DOT ${column.dot}`;
}

interface CsvRow {
  section: string;
  row: CompareRow;
}

/** One line per attribute, one column per carrier; a carrier not fetched reads "not fetched". */
export function comparisonCsv(
  sections: readonly CompareSection[],
  columns: readonly CompareColumn[],
): string {
  const rows: CsvRow[] = sections.flatMap((section) =>
    section.rows.map((row) => ({ section: section.title, row })),
  );
  const csvColumns: CsvColumn<CsvRow>[] = [
    { header: 'Section', value: (r) => r.section },
    { header: 'Attribute', value: (r) => r.row.label },
    ...columns.map((column, index): CsvColumn<CsvRow> => ({
      header: `${columnTitle(column)} (DOT ${column.dot})`,
      value: (r) => {
        const cell = r.row.cells[index];
        if (!cell || cell.state === 'not-held') return 'not fetched';
        return cell.mark ? `${cell.text} [${cell.mark}]` : cell.text;
      },
    })),
    { header: 'Differs', value: (r) => r.row.differs },
  ];
  return tableCsv(rows, csvColumns);
}

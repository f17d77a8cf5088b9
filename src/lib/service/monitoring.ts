/**
 * Monitoring bodies: the watchlist with its change records (`/v2/monitoring/list`) and the add/remove
 * answers (200 and 207). Change records are flattened into `{field, current, prior, channel}` lists.
 */
import { channelOfField, type Channel } from './channels.ts';
import { PROFILE_SPEC } from './fields.ts';
import { hasContent, isPlainObject, preview, readKind } from './kinds.ts';
import {
  joinPath,
  list,
  readField,
  readRecord,
  setOwn,
  specHas,
  type Extra,
  type Parsed,
  type ParseIssue,
} from './record.ts';

/** A normalised change value: leaf fields as their kind (numbers, booleans, dates...), else as sent. */
export type ChangeValue = string | number | boolean | null | readonly unknown[] | Extra;

export interface FieldChange {
  field: string;
  current: ChangeValue;
  prior: ChangeValue;
  /** absent (or undefined) for a field outside every channel */
  channel?: Channel | undefined;
}

export interface ChangeRecord {
  /** only fields whose `<f>_changed` is true / "Y" / 1 / "true" */
  changes: FieldChange[];
  /** `YYYY-MM-DD` (sent as `YYYYMMDD`) */
  lastChangedDate?: string;
  /** ISO-8601 (sent as epoch seconds) */
  startedMonitoringAt?: string;
  /** ISO-8601 as sent */
  lastAcknowledgedAt?: string;
  /** unknown keys and the triples of fields that are not changes */
  extra: Extra;
}

export interface MonitoredProfile {
  profileId: string;
  /** the DOT part of `<dot>-<docket>` */
  dot: string;
  /** the docket part of `<dot>-<docket>`, absent when the id has none */
  docket?: string;
  records: ChangeRecord[];
}

export interface MonitoringList {
  totalCount: number;
  profiles: MonitoredProfile[];
}

const SUFFIXES = ['_current', '_prior', '_changed'] as const;
type Suffix = (typeof SUFFIXES)[number];
const EPOCH_DIGITS = /^\d{9,}$/;
const DATE_KEYS = new Set(['last_changed_date', 'started_monitoring_at', 'last_acknowledged_at']);

/** Epoch seconds (or milliseconds) -> ISO string; ISO strings and dates kept as sent. */
function toInstant(value: unknown): string | undefined {
  const digits =
    typeof value === 'string' && EPOCH_DIGITS.test(value.trim()) ? Number(value) : value;
  if (typeof digits === 'number' && Number.isFinite(digits)) {
    const date = new Date(digits > 1e11 ? digits : digits * 1000);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  const stamp = readKind('timestamp', value);
  return stamp.ok ? stamp.value : undefined;
}

/** Paths are only built when an issue is reported: `recordPath` + `key`. */
function readInstant(
  value: unknown,
  recordPath: string,
  key: string,
  issues: ParseIssue[],
): string | undefined {
  if (!hasContent(value)) return undefined;
  const instant = toInstant(value);
  if (instant === undefined)
    issues.push({
      path: joinPath(recordPath, key),
      message: `expected a time (got ${preview(value)})`,
    });
  return instant;
}

function readChangeValue(
  field: string,
  value: unknown,
  recordPath: string,
  key: string,
  issues: ParseIssue[],
): ChangeValue {
  if (!hasContent(value)) return null;
  const def = specHas(PROFILE_SPEC, field)
    ? PROFILE_SPEC[field as keyof typeof PROFILE_SPEC]
    : undefined;
  if (def === undefined) return value as ChangeValue;
  if (typeof def !== 'string')
    return (readField(value, def, joinPath(recordPath, key), issues) ?? null) as ChangeValue;
  // a leaf, read as readField would, with the path only built for an issue
  const read = readKind(def, value);
  if (read.ok) return (read.value ?? null) as ChangeValue;
  issues.push({ path: joinPath(recordPath, key), message: read.message });
  return null;
}

/** The `<f>_current|_prior|_changed` keys a record holds for one `f` (those sent), with values. */
interface Triple {
  field: string;
  currentKey: string | undefined;
  current: unknown;
  priorKey: string | undefined;
  prior: unknown;
  changedKey: string | undefined;
  changed: unknown;
}

/** The suffix of a `<f>_current|_prior|_changed` key (with a non-empty `f`), else undefined. */
function suffixOf(key: string): Suffix | undefined {
  for (const suffix of SUFFIXES) {
    if (key.length > suffix.length && key.endsWith(suffix)) return suffix;
  }
  return undefined;
}

/**
 * One pass over a record's keys: the triples by field name in first-seen order, and the other keys
 * (neither a triple key nor a date key) in the record's order.
 */
function splitRecordKeys(raw: Record<string, unknown>): { triples: Triple[]; others: string[] } {
  const byField = new Map<string, Triple>();
  const triples: Triple[] = [];
  const others: string[] = [];
  for (const key of Object.keys(raw)) {
    const suffix = suffixOf(key);
    if (suffix === undefined) {
      if (!DATE_KEYS.has(key)) others.push(key);
      continue;
    }
    const field = key.slice(0, -suffix.length);
    let triple = byField.get(field);
    if (triple === undefined) {
      triple = {
        field,
        currentKey: undefined,
        current: undefined,
        priorKey: undefined,
        prior: undefined,
        changedKey: undefined,
        changed: undefined,
      };
      byField.set(field, triple);
      triples.push(triple);
    }
    if (suffix === '_current') {
      triple.currentKey = key;
      triple.current = raw[key];
    } else if (suffix === '_prior') {
      triple.priorKey = key;
      triple.prior = raw[key];
    } else {
      triple.changedKey = key;
      triple.changed = raw[key];
    }
  }
  return { triples, others };
}

function isChanged(triple: Triple, recordPath: string, issues: ParseIssue[]) {
  const flag = readKind('flag', triple.changed);
  if (flag.ok) return flag.value === true;
  // only a value that is not blank fails, so the key is present
  issues.push({ path: joinPath(recordPath, triple.changedKey ?? ''), message: flag.message });
  return false;
}

/** The keys of a field that is not a change, kept verbatim: `_current`, `_prior`, `_changed`. */
function keepTriple(triple: Triple, extra: Extra): void {
  if (triple.currentKey !== undefined) setOwn(extra, triple.currentKey, triple.current);
  if (triple.priorKey !== undefined) setOwn(extra, triple.priorKey, triple.prior);
  if (triple.changedKey !== undefined) setOwn(extra, triple.changedKey, triple.changed);
}

function readDates(
  raw: Record<string, unknown>,
  path: string,
  issues: ParseIssue[],
  into: ChangeRecord,
) {
  const changed = readKind('date', raw.last_changed_date);
  if (!changed.ok)
    issues.push({ path: joinPath(path, 'last_changed_date'), message: changed.message });
  else if (changed.value !== undefined) into.lastChangedDate = changed.value;
  const started = readInstant(raw.started_monitoring_at, path, 'started_monitoring_at', issues);
  if (started !== undefined) into.startedMonitoringAt = started;
  const acknowledged = readInstant(raw.last_acknowledged_at, path, 'last_acknowledged_at', issues);
  if (acknowledged !== undefined) into.lastAcknowledgedAt = acknowledged;
}

function parseChangeRecord(
  raw: Record<string, unknown>,
  path: string,
  issues: ParseIssue[],
): ChangeRecord {
  const record: ChangeRecord = { changes: [], extra: {} };
  const { triples, others } = splitRecordKeys(raw);
  for (const triple of triples) {
    if (!isChanged(triple, path, issues)) {
      keepTriple(triple, record.extra);
      continue;
    }
    const { field } = triple;
    const current = readChangeValue(field, triple.current, path, triple.currentKey ?? '', issues);
    const prior = readChangeValue(field, triple.prior, path, triple.priorKey ?? '', issues);
    record.changes.push({ field, current, prior, channel: channelOfField(field) });
  }
  for (const key of others) setOwn(record.extra, key, raw[key]);
  readDates(raw, path, issues, record);
  return record;
}

function splitProfileId(profileId: string): Pick<MonitoredProfile, 'dot' | 'docket'> {
  const dash = profileId.indexOf('-');
  if (dash < 0) return { dot: profileId };
  const docket = profileId.slice(dash + 1);
  return docket ? { dot: profileId.slice(0, dash), docket } : { dot: profileId.slice(0, dash) };
}

function readProfileRecords(
  profileId: string,
  rawRecords: unknown[],
  issues: ParseIssue[],
): MonitoredProfile {
  const path = joinPath('items', profileId);
  const records: ChangeRecord[] = [];
  rawRecords.forEach((item, index) => {
    if (isPlainObject(item)) records.push(parseChangeRecord(item, joinPath(path, index), issues));
    else if (hasContent(item)) {
      issues.push({
        path: joinPath(path, index),
        message: `expected a change record (got ${preview(item)})`,
      });
    }
  });
  return { profileId, ...splitProfileId(profileId), records };
}

/** `items` as the spec's object, or tolerated as an array of records carrying `profile_id`. */
function groupItems(items: unknown, issues: ParseIssue[]): [string, unknown[]][] {
  if (isPlainObject(items))
    return Object.entries(items).map(([id, records]) => [id, [records].flat()]);
  if (!Array.isArray(items)) {
    if (hasContent(items))
      issues.push({ path: 'items', message: `expected an object (got ${preview(items)})` });
    return [];
  }
  const groups = new Map<string, unknown[]>();
  items.forEach((item, index) => {
    const id = isPlainObject(item) ? readKind('id', item.profile_id ?? item.doc_id) : undefined;
    if (!id?.ok || id.value === undefined) {
      issues.push({ path: joinPath('items', index), message: 'record without profile_id dropped' });
      return;
    }
    groups.set(id.value, [...(groups.get(id.value) ?? []), item]);
  });
  return [...groups];
}

export function parseMonitoringList(body: unknown): Parsed<MonitoringList> {
  const issues: ParseIssue[] = [];
  if (!isPlainObject(body)) {
    issues.push({ path: '', message: `expected an object (got ${preview(body)})` });
    return { value: { totalCount: 0, profiles: [] }, issues };
  }
  const profiles = groupItems(body.items, issues)
    .filter(([id]) => id.trim() !== '')
    .map(([id, records]) => readProfileRecords(id, records, issues));
  const total = readKind('count', body.total_count);
  if (!total.ok) issues.push({ path: 'total_count', message: total.message });
  const totalCount = total.ok && total.value !== undefined ? total.value : profiles.length;
  return { value: { totalCount, profiles }, issues };
}

const MUTATION_SPEC = {
  status: 'text',
  added: 'count',
  removed: 'count',
  error: 'text',
  failed: list({ profile_id: 'id', error: 'text' }),
} as const;

interface FailedProfile {
  profileId?: string;
  error?: string;
  /** unknown keys of the failure entry, when any */
  extra?: Extra;
}

/** add/remove answer: 200 `{status, added|removed, error?}`, 207 adds `failed: [{profile_id, error}]`. */
export interface MonitoringMutation {
  status?: string;
  added?: number;
  removed?: number;
  /** set when some chunks failed: "retry the remainder" */
  error?: string;
  failed: FailedProfile[];
  extra: Extra;
}

export function parseMonitoringMutation(body: unknown): Parsed<MonitoringMutation> {
  const issues: ParseIssue[] = [];
  if (!isPlainObject(body)) {
    if (hasContent(body))
      issues.push({ path: '', message: `expected an object (got ${preview(body)})` });
    return { value: { failed: [], extra: {} }, issues };
  }
  const { failed = [], ...rest } = readRecord(body, MUTATION_SPEC, '', issues);
  const value: MonitoringMutation = {
    ...rest,
    failed: failed.map(({ profile_id, error, extra }) => ({
      ...(profile_id !== undefined && { profileId: profile_id }),
      ...(error !== undefined && { error }),
      ...(hasContent(extra) && { extra }),
    })),
  };
  return { value, issues };
}

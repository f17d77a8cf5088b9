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
  channel: Channel | undefined;
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
const EPOCH_DIGITS = /^\d{9,}$/;
const DATE_KEYS = ['last_changed_date', 'started_monitoring_at', 'last_acknowledged_at'];

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

function readInstant(value: unknown, path: string, issues: ParseIssue[]): string | undefined {
  if (!hasContent(value)) return undefined;
  const instant = toInstant(value);
  if (instant === undefined)
    issues.push({ path, message: `expected a time (got ${preview(value)})` });
  return instant;
}

function readChangeValue(
  field: string,
  value: unknown,
  path: string,
  issues: ParseIssue[],
): ChangeValue {
  if (!hasContent(value)) return null;
  const def = specHas(PROFILE_SPEC, field)
    ? PROFILE_SPEC[field as keyof typeof PROFILE_SPEC]
    : undefined;
  if (def === undefined) return value as ChangeValue;
  return (readField(value, def, path, issues) ?? null) as ChangeValue;
}

/** Base field names of every `<f>_current|_prior|_changed` key, in first-seen order. */
function changedFieldNames(raw: Record<string, unknown>): string[] {
  const names = new Set<string>();
  for (const key of Object.keys(raw)) {
    const suffix = SUFFIXES.find((s) => key.endsWith(s) && key.length > s.length);
    if (suffix) names.add(key.slice(0, -suffix.length));
  }
  return [...names];
}

function isChanged(
  raw: Record<string, unknown>,
  field: string,
  path: string,
  issues: ParseIssue[],
) {
  const flag = readKind('flag', raw[`${field}_changed`]);
  if (flag.ok) return flag.value === true;
  issues.push({ path: joinPath(path, `${field}_changed`), message: flag.message });
  return false;
}

function keepTriple(raw: Record<string, unknown>, field: string, extra: Extra): void {
  for (const suffix of SUFFIXES) {
    const key = `${field}${suffix}`;
    if (Object.hasOwn(raw, key)) setOwn(extra, key, raw[key]);
  }
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
  const started = readInstant(
    raw.started_monitoring_at,
    joinPath(path, 'started_monitoring_at'),
    issues,
  );
  if (started !== undefined) into.startedMonitoringAt = started;
  const acknowledged = readInstant(
    raw.last_acknowledged_at,
    joinPath(path, 'last_acknowledged_at'),
    issues,
  );
  if (acknowledged !== undefined) into.lastAcknowledgedAt = acknowledged;
}

function parseChangeRecord(
  raw: Record<string, unknown>,
  path: string,
  issues: ParseIssue[],
): ChangeRecord {
  const record: ChangeRecord = { changes: [], extra: {} };
  const fields = changedFieldNames(raw);
  for (const field of fields) {
    if (!isChanged(raw, field, path, issues)) {
      keepTriple(raw, field, record.extra);
      continue;
    }
    const current = readChangeValue(
      field,
      raw[`${field}_current`],
      joinPath(path, `${field}_current`),
      issues,
    );
    const prior = readChangeValue(
      field,
      raw[`${field}_prior`],
      joinPath(path, `${field}_prior`),
      issues,
    );
    record.changes.push({ field, current, prior, channel: channelOfField(field) });
  }
  const tripleKeys = new Set(fields.flatMap((field) => SUFFIXES.map((s) => `${field}${s}`)));
  for (const [key, value] of Object.entries(raw)) {
    if (!tripleKeys.has(key) && !DATE_KEYS.includes(key)) setOwn(record.extra, key, value);
  }
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

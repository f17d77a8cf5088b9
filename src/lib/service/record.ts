/**
 * Generic, tolerant reading of JSON objects described by a field spec (field name -> kind, list of
 * records, one record, or list of leaves). Known fields are normalised, unreadable values are dropped
 * and reported, unknown keys are kept verbatim in `extra`. Nothing here throws on JSON input.
 */
import {
  hasContent,
  isPlainObject,
  preview,
  readKind,
  type Kind,
  type KindValue,
} from './kinds.ts';

export interface ParseIssue {
  /** where, e.g. `crash_history[1].latitude` (empty for the root) */
  path: string;
  message: string;
}

export interface Parsed<T> {
  value: T;
  issues: ParseIssue[];
}

/** A nested array of records. */
export interface ListDef<S extends Spec = Spec> {
  readonly list: S;
}
/** One nested record; a one-element array is accepted and unwrapped. */
export interface OneDef<S extends Spec = Spec> {
  readonly one: S;
}
/** An array of leaf values (a lone scalar is accepted as a one-element array). */
export interface EachDef<K extends Kind = Kind> {
  readonly each: K;
}
export type FieldDef = Kind | ListDef | OneDef | EachDef;
export type Spec = { readonly [field: string]: FieldDef };

/** Unknown keys of a record, verbatim. */
export type Extra = Record<string, unknown>;

export type ValueOf<D> = D extends Kind
  ? KindValue<D>
  : D extends ListDef<infer S>
    ? Shape<S>[]
    : D extends OneDef<infer S>
      ? Shape<S>
      : D extends EachDef<infer K>
        ? KindValue<K>[]
        : never;

/** The normalised record of a spec: every field optional, unknown keys in `extra`. */
export type Shape<S extends Spec> = { -readonly [F in keyof S]?: ValueOf<S[F]> } & { extra: Extra };

/** Renamings applied when the canonical key is not also present (`bo3_address_city`). */
export type Aliases = Readonly<Record<string, string>>;

export function list<S extends Spec>(spec: S): ListDef<S> {
  return { list: spec };
}
export function one<S extends Spec>(spec: S): OneDef<S> {
  return { one: spec };
}
export function each<K extends Kind>(kind: K): EachDef<K> {
  return { each: kind };
}

export function joinPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/**
 * Assign without ever touching a prototype (JSON may carry a `__proto__` key). Targets are plain
 * objects, where a plain assignment of any other key creates the same own, enumerable, writable
 * and configurable property (Object.prototype has no other setter and no read-only property).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== '__proto__') {
    target[key] = value;
    return;
  }
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

export function specHas(spec: Spec, key: string): boolean {
  return Object.hasOwn(spec, key);
}

/** The spec key a raw key stands for (an alias applies unless the canonical key has a value). */
export function canonicalKey(raw: Record<string, unknown>, key: string, aliases?: Aliases): string {
  const target = aliases && Object.hasOwn(aliases, key) ? aliases[key] : undefined;
  return target !== undefined && !hasContent(raw[target]) ? target : key;
}

export function readRecord<S extends Spec>(
  raw: Record<string, unknown>,
  spec: S,
  path: string,
  issues: ParseIssue[],
  aliases?: Aliases,
): Shape<S> {
  const out: Record<string, unknown> = {};
  const extra: Extra = {};
  for (const [rawKey, value] of Object.entries(raw)) {
    const key = canonicalKey(raw, rawKey, aliases);
    const def = specHas(spec, key) ? spec[key] : undefined;
    if (def === undefined) {
      setOwn(extra, rawKey, value);
      continue;
    }
    const read = readField(value, def, joinPath(path, key), issues);
    if (read !== undefined) setOwn(out, key, read);
  }
  out.extra = extra;
  return out as Shape<S>;
}

/** True when a parsed record holds nothing: no known field and no unknown key with content. */
function isEmptyShape(record: { extra: Extra }): boolean {
  return Object.keys(record).length === 1 && !hasContent(record.extra);
}

export function readField(
  value: unknown,
  def: FieldDef,
  path: string,
  issues: ParseIssue[],
): unknown {
  if (typeof def === 'string') return readLeaf(value, def, path, issues);
  if ('list' in def) return readList(value, def.list, path, issues);
  if ('one' in def) return readOne(value, def.one, path, issues);
  return readEach(value, def.each, path, issues);
}

function readLeaf(value: unknown, kind: Kind, path: string, issues: ParseIssue[]): unknown {
  const result = readKind(kind, value);
  if (result.ok) return result.value;
  issues.push({ path, message: result.message });
  return undefined;
}

/** Arrays as they are; a lone object or scalar as a one-element array; blank as empty. */
function asArray(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === null || value === undefined || value === '' ? [] : [value];
}

function readList(value: unknown, spec: Spec, path: string, issues: ParseIssue[]): unknown {
  const items: unknown[] = [];
  asArray(value).forEach((item, index) => {
    const itemPath = joinPath(path, index);
    if (!isPlainObject(item)) {
      if (hasContent(item))
        issues.push({ path: itemPath, message: `expected an object (got ${preview(item)})` });
      return;
    }
    const record = readRecord(item, spec, itemPath, issues);
    if (!isEmptyShape(record)) items.push(record);
  });
  return items.length ? items : undefined;
}

function readOne(value: unknown, spec: Spec, path: string, issues: ParseIssue[]): unknown {
  let candidate = value;
  if (Array.isArray(value)) {
    if (value.length > 1) {
      issues.push({ path, message: `expected one object, got ${value.length}; kept the first` });
    }
    candidate = value[0];
  }
  if (!isPlainObject(candidate)) {
    if (hasContent(candidate))
      issues.push({ path, message: `expected an object (got ${preview(candidate)})` });
    return undefined;
  }
  const record = readRecord(candidate, spec, path, issues);
  return isEmptyShape(record) ? undefined : record;
}

function readEach(value: unknown, kind: Kind, path: string, issues: ParseIssue[]): unknown {
  const items: unknown[] = [];
  asArray(value).forEach((item, index) => {
    const read = readLeaf(item, kind, joinPath(path, index), issues);
    if (read !== undefined) items.push(read);
  });
  return items.length ? items : undefined;
}

/**
 * Independent check that a parse kept every known raw value that carried information: walks the raw
 * JSON and the parsed record side by side, using only the spec (not the parser's internals).
 */
import { hasContent, isPlainObject } from './kinds.ts';
import {
  canonicalKey,
  joinPath,
  specHas,
  type Aliases,
  type FieldDef,
  type Spec,
} from './record.ts';

export interface AuditFindings {
  /** raw paths of known keys with content that did not survive, or unknown keys missing from `extra` */
  lost: string[];
  /** raw paths of keys the spec does not know (kept in `extra`) */
  unknown: string[];
}

export function auditRecord(
  raw: Record<string, unknown>,
  parsed: Record<string, unknown>,
  spec: Spec,
  path: string,
  findings: AuditFindings,
  aliases?: Aliases,
): void {
  const extra = isPlainObject(parsed.extra) ? parsed.extra : {};
  for (const [rawKey, value] of Object.entries(raw)) {
    const key = canonicalKey(raw, rawKey, aliases);
    const rawPath = joinPath(path, rawKey);
    const def = specHas(spec, key) ? spec[key] : undefined;
    if (def === undefined) {
      findings.unknown.push(rawPath);
      if (!Object.hasOwn(extra, rawKey)) findings.lost.push(rawPath);
    } else if (hasContent(value)) {
      auditField(
        value,
        Object.hasOwn(parsed, key) ? parsed[key] : undefined,
        def,
        rawPath,
        findings,
      );
    }
  }
}

function auditField(
  raw: unknown,
  parsed: unknown,
  def: FieldDef,
  path: string,
  findings: AuditFindings,
): void {
  if (parsed === undefined) {
    findings.lost.push(path);
    return;
  }
  if (typeof def === 'string') return;
  if ('one' in def) {
    const first = Array.isArray(raw) ? raw[0] : raw;
    if (isPlainObject(first) && isPlainObject(parsed))
      auditRecord(first, parsed, def.one, path, findings);
    return;
  }
  const rawItems = (Array.isArray(raw) ? raw : [raw])
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => hasContent(item));
  const parsedItems = Array.isArray(parsed) ? parsed : [];
  if ('each' in def) {
    if (parsedItems.length < rawItems.length) findings.lost.push(`${path}[]`);
    return;
  }
  auditItems(rawItems, parsedItems, def.list, path, findings);
}

function auditItems(
  rawItems: { item: unknown; index: number }[],
  parsedItems: unknown[],
  spec: Spec,
  path: string,
  findings: AuditFindings,
): void {
  if (parsedItems.length !== rawItems.length) {
    findings.lost.push(`${path}[]`);
    return;
  }
  rawItems.forEach(({ item, index }, position) => {
    const parsed = parsedItems[position];
    if (isPlainObject(item) && isPlainObject(parsed)) {
      auditRecord(item, parsed, spec, joinPath(path, index), findings);
    }
  });
}

/**
 * Response envelopes: the spec's `{items, total_count}`, a bare object, or a bare array all become
 * one list of raw items (plus the total when the body states one).
 */
import { hasContent, isPlainObject, preview, readKind } from './kinds.ts';
import { joinPath, type ParseIssue } from './record.ts';

export interface RawItems {
  /** each raw item with its path in the body, for issue paths */
  items: { raw: Record<string, unknown>; path: string }[];
  totalCount?: number;
}

function isEnvelope(body: Record<string, unknown>): boolean {
  return Object.hasOwn(body, 'items') || Object.hasOwn(body, 'total_count');
}

function collect(list: unknown[], basePath: string, issues: ParseIssue[]): RawItems['items'] {
  const items: RawItems['items'] = [];
  list.forEach((item, index) => {
    const path = joinPath(basePath, index);
    if (isPlainObject(item)) items.push({ raw: item, path });
    else if (hasContent(item))
      issues.push({ path, message: `expected an object (got ${preview(item)})` });
  });
  return items;
}

function readTotal(value: unknown, issues: ParseIssue[]): number | undefined {
  const total = readKind('count', value);
  if (total.ok) return total.value;
  issues.push({ path: 'total_count', message: total.message });
  return undefined;
}

function envelopeItems(body: Record<string, unknown>, issues: ParseIssue[]): RawItems {
  const { items } = body;
  const totalCount = readTotal(body.total_count, issues);
  if (Array.isArray(items)) return { items: collect(items, 'items', issues), totalCount };
  if (isPlainObject(items)) return { items: [{ raw: items, path: 'items' }], totalCount };
  if (hasContent(items))
    issues.push({ path: 'items', message: `expected an array (got ${preview(items)})` });
  return { items: [], totalCount };
}

/** Split any response body into its raw items; never throws. */
export function unwrapItems(body: unknown, issues: ParseIssue[]): RawItems {
  if (Array.isArray(body)) return { items: collect(body, '', issues) };
  if (isPlainObject(body)) {
    if (isEnvelope(body)) return envelopeItems(body, issues);
    return { items: hasContent(body) ? [{ raw: body, path: '' }] : [] };
  }
  issues.push({ path: '', message: `expected an object or an array (got ${preview(body)})` });
  return { items: [] };
}

/** The single raw item of a one-record body (the first if several, reported). */
export function singleItem(
  body: unknown,
  issues: ParseIssue[],
): { raw: Record<string, unknown>; path: string } | undefined {
  if (isPlainObject(body) && !isEnvelope(body)) return { raw: body, path: '' };
  const { items } = unwrapItems(body, issues);
  if (items.length > 1) {
    issues.push({ path: '', message: `expected one record, got ${items.length}; kept the first` });
  }
  return items[0];
}

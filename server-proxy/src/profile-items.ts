/**
 * A profile answer comes as an envelope (`{items: [...]}`), a bare array of items or one bare item
 * (the live service sends all three). `omitProfileFields` sets named fields aside in every item and
 * keeps the answer's form, so a caller can run the shared service parser over only what it reads:
 * the heavy carrier's 13.5 MB answer takes ~0.5 s to parse whole and a few milliseconds without its
 * long histories.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function without(item: unknown, fields: readonly string[]): unknown {
  if (!isRecord(item)) return item;
  if (!fields.some((field) => field in item)) return item;
  const trimmed = { ...item };
  for (const field of fields) delete trimmed[field];
  return trimmed;
}

/** The body with `fields` removed from every profile item, whatever the answer's form. */
export function omitProfileFields(body: unknown, fields: readonly string[]): unknown {
  if (Array.isArray(body)) return body.map((item) => without(item, fields));
  if (isRecord(body) && Array.isArray(body.items)) {
    return { ...body, items: body.items.map((item) => without(item, fields)) };
  }
  return without(body, fields);
}

/** The long per-event lists of a profile: inspections, crashes and the equipment history. */
export const PROFILE_HISTORY_FIELDS = [
  'inspection_history',
  'crash_history',
  'equipment_history',
] as const;

/** The lists that grow with a carrier's activity: the histories and the equipment network. */
export const PROFILE_LONG_LISTS = [
  ...PROFILE_HISTORY_FIELDS,
  'network_graph_equipment_ext',
] as const;

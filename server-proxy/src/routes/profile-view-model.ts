/**
 * The pure half of `GET /api/local/profile-view`: which views exist, what each accepts (a zod schema
 * per view), and the bodies cut from a parsed `/v2/profile` answer. Values are read with the SPA's own
 * leaf readers (`readKind`), so sorting, filtering and ids agree with what the tabs computed from the
 * full profile. The per-history tables (ids, sort keys, coordinates) are built once per parsed answer
 * and kept with it (see `ProfileModel`); a request then filters and pages in one pass.
 */
import { z } from 'zod';
import { readKind, type Kind } from '../../../src/lib/service/index.ts';
import type {
  PagedView,
  ProfileViewNetwork,
  ProfileViewPage,
  ProfileViewPoints,
} from '../../../src/lib/carrier/contract.ts';

export const PROFILE_VIEWS = [
  'summary',
  'inspections',
  'crashes',
  'equipment',
  'inspection-points',
  'crash-points',
  'network',
] as const;
export type ProfileView = (typeof PROFILE_VIEWS)[number];

export const VIEW_QUERY_CODE = 'invalid_view_query';
const MAX_LIMIT = 10_000;
const DEFAULT_LIMIT = 100;

type Compare = 'date' | 'text' | 'number';
interface Column {
  field: string;
  kind: Kind;
  compare: Compare;
}

type TableName = PagedView;

interface TableSpec {
  history: string;
  /** the fallback id is `<prefix>-<index>` */
  prefix: string;
  /** fields tried in order for a row's id (as the SPA's tabs do) */
  idFields: readonly string[];
  /** the sort fields; the first is the default */
  columns: readonly Column[];
}

const col = (field: string, kind: Kind, compare: Compare): Column => ({ field, kind, compare });

const TABLES: Record<TableName, TableSpec> = {
  inspections: {
    history: 'inspection_history',
    prefix: 'inspection',
    idFields: ['_id', 'report_number'],
    columns: [
      col('insp_date', 'date', 'date'),
      col('report_number', 'id', 'text'),
      col('report_state', 'text', 'text'),
      col('insp_level_id', 'id', 'text'),
      col('viol_total', 'count', 'number'),
      col('oos_total', 'count', 'number'),
    ],
  },
  crashes: {
    history: 'crash_history',
    prefix: 'crash',
    idFields: ['_id', 'report_number'],
    columns: [
      col('report_date', 'date', 'date'),
      col('report_number', 'id', 'text'),
      col('report_state', 'text', 'text'),
      col('fatalities', 'count', 'number'),
      col('injuries', 'count', 'number'),
      col('tow_away', 'flag', 'number'),
    ],
  },
  equipment: {
    history: 'equipment_history',
    prefix: 'equipment',
    // The fleet tab keys its rows by `_id`, else the VIN (equipment has no report number).
    idFields: ['_id', 'vin'],
    columns: [
      col('last_inspection_date_vin', 'date', 'date'),
      col('vin', 'id', 'text'),
      col('type', 'text', 'text'),
      col('make', 'text', 'text'),
      col('model_year', 'year', 'number'),
      col('inspections_total_vin', 'count', 'number'),
    ],
  },
};

const SORT_FIELDS: Record<TableName, readonly string[]> = {
  inspections: TABLES.inspections.columns.map((c) => c.field),
  crashes: TABLES.crashes.columns.map((c) => c.field),
  equipment: TABLES.equipment.columns.map((c) => c.field),
};

const EQUIPMENT_TYPES = ['POWER UNIT', 'TRAILER'] as const;

// ---------------------------------------------------------------------------------------------
// Parameters

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** One value of a query parameter (a repeated parameter arrives as an array and is refused). */
const single = (name: string) =>
  z.string({ error: `${name} must be given once` }).max(200, `${name} is too long`);

/** An empty filter value means "no filter", as the SPA's own filters do. */
const optionalText = (name: string) =>
  single(name)
    .transform((value) => value || undefined)
    .optional();

const dateParam = (name: string) =>
  single(name)
    .refine((value) => value === '' || isCalendarDate(value), `${name} must be a date YYYY-MM-DD`)
    .transform((value) => value || undefined)
    .optional();

const wholeNumber = (name: string, min: number, max: number) =>
  single(name)
    .regex(/^\d{1,9}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be a whole number from ${min} to ${max}`);

const paging = (table: TableName) => ({
  dot_number: z.unknown().optional(),
  view: z.unknown().optional(),
  offset: wholeNumber('offset', 0, 999_999_999).default(0),
  limit: wholeNumber('limit', 1, MAX_LIMIT).default(DEFAULT_LIMIT),
  sort: z
    .enum(SORT_FIELDS[table] as [string, ...string[]], {
      error: `sort must be one of ${SORT_FIELDS[table].join(', ')}`,
    })
    .optional(),
  dir: z.enum(['asc', 'desc'], { error: 'dir must be asc or desc' }).default('desc'),
});

const inspectionFilters = {
  from: dateParam('from'),
  to: dateParam('to'),
  state: optionalText('state'),
  level: optionalText('level'),
  oos: z
    .enum(['0', '1', ''], { error: 'oos must be 1 (out of service only) or 0' })
    .transform((value) => value === '1')
    .optional(),
};

const crashFilters = { from: dateParam('from'), to: dateParam('to') };

const equipmentFilters = {
  type: single('type')
    .transform((value) => value.toUpperCase())
    .refine(
      (value) => value === '' || (EQUIPMENT_TYPES as readonly string[]).includes(value),
      `type must be ${EQUIPMENT_TYPES.join(' or ')}`,
    )
    .transform((value) => value || undefined)
    .optional(),
};

const bare = { dot_number: z.unknown().optional(), view: z.unknown().optional() };

export const VIEW_SCHEMAS = {
  summary: z.strictObject(bare),
  network: z.strictObject(bare),
  inspections: z.strictObject({ ...paging('inspections'), ...inspectionFilters }),
  crashes: z.strictObject({ ...paging('crashes'), ...crashFilters }),
  equipment: z.strictObject({ ...paging('equipment'), ...equipmentFilters }),
  'inspection-points': z.strictObject({ ...bare, ...inspectionFilters }),
  'crash-points': z.strictObject({ ...bare, ...crashFilters }),
} satisfies Record<ProfileView, z.ZodType>;

/** What each view accepts besides `dot_number` and `view` (nothing: ''), for the hints. */
export const VIEW_PARAMETERS: Record<ProfileView, string> = {
  summary: '',
  network: '',
  inspections: `offset, limit (1-${MAX_LIMIT}), sort (${SORT_FIELDS.inspections.join(', ')}), dir (asc|desc), from, to (YYYY-MM-DD), state, level, oos=1`,
  crashes: `offset, limit (1-${MAX_LIMIT}), sort (${SORT_FIELDS.crashes.join(', ')}), dir (asc|desc), from, to (YYYY-MM-DD)`,
  equipment: `offset, limit (1-${MAX_LIMIT}), sort (${SORT_FIELDS.equipment.join(', ')}), dir (asc|desc), type (${EQUIPMENT_TYPES.join(' | ')})`,
  'inspection-points': 'from, to (YYYY-MM-DD), state, level, oos=1',
  'crash-points': 'from, to (YYYY-MM-DD)',
};

export interface Filters {
  from?: string | undefined;
  to?: string | undefined;
  state?: string | undefined;
  level?: string | undefined;
  oos?: boolean | undefined;
  type?: string | undefined;
}

export interface PageQuery extends Filters {
  offset: number;
  limit: number;
  sort: string;
  dir: 'asc' | 'desc';
}

// ---------------------------------------------------------------------------------------------
// Tables cut from the answer

type Key = string | number | undefined;

interface Row {
  index: number;
  id: string;
  item: Record<string, unknown>;
  /** sort keys, one per column of the table's spec */
  keys: Key[];
  point: [number, number] | undefined;
}

interface Table {
  spec: TableSpec;
  rows: Row[];
  /** row positions per `sort:dir`, built on first use */
  orders: Map<string, number[]>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The one profile item of an answer: an envelope's first item, an array's first, or the object. */
export function profileItemOf(body: unknown): Record<string, unknown> | undefined {
  const first = (list: unknown[]) => (isRecord(list[0]) ? list[0] : undefined);
  if (Array.isArray(body)) return first(body);
  if (isRecord(body) && Array.isArray(body.items)) return first(body.items);
  if (isRecord(body) && !('items' in body) && Object.keys(body).length > 0) return body;
  return undefined;
}

function read(kind: Kind, value: unknown): unknown {
  const result = readKind(kind, value);
  return result.ok ? result.value : undefined;
}

function keyOf(column: Column, value: unknown): Key {
  const known = read(column.kind, value);
  if (typeof known === 'boolean') return known ? 1 : 0;
  return typeof known === 'string' || typeof known === 'number' ? known : undefined;
}

function isValidCoordinate(lat: number, lon: number): boolean {
  return (
    Number.isFinite(lat) &&
    Number.isFinite(lon) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lon) <= 180 &&
    !(lat === 0 && lon === 0)
  );
}

/** `geo_point` first, else `latitude`/`longitude` (as the map's `coordinateOf`), as [lon, lat]. */
export function pointOf(item: Record<string, unknown>): [number, number] | undefined {
  const geo = read('point', item.geo_point) as { lat: number; lon: number } | undefined;
  if (geo && isValidCoordinate(geo.lat, geo.lon)) return [geo.lon, geo.lat];
  const lat = read('rate', item.latitude);
  const lon = read('rate', item.longitude);
  if (typeof lat === 'number' && typeof lon === 'number' && isValidCoordinate(lat, lon)) {
    return [lon, lat];
  }
  return undefined;
}

function idOf(spec: TableSpec, item: Record<string, unknown>, index: number): string {
  for (const field of spec.idFields) {
    const id = read('id', item[field]);
    if (typeof id === 'string') return id;
  }
  return `${spec.prefix}-${index}`;
}

/** A history as the SPA's parser reads it: an array, or a lone object as a one-element array. */
function historyOf(item: Record<string, unknown>, field: string): unknown[] {
  const value = item[field];
  if (Array.isArray(value)) return value;
  return isRecord(value) ? [value] : [];
}

function buildTable(spec: TableSpec, profile: Record<string, unknown>): Table {
  const rows: Row[] = [];
  historyOf(profile, spec.history).forEach((item, index) => {
    // Not a record: nothing to show (the SPA's parser drops it too); the index stays the service's.
    if (!isRecord(item)) return;
    rows.push({
      index,
      id: idOf(spec, item, index),
      item,
      keys: spec.columns.map((column) => keyOf(column, item[column.field])),
      point: pointOf(item),
    });
  });
  return { spec, rows, orders: new Map() };
}

const NATURAL = new Intl.Collator('en', { numeric: true });

function compareKeys(a: Key, b: Key, compare: Compare): number {
  if (compare === 'number') return (a as number) - (b as number);
  if (compare === 'date') return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
  return NATURAL.compare(String(a), String(b));
}

/** Row positions sorted by one column: stable (history order on ties), missing values last. */
function orderOf(table: Table, sort: string, dir: 'asc' | 'desc'): number[] {
  const name = `${sort}:${dir}`;
  const known = table.orders.get(name);
  if (known) return known;
  const at = table.spec.columns.findIndex((c) => c.field === sort);
  const column = table.spec.columns[at];
  if (!column) throw new Error(`no column ${sort}`);
  const sign = dir === 'asc' ? 1 : -1;
  const { rows } = table;
  const order = rows.map((_, i) => i);
  order.sort((i, j) => {
    const a = rows[i]?.keys[at];
    const b = rows[j]?.keys[at];
    if (a === undefined || b === undefined) {
      if (a !== b) return a === undefined ? 1 : -1;
      return i - j;
    }
    return sign * compareKeys(a, b, column.compare) || i - j;
  });
  table.orders.set(name, order);
  return order;
}

function keyAt(table: Table, row: Row, field: string): Key {
  return row.keys[table.spec.columns.findIndex((c) => c.field === field)];
}

/** The filters as one predicate; the same semantics as the SPA's `filterInspections`. */
function matcher(table: Table, filters: Filters): (row: Row) => boolean {
  const dateField = table.spec.columns[0]?.field ?? '';
  const column = (field: string) => table.spec.columns.findIndex((c) => c.field === field);
  const dateAt = column(dateField);
  const stateAt = column('report_state');
  const levelAt = column('insp_level_id');
  const oosAt = column('oos_total');
  const typeAt = column('type');
  const { from, to, state, level, oos, type } = filters;
  const dated = Boolean(from ?? to);
  return (row) => {
    if (dated) {
      const date = row.keys[dateAt] as string | undefined;
      if (!date || (from && date < from) || (to && date > to)) return false;
    }
    if (state !== undefined && row.keys[stateAt] !== state) return false;
    if (level !== undefined && row.keys[levelAt] !== level) return false;
    if (oos && !(((row.keys[oosAt] as number | undefined) ?? 0) > 0)) return false;
    if (type !== undefined && String(row.keys[typeAt] ?? '').toUpperCase() !== type) return false;
    return true;
  };
}

/** The bodies of the views (src/lib/carrier/contract.ts). */
type PagedBody = ProfileViewPage;
type PointsBody = ProfileViewPoints;
type NetworkBody = ProfileViewNetwork;

function distinctSorted(values: Key[]): string[] {
  const present = values.filter((v): v is string => typeof v === 'string' && v !== '');
  return [...new Set(present)].sort(NATURAL.compare);
}

/** The VINs the carrier shares with others (`network_graph_equipment_ext[].shared_vins[].vin`). */
function sharedVins(profile: Record<string, unknown>): Set<string> {
  const vins = new Set<string>();
  const ext = profile.network_graph_equipment_ext;
  for (const entry of Array.isArray(ext) ? ext : []) {
    // the live service sometimes wraps an object in a one-element array
    const carrier: unknown = Array.isArray(entry) && entry.length === 1 ? entry[0] : entry;
    const shared: unknown = isRecord(carrier) ? carrier.shared_vins : undefined;
    for (const vehicle of Array.isArray(shared) ? shared : []) {
      const vin: unknown = isRecord(vehicle) ? vehicle.vin : undefined;
      if (typeof vin === 'string' && vin) vins.add(vin);
    }
  }
  return vins;
}

/** What the graph's evidence panel shows of a shared VIN from the carrier's own equipment. */
const VEHICLE_FIELDS = ['vin', 'make', 'model', 'model_year', 'last_inspection_date_vin_dot'];

/**
 * The carrier's own records of the VINs it shares, trimmed to what the network graph reads: its
 * equipment entries (make, model, year, last inspection under this DOT) and, per VIN, the latest
 * inspection of its history that names it (date and VINs only). A few kB where the whole
 * equipment and inspection histories are megabytes for a big fleet.
 */
function sharedVinRecords(profile: Record<string, unknown>): Record<string, unknown> {
  const vins = sharedVins(profile);
  if (vins.size === 0) return {};
  const equipment = Array.isArray(profile.equipment_history) ? profile.equipment_history : [];
  const vehicles = equipment.filter(
    (v): v is Record<string, unknown> =>
      isRecord(v) && typeof v.vin === 'string' && vins.has(v.vin),
  );
  // the latest inspection date of each shared VIN, then the inspections grouped by date
  const latest = new Map<string, string>();
  const inspections = Array.isArray(profile.inspection_history) ? profile.inspection_history : [];
  for (const inspection of inspections) {
    if (!isRecord(inspection)) continue;
    const date = read('date', inspection.insp_date);
    const units: unknown = inspection.vins;
    if (typeof date !== 'string' || !Array.isArray(units)) continue;
    for (const unit of units) {
      const vin: unknown = isRecord(unit) ? unit.vin : undefined;
      if (typeof vin !== 'string' || !vins.has(vin)) continue;
      const seen = latest.get(vin);
      if (!seen || seen < date) latest.set(vin, date);
    }
  }
  const byDate = new Map<string, { vin: string }[]>();
  for (const [vin, date] of latest) byDate.set(date, [...(byDate.get(date) ?? []), { vin }]);
  const records: Record<string, unknown> = {};
  if (vehicles.length > 0) {
    records.equipment_history = vehicles.map((v) =>
      Object.fromEntries(VEHICLE_FIELDS.filter((f) => f in v).map((f) => [f, v[f]])),
    );
  }
  if (byDate.size > 0) {
    records.inspection_history = [...byDate]
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .map(([insp_date, units]) => ({ insp_date, vins: units }));
  }
  return records;
}

/**
 * The network tab's fields of the item, exactly as sent, and the carrier's own records of the VINs
 * it shares (`sharedVinRecords`): everything the Network tab and its graph read beyond the summary.
 */
export function networkItem(profile: Record<string, unknown>): Record<string, unknown> {
  const item: Record<string, unknown> = sharedVinRecords(profile);
  for (const [name, value] of Object.entries(profile)) {
    if (
      name.startsWith('network_graph_') ||
      name.startsWith('indicator_network_graph_') ||
      name === 'shared_power_units' ||
      name === 'shared_trailers'
    ) {
      item[name] = value;
    }
  }
  return item;
}

/**
 * One parsed profile item and the tables cut from it, built on first use. Kept beside the parsed
 * answer (a WeakMap in the route), so it goes when the parsed answer does.
 */
export class ProfileModel {
  private readonly tables = new Map<TableName, Table>();
  private extras: Pick<PagedBody, 'choices' | 'state_counts'> | undefined;

  constructor(
    readonly profile: Record<string, unknown>,
    readonly dot: string,
  ) {}

  private table(name: TableName): Table {
    let table = this.tables.get(name);
    if (!table) {
      table = buildTable(TABLES[name], this.profile);
      this.tables.set(name, table);
    }
    return table;
  }

  /** Filter choices and per-state counts over the whole inspection history. */
  private inspectionExtras(): Pick<PagedBody, 'choices' | 'state_counts'> {
    if (this.extras) return this.extras;
    const table = this.table('inspections');
    const states = table.rows.map((row) => keyAt(table, row, 'report_state'));
    const counts = new Map<string, number>();
    for (const state of states) {
      if (typeof state === 'string' && state) counts.set(state, (counts.get(state) ?? 0) + 1);
    }
    this.extras = {
      choices: {
        states: distinctSorted(states),
        levels: distinctSorted(table.rows.map((row) => keyAt(table, row, 'insp_level_id'))),
      },
      state_counts: [...counts]
        .map(([state, inspections]) => ({ state, inspections }))
        .sort((a, b) => b.inspections - a.inspections || (a.state < b.state ? -1 : 1)),
    };
    return this.extras;
  }

  page(view: TableName, query: PageQuery): PagedBody {
    const table = this.table(view);
    const matches = matcher(table, query);
    const end = query.offset + query.limit;
    const rows: PagedBody['rows'] = [];
    let matched = 0;
    for (const position of orderOf(table, query.sort, query.dir)) {
      const row = table.rows[position];
      if (!row || !matches(row)) continue;
      if (matched >= query.offset && matched < end) {
        rows.push({ id: row.id, index: row.index, item: row.item });
      }
      matched += 1;
    }
    const { offset, limit, sort, dir } = query;
    const body: PagedBody = {
      view,
      dot_number: this.dot,
      total: table.rows.length,
      matched,
      offset,
      limit,
      sort,
      dir,
      rows,
    };
    return view === 'inspections' ? { ...body, ...this.inspectionExtras() } : body;
  }

  points(view: 'inspection-points' | 'crash-points', filters: Filters): PointsBody {
    const table = this.table(view === 'inspection-points' ? 'inspections' : 'crashes');
    const matches = matcher(table, filters);
    const points: PointsBody['points'] = [];
    for (const row of table.rows) {
      if (row.point && matches(row)) points.push([row.point[0], row.point[1], row.id]);
    }
    return { view, dot_number: this.dot, total: points.length, points };
  }

  network(): NetworkBody {
    return { view: 'network', dot_number: this.dot, item: networkItem(this.profile) };
  }
}

/** The default sort of a paged view: its first field. */
export function defaultSort(view: TableName): string {
  return SORT_FIELDS[view][0] ?? '';
}

export function isPagedView(view: ProfileView): view is TableName {
  return view === 'inspections' || view === 'crashes' || view === 'equipment';
}

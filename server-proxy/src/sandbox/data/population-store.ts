/**
 * Columnar identity of the seeded population: what search and autocomplete need for every row,
 * packed into typed arrays and text columns. Everything else is re-derived per row on demand.
 */
import type { Address } from './model.ts';
import { normaliseAddress, normaliseName, normalisePhone } from './normalise.ts';
import {
  blockRoot,
  dotOfRow,
  ownIdentity,
  populationIdentity,
  type EntityKind,
  type PopulationIdentity,
} from './population-identity.ts';
import { unitBase, unitCounts } from './population-model.ts';
import { NameIndex } from './name-index.ts';
import { REGIONS } from './places.ts';
import { TextColumn } from './text-column.ts';
import type { CarrierIdentity } from './types.ts';

/** Normalised form of a generated address (its parts hold only letters, digits and spaces). */
function compactAddress(a: Address): string {
  return `${a.street}${a.city}${a.state}${a.zip}`.replaceAll(' ', '');
}

const KINDS: readonly EntityKind[] = ['carrier', 'broker', 'broker_carrier', 'intrastate'];
const PREFIXES = ['', 'MC', 'MX', 'FF'] as const;

export interface RankedRow {
  row: number;
  /** 0 = current value, 1 = historical only (company search refines current matches further) */
  rank: number;
}

export class PopulationStore {
  readonly size: number;
  private readonly region: Uint8Array;
  private readonly city: Uint8Array;
  private readonly kind: Uint8Array;
  private readonly docketPrefix: Uint8Array;
  private readonly eins: Uint32Array;
  /** per row: the legal name, then the DBA name when there is one (also where names are read) */
  private readonly names: TextColumn;
  private readonly pastNames: TextColumn;
  private readonly phones: TextColumn;
  private readonly pastPhones: TextColumn;
  private readonly emails: TextColumn;
  private readonly pastEmails: TextColumn;
  private readonly addresses: TextColumn;
  private readonly pastAddresses: TextColumn;
  /** name entries (row * 2 + 0 legal / 1 DBA) by prefix */
  private readonly nameIndex: NameIndex;

  constructor(
    readonly seed: number,
    size: number,
  ) {
    this.size = size;
    this.region = new Uint8Array(size);
    this.city = new Uint8Array(size);
    this.kind = new Uint8Array(size);
    this.docketPrefix = new Uint8Array(size);
    this.eins = new Uint32Array(size);
    // Names are kept only in their text column, not as a million heap strings (about 65 MB of
    // old space at 1,000,000 rows, and start-up garbage while they were promoted).
    const b = {
      names: TextColumn.builder(size),
      pastNames: TextColumn.builder(),
      phones: TextColumn.builder(size),
      pastPhones: TextColumn.builder(),
      emails: TextColumn.builder(size),
      pastEmails: TextColumn.builder(),
      addresses: TextColumn.builder(size),
      pastAddresses: TextColumn.builder(),
    };
    let root: PopulationIdentity | undefined;
    for (let row = 0; row < size; row += 1) {
      if (row === blockRoot(row)) root = ownIdentity(seed, row);
      const id = row === root?.row ? root : populationIdentity(seed, row, root);
      this.store(id, b);
    }
    this.names = b.names.build();
    this.pastNames = b.pastNames.build();
    this.phones = b.phones.build();
    this.pastPhones = b.pastPhones.build();
    this.emails = b.emails.build();
    this.pastEmails = b.pastEmails.build();
    this.addresses = b.addresses.build();
    this.pastAddresses = b.pastAddresses.build();
    this.nameIndex = this.indexNames();
  }

  private store(id: PopulationIdentity, b: Record<string, ReturnType<typeof TextColumn.builder>>): void {
    const row = id.row;
    this.region[row] = REGIONS.indexOf(id.region);
    this.city[row] = Math.max(0, id.region.cities.findIndex((c) => c.name === id.address.city));
    this.kind[row] = KINDS.indexOf(id.kind);
    this.docketPrefix[row] = PREFIXES.indexOf(id.docketPrefix ?? '');
    this.eins[row] = Number(id.ein);
    b.names?.add(row, id.dbaName ? [id.legalName, id.dbaName] : [id.legalName]);
    b.phones?.add(row, [id.phone]);
    b.emails?.add(row, [id.email]);
    b.addresses?.add(row, [compactAddress(id.address)]);
    if (id.past.name) b.pastNames?.add(row, [normaliseName(id.past.name)]);
    if (id.past.phone) b.pastPhones?.add(row, [id.past.phone]);
    if (id.past.email) b.pastEmails?.add(row, [id.past.email]);
    if (id.past.address) b.pastAddresses?.add(row, [normaliseAddress(id.past.address)]);
  }

  private legalName(row: number): string {
    return this.names.value(row, 0) ?? '';
  }

  private dbaName(row: number): string | undefined {
    return this.names.value(row, 1);
  }

  /** Entry `row * 2` is a row's legal name, `row * 2 + 1` its DBA name. */
  private nameOfEntry(entry: number): string {
    const row = entry >>> 1;
    return (entry & 1 ? this.dbaName(row) : this.legalName(row)) ?? '';
  }

  private indexNames(): NameIndex {
    return new NameIndex(
      (entry) => this.nameOfEntry(entry),
      this.size * 2,
      (add) => {
        for (let row = 0; row < this.size; row += 1) {
          add(row * 2);
          if (this.dbaName(row) !== undefined) add(row * 2 + 1);
        }
      },
    );
  }

  rowOfDot(dot: string): number | undefined {
    if (!/^\d+$/.test(dot)) return undefined;
    const row = Number(dot) - Number(dotOfRow(0));
    return row >= 0 && row < this.size ? row : undefined;
  }

  kindOf(row: number): EntityKind {
    return KINDS[this.kind[row] ?? 0] ?? 'carrier';
  }

  identity(row: number): CarrierIdentity {
    const region = REGIONS[this.region[row] ?? 0];
    const prefix = PREFIXES[this.docketPrefix[row] ?? 0];
    const dba = this.dbaName(row);
    return {
      dot: dotOfRow(row),
      legalName: this.legalName(row),
      ...(dba ? { dbaName: dba } : {}),
      ...(prefix ? { docket: `${prefix}${2_000_000 + row}` } : {}),
      city: region?.cities[this.city[row] ?? 0]?.name ?? '',
      state: region?.code ?? '',
    };
  }

  /** Rows whose docket matches; a prefix narrows, no prefix accepts MC/MX/FF alike. */
  docket(prefix: string | undefined, number: string): number[] {
    const row = Number(number) - 2_000_000;
    if (row < 0 || row >= this.size) return [];
    const own = PREFIXES[this.docketPrefix[row] ?? 0];
    if (!own || (prefix && prefix !== own)) return [];
    return [row];
  }

  ein(value: string): number[] {
    const target = Number(value);
    const rows: number[] = [];
    for (let row = 0; row < this.size; row += 1) if (this.eins[row] === target) rows.push(row);
    return rows;
  }

  private ranked(current: number[], past: number[]): RankedRow[] {
    const seen = new Set(current);
    return [
      ...current.map((row) => ({ row, rank: 0 })),
      ...past.filter((row) => !seen.has(row)).map((row) => ({ row, rank: 1 })),
    ];
  }

  /** Company rows: rank 0 exact name, 1 prefix, 2 substring, 3 historical names only. */
  company(query: string): RankedRow[] {
    const q = normaliseName(query);
    const current = this.names.find(q).map((row) => {
      const names = [this.legalName(row), this.dbaName(row) ?? ''];
      const rank = names.includes(q) ? 0 : names.some((n) => n.startsWith(q)) ? 1 : 2;
      return { row, rank };
    });
    const seen = new Set(current.map((r) => r.row));
    const past = this.pastNames.find(q).filter((row) => !seen.has(row));
    return [...current, ...past.map((row) => ({ row, rank: 3 }))];
  }

  phone(query: string): RankedRow[] {
    const q = normalisePhone(query);
    return this.ranked(this.phones.find(q, 'exact'), this.pastPhones.find(q, 'exact'));
  }

  email(full: string | undefined, domain: string | undefined): RankedRow[] {
    if (full) return this.ranked(this.emails.find(full, 'exact'), this.pastEmails.find(full, 'exact'));
    if (!domain) return [];
    const needle = `@${domain}`;
    return this.ranked(this.emails.find(needle, 'suffix'), this.pastEmails.find(needle, 'suffix'));
  }

  address(query: string): RankedRow[] {
    const q = normaliseAddress(query);
    return this.ranked(this.addresses.find(q), this.pastAddresses.find(q));
  }

  /** Rows owning company unit number `n` (own slots; sharing members are added by the caller). */
  unitNumber(n: number, unitType?: 'TRUCK' | 'TRAILER'): number[] {
    const rows: number[] = [];
    for (let row = 0; row < this.size; row += 1) {
      const offset = n - unitBase(this.seed, row);
      if (offset < 0 || offset >= 60) continue;
      const counts = unitCounts(this.seed, row, this.kindOf(row));
      const truck = offset < counts.power;
      const trailer = offset >= 50 && offset - 50 < counts.trailers;
      if ((truck && unitType !== 'TRAILER') || (trailer && unitType !== 'TRUCK')) rows.push(row);
    }
    return rows;
  }

  /** Rows with a legal or DBA name starting with `prefix`, in name order, at most `limit`. */
  namePrefix(prefix: string, limit: number): number[] {
    const rows: number[] = [];
    for (const entry of this.nameIndex.prefix(normaliseName(prefix), limit * 2)) {
      if (!rows.includes(entry >>> 1)) rows.push(entry >>> 1);
    }
    return rows.slice(0, limit);
  }
}

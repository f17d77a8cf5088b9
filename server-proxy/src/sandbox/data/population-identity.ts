/**
 * Identity of a generated (population) carrier, derived from (seed, row) alone. Rows are grouped in
 * blocks of 8; in some blocks members share identifiers (phone, address, email, EIN, equipment) with
 * the block's first row, which forms small networks that searches and network graphs reveal.
 */
import { addressLine, makeAddress, phoneIn } from './generate.ts';
import type { Address } from './model.ts';
import { REGIONS, REGION_CUMULATIVE, type Region } from './places.ts';
import { Rng, hash, unit } from './prng.ts';
import {
  BRAND_WORDS,
  EMAIL_MAILBOXES,
  EMAIL_PROVIDERS,
  PLACE_WORDS,
  SUFFIXES,
  SURNAMES,
  TRADE_WORDS,
} from './words.ts';

export const POPULATION_DOT_BASE = 5_000_000;
const POPULATION_DOCKET_BASE = 2_000_000;
const BLOCK_SIZE = 8;

export type SharedKey = 'phone' | 'address' | 'email' | 'ein' | 'equipment';
const SHARE_ODDS: Record<SharedKey, number> = { phone: 0.4, address: 0.3, email: 0.2, ein: 0.15, equipment: 0.3 };

export type EntityKind = 'carrier' | 'broker' | 'broker_carrier' | 'intrastate';

export interface PopulationIdentity {
  row: number;
  dot: string;
  legalName: string;
  dbaName?: string;
  docketPrefix?: 'MC' | 'MX' | 'FF';
  docketNumber?: string;
  ein: string;
  region: Region;
  address: Address;
  phone: string;
  email: string;
  kind: EntityKind;
  past: { name?: string; phone?: string; email?: string; address?: string };
}

export function dotOfRow(row: number): string {
  return String(POPULATION_DOT_BASE + row);
}

export function blockRoot(row: number): number {
  return row - (row % BLOCK_SIZE);
}

/** Whether `row` copies `key` from its block root (never true for the root itself). */
export function sharesWithRoot(seed: number, row: number, key: SharedKey): boolean {
  const root = blockRoot(row);
  if (row === root || unit(hash(seed, root, 0xb10c)) >= 0.25) return false;
  return unit(hash(seed, row, key.length, 0x5a4e)) < SHARE_ODDS[key];
}

const LOWER = new Map<string, string>();
for (const word of [...SURNAMES, ...PLACE_WORDS, ...BRAND_WORDS]) {
  LOWER.set(word, word.toLowerCase().replace(/[^a-z]/g, ''));
}
const lower = (word: string) => LOWER.get(word) ?? '';

/** A company name and the e-mail stem made of its first words. */
function companyName(rng: Rng): { name: string; stem: string } {
  const trade = rng.pick(TRADE_WORDS);
  const pattern = rng.int(0, 4);
  const a = rng.pick(pattern === 1 ? PLACE_WORDS : pattern === 2 || pattern === 4 ? BRAND_WORDS : SURNAMES);
  const b = pattern === 3 ? rng.pick(SURNAMES) : pattern === 4 ? rng.pick(PLACE_WORDS) : undefined;
  const head = b === undefined ? a : pattern === 3 ? `${a} & ${b}` : `${a} ${b}`;
  return { name: `${head} ${trade} ${rng.pick(SUFFIXES)}`, stem: lower(a) + (b ? lower(b) : '') };
}

/**
 * The company e-mail domains of the fixture carriers (curated, heavy, live shape; current and past).
 * A domain belongs to one company, so the population never writes from one: a "HANSEN & ADKINS"
 * row would otherwise use hansenadkins.com, and a search by that domain (the tender check's) would
 * find a second carrier behind the fixture's own address.
 */
export const FIXTURE_EMAIL_DOMAINS: ReadonlySet<string> = new Set([
  'hansenadkins.com',
  'hansenauto.net',
  'fedex.com',
  'swiftpathexpress.com',
  'ironcladfreight.com',
  'clearpathlogistics.com',
  'valleyfreshdairy.com',
  'lakeshorecoach.com',
  'gulfcoasttank.com',
  'trilliumtransport.ca',
  'trilliumxb.com',
  'tbfnational.com',
]);

function emailFor(rng: Rng, stem: string): string {
  if (rng.chance(0.3)) return `${stem}${rng.int(1, 99)}@${rng.pick(EMAIL_PROVIDERS).toLowerCase()}`;
  const mailbox = rng.pick(EMAIL_MAILBOXES).toLowerCase();
  const domain = `${stem}${rng.pick(['', 'inc', 'llc', 'co'])}.com`;
  return `${mailbox}@${FIXTURE_EMAIL_DOMAINS.has(domain) ? `${stem}freight.com` : domain}`;
}

function entityKind(rng: Rng): EntityKind {
  return rng.weighted(['carrier', 'broker', 'broker_carrier', 'intrastate'] as const, [80, 5, 4, 11]);
}

function docket(rng: Rng, kind: EntityKind): PopulationIdentity['docketPrefix'] {
  if (kind === 'intrastate') return undefined;
  return rng.weighted(['MC', 'MX', 'FF', undefined] as const, [84, 4, 2, 10]);
}

/** The row's own values, before any sharing with its block root. */
export function ownIdentity(seed: number, row: number): PopulationIdentity {
  const rng = new Rng(seed, row, 0x1d);
  const company = companyName(rng);
  const legalName = company.name;
  const dbaName = rng.chance(0.18) ? `${rng.pick(BRAND_WORDS)} ${rng.pick(TRADE_WORDS)}` : undefined;
  const kind = entityKind(rng);
  const docketPrefix = docket(rng, kind);
  const region = rng.pickCumulative(REGIONS, REGION_CUMULATIVE);
  const address = makeAddress(rng, region);
  const city = region.cities.find((c) => c.name === address.city) ?? region.cities[0];
  const phone = phoneIn(rng, city?.areaCode ?? '555');
  const email = emailFor(rng, company.stem);
  const ein = rng.digits(9);
  const pastRng = new Rng(seed, row, 0x9a57);
  return {
    row,
    dot: dotOfRow(row),
    legalName,
    dbaName,
    docketPrefix,
    docketNumber: docketPrefix ? String(POPULATION_DOCKET_BASE + row) : undefined,
    ein,
    region,
    address,
    phone,
    email,
    kind,
    past: {
      name: pastRng.chance(0.05) ? companyName(pastRng).name : undefined,
      phone: pastRng.chance(0.12) ? phoneIn(pastRng, city?.areaCode ?? '555') : undefined,
      email: pastRng.chance(0.1) ? emailFor(pastRng, company.stem) : undefined,
      address: pastRng.chance(0.08) ? addressLine(makeAddress(pastRng, region)) : undefined,
    },
  };
}

/** The row's identity with shared identifiers copied from its block root. */
export function populationIdentity(
  seed: number,
  row: number,
  rootIdentity?: PopulationIdentity,
): PopulationIdentity {
  const own = ownIdentity(seed, row);
  const root = blockRoot(row);
  if (row === root) return own;
  const shares = (key: SharedKey) => sharesWithRoot(seed, row, key);
  if (!shares('phone') && !shares('address') && !shares('email') && !shares('ein')) return own;
  const r = rootIdentity ?? ownIdentity(seed, root);
  return {
    ...own,
    phone: shares('phone') ? r.phone : own.phone,
    address: shares('address') ? r.address : own.address,
    region: shares('address') ? r.region : own.region,
    email: shares('email') ? r.email : own.email,
    ein: shares('ein') ? r.ein : own.ein,
  };
}

/** Rows of the block (other than `row`) that share `key` with `row`. */
export function networkRows(seed: number, row: number, key: SharedKey, size: number): number[] {
  const root = blockRoot(row);
  const members: number[] = [];
  for (let r = root + 1; r < Math.min(root + BLOCK_SIZE, size); r += 1) {
    if (sharesWithRoot(seed, r, key)) members.push(r);
  }
  if (row === root) return members;
  if (!sharesWithRoot(seed, row, key)) return [];
  return [root, ...members.filter((r) => r !== row)];
}

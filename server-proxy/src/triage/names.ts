/**
 * Carrier names the proxy already holds, for the inbox's Name column and CSV (change records carry
 * no name). Read from the name store (every name the proxy has seen in an answer: ../names/), then
 * the held answers (the mirror's peek: this replica's cache, else the shared one in team mode;
 * full, lite and FMCSA profiles asked for by DOT, and the `q=<dot>`
 * autocomplete answers of watch-list resolution; what the store may not have written yet), then
 * the newest decision record of the DOT (its evidence keeps the legal name). Nothing is ever
 * called upstream: the route is free, and a DOT with no held name is simply left out.
 */
import type { Endpoint } from '../context.ts';
import type { SqlEngine } from '../sql/engine.ts';
import { parseInput, type InputWording } from '../http/parse-input.ts';
import {
  HELD_NAMES_HINT,
  heldNamesQuerySchema,
  type HeldName,
} from '../../../src/lib/monitoring/contract.ts';
import type { MirrorPeek } from '../routes/mirror.ts';
import { parseAutocomplete } from '../../../src/lib/service/autocomplete.ts';
import { parseFmcsaProfile } from '../../../src/lib/service/fmcsa.ts';
import { parseLiteResponse } from '../../../src/lib/service/lite.ts';
import { parseProfileResponse } from '../../../src/lib/service/profile.ts';
import type { Checked } from './inputs.ts';
import { placeholders } from '../sql/placeholders.ts';
import { createCarrierNameStore, type NameSource } from '../names/store.ts';

/** Resolution asks autocomplete with this limit (resolve.ts); the SPA's omnibox without one. */
const AUTOCOMPLETE_LIMITS = [undefined, '15'];

/** How `GET /api/local/triage/names` words a bad query (its schema: the route's contract). */
export const NAMES_WORDING: InputWording = {
  hint: HELD_NAMES_HINT,
  unknown: { code: 'unknown_parameter', message: (key) => `Unknown parameter "${key}"` },
};

/** GET /api/local/triage/names: `dots=` (comma-separated or repeated), 1–500 USDOT numbers. */
export function parseNamesQuery(query: unknown): Checked<string[]> {
  return parseInput(heldNamesQuerySchema, query ?? {}, NAMES_WORDING);
}

function nameOf(item: { legal_name?: unknown; dba_name?: unknown } | null | undefined) {
  const name = item?.legal_name ?? item?.dba_name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}

function sameDot(value: unknown, dot: string): boolean {
  return typeof value === 'string' && value.replace(/^0+/, '') === dot;
}

/** Peeks at once: each DOT's sources are asked in order, several DOTs side by side. */
const DOTS_AT_ONCE = 50;

async function cachedJson(cache: MirrorPeek, endpoint: Endpoint, query: Record<string, string>) {
  // a request the mirror would refuse holds nothing (the peek says so)
  const stored = await cache.peek(endpoint, query);
  if (stored?.status !== 200) return undefined;
  try {
    return JSON.parse(stored.body) as unknown;
  } catch {
    return undefined;
  }
}

/** The name a cached answer about `dot` gives, first source first. */
async function cachedName(cache: MirrorPeek, dot: string): Promise<HeldName | undefined> {
  const byDot = { dot_number: dot };
  const readers: [NameSource, () => Promise<string | undefined>][] = [
    [
      'profile',
      async () =>
        nameOf(
          parseProfileResponse(await cachedJson(cache, 'profile', byDot)).value.items.find((item) =>
            sameDot(item.dot_number, dot),
          ),
        ),
    ],
    [
      'profile-lite',
      async () =>
        nameOf(
          parseLiteResponse(await cachedJson(cache, 'profile-lite', byDot)).value.items.find(
            (item) => sameDot(item.dot_number, dot),
          ),
        ),
    ],
    [
      'profile-fmcsa',
      async () => {
        const json = await cachedJson(cache, 'profile-fmcsa', byDot);
        if (json === undefined) return undefined;
        const record = parseFmcsaProfile(json).value;
        return record && sameDot(record.dot_number, dot) ? nameOf(record) : undefined;
      },
    ],
    [
      'autocomplete',
      async () => {
        for (const limit of AUTOCOMPLETE_LIMITS) {
          const json = await cachedJson(cache, 'autocomplete', { q: dot, ...(limit && { limit }) });
          if (json === undefined) continue;
          const item = parseAutocomplete(json).value.find((s) => sameDot(s.dot_number, dot));
          const name = nameOf(item);
          if (name) return name;
        }
        return undefined;
      },
    ],
  ];
  for (const [source, read] of readers) {
    const name = await read();
    if (name) return { name, source };
  }
  return undefined;
}

interface DecisionContent {
  profile?: { identity?: { name?: unknown; value?: unknown }[] };
}

/** The legal name kept in the newest decision record of each DOT. */
async function decisionNames(
  sql: SqlEngine,
  dots: readonly string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (dots.length === 0) return names;
  const rows = await sql.query<{ dot_number: string; content: string }>(
    `SELECT dot_number, content FROM vetting_decision
      WHERE dot_number IN (${placeholders(dots.length)}) ORDER BY id DESC`,
    dots,
  );
  for (const row of rows) {
    if (names.has(row.dot_number)) continue;
    try {
      const content = JSON.parse(row.content) as DecisionContent;
      const field = content.profile?.identity?.find((f) => f.name === 'legal_name');
      if (typeof field?.value === 'string' && field.value.trim() !== '') {
        names.set(row.dot_number, field.value.trim());
      }
    } catch {
      // an unreadable record names nothing; the chain check reports it
    }
  }
  return names;
}

/** The names held for `dots`: the name store, then the cache, then decision records. */
export async function heldNames(
  dots: readonly string[],
  sources: { sql: SqlEngine; cache?: MirrorPeek | undefined },
): Promise<Record<string, HeldName>> {
  const result: Record<string, HeldName> = {};
  const stored = await createCarrierNameStore(sources.sql).get(dots);
  const unnamed: string[] = [];
  for (const dot of dots) {
    const known = stored.get(dot);
    const name = known?.legal ?? known?.dba;
    if (known && name) {
      const dba = known.legal && known.dba && known.dba !== known.legal ? known.dba : undefined;
      result[dot] = { name, ...(dba && { dba }), source: known.source };
    } else unnamed.push(dot);
  }
  const missing: string[] = [];
  const { cache } = sources;
  for (let i = 0; i < unnamed.length; i += DOTS_AT_ONCE) {
    const slice = unnamed.slice(i, i + DOTS_AT_ONCE);
    const held = cache ? await Promise.all(slice.map((dot) => cachedName(cache, dot))) : [];
    slice.forEach((dot, j) => {
      const name = held[j];
      if (name) result[dot] = name;
      else missing.push(dot);
    });
  }
  for (const [dot, name] of await decisionNames(sources.sql, missing)) {
    result[dot] = { name, source: 'decision' };
  }
  return result;
}

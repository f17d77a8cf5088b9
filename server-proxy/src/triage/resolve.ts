/**
 * Resolution of a pasted watch list (DOT numbers, dockets, profile ids) to the profile ids that
 * `monitoring/add` takes, as cheaply as the service allows, through the proxy's own mirror (so the
 * calls are validated, cached, budget-checked, metered and audited like a browser's):
 *
 * - a profile id `<dot>-<docket>` is taken as given (no call; `monitoring/add` reports a wrong one);
 * - a DOT number: autocomplete `q=<dot>` (0.003 USD a query). The sandbox's suggestions carry the
 *   carrier's `docket` (null when it has none); the live service's documented suggestions do not, so
 *   when the exact DOT is missing from the suggestions, or its docket is not said, the FMCSA profile
 *   `dot_number=<dot>` is asked (0.10 USD a match, a 404 is free). One-digit DOTs, which
 *   autocomplete cannot take (`q` needs 2 characters), go to the FMCSA profile directly;
 * - a docket: the FMCSA profile `docket_number=<docket>` (0.10 USD a match, 404 free); its best
 *   match (operating carrier first) gives the DOT and the carrier's own docket.
 */
import type { Endpoint } from '../context.ts';
import { ProxyError } from '../errors.ts';
import { millsToUsd, unitMills } from '../governance/pricing.ts';
import type { MirrorAnswer, MirrorCaller, MirrorClient } from '../routes/mirror.ts';
import { parseAutocomplete } from '../../../src/lib/service/autocomplete.ts';
import { parseFmcsaProfile } from '../../../src/lib/service/fmcsa.ts';
import { formatProfileId } from '../../../src/lib/service/rules/profile-id.ts';
import { classifyEntry, type Entry } from '../../../src/lib/service/rules/entries.ts';
import type {
  Resolution,
  ResolvePlan,
  ResolveVia,
  UnresolvedReason,
} from '../../../src/lib/watchlist/contract.ts';

/** Lookups in flight at once for one resolution request. */
const RESOLVE_CONCURRENCY = 4;
const AUTOCOMPLETE_LIMIT = 15;

type Outcome =
  | { ok: true; profileId: string; via: ResolveVia }
  | { ok: false; reason: UnresolvedReason; message: string };

const DOCKET_VALUE = /^(MC|MX|FF)[1-9]\d{0,7}$/;

/** The carrier's own docket as an FMCSA profile states it, or undefined when it has none. */
function docketOfFmcsa(record: Record<string, unknown>): string | undefined {
  const candidates = [
    record.docket,
    `${String(record.docket_prefix ?? '')}${String(record.docket_number ?? '')}`,
    record.docket_number,
  ];
  for (const value of candidates) {
    const text = typeof value === 'string' ? value.replace(/[\s-]/g, '').toUpperCase() : '';
    if (DOCKET_VALUE.test(text)) return text;
  }
  return undefined;
}

function notFound(message: string): Outcome {
  return { ok: false, reason: 'not_found', message };
}

/** A failed lookup (thrown by the mirror or answered with an error status) as a reason. */
function failure(err: unknown): Outcome {
  if (err instanceof ProxyError) {
    if (err.code === 'budget_exceeded') {
      return { ok: false, reason: 'budget_exceeded', message: err.message };
    }
    if (err.status === 429) return { ok: false, reason: 'rate_limited', message: err.message };
    return { ok: false, reason: 'upstream_error', message: err.message };
  }
  return { ok: false, reason: 'upstream_error', message: 'The lookup failed; try again.' };
}

function statusFailure(endpoint: Endpoint, answer: MirrorAnswer): Outcome {
  const reason = answer.status === 429 ? 'rate_limited' : 'upstream_error';
  return { ok: false, reason, message: `${endpoint} answered ${answer.status}` };
}

/** Cost in mills of one mirrored answer: cache hits and FMCSA no-matches are free. */
function costOf(endpoint: Endpoint, answer: MirrorAnswer): number {
  if (answer.cacheHit || answer.status < 200 || answer.status >= 300) return 0;
  return unitMills(endpoint);
}

class Resolver {
  mills = 0;
  readonly lookups = { autocomplete: 0, 'profile-fmcsa': 0 };

  constructor(
    private readonly mirror: MirrorClient,
    private readonly caller: MirrorCaller,
  ) {}

  private async ask(endpoint: 'autocomplete' | 'profile-fmcsa', query: Record<string, string>) {
    this.lookups[endpoint] += 1;
    const answer = await this.mirror.get(endpoint, query, this.caller);
    this.mills += costOf(endpoint, answer);
    return answer;
  }

  async entry(entry: Entry): Promise<Outcome> {
    try {
      switch (entry.kind) {
        case 'profile_id':
          return { ok: true, profileId: entry.profileId, via: 'given' };
        case 'dot':
          return await this.dot(entry.dot);
        case 'docket':
          return await this.fmcsa('docket_number', entry.docket);
        default:
          return {
            ok: false,
            reason: 'invalid_entry',
            message: 'Not a USDOT number, a docket (MC/MX/FF) or a profile id',
          };
      }
    } catch (err) {
      return failure(err);
    }
  }

  private async dot(dot: string): Promise<Outcome> {
    if (dot.length < 2) return this.fmcsa('dot_number', dot);
    const answer = await this.ask('autocomplete', { q: dot, limit: String(AUTOCOMPLETE_LIMIT) });
    if (answer.status !== 200) return statusFailure('autocomplete', answer);
    const exact = suggestionOf(answer.json, dot);
    if (exact === undefined || exact.docket === undefined) return this.fmcsa('dot_number', dot);
    return {
      ok: true,
      profileId: formatProfileId(dot, exact.docket ?? undefined),
      via: 'autocomplete',
    };
  }

  private async fmcsa(key: 'dot_number' | 'docket_number', value: string): Promise<Outcome> {
    const answer = await this.ask('profile-fmcsa', { [key]: value });
    if (answer.status === 404) return notFound(`No carrier with ${key.replace('_', ' ')} ${value}`);
    if (answer.status !== 200) return statusFailure('profile-fmcsa', answer);
    const record = parseFmcsaProfile(answer.json).value;
    const dot = typeof record?.dot_number === 'string' ? record.dot_number : undefined;
    if (!record || dot === undefined) return notFound('The FMCSA profile names no USDOT number');
    const docket = docketOfFmcsa(record as Record<string, unknown>);
    return { ok: true, profileId: formatProfileId(dot, docket), via: 'profile-fmcsa' };
  }
}

/**
 * The suggestion whose DOT is exactly `dot`, with its docket: a string, null (the carrier has
 * none) or undefined (the answer does not say).
 */
function suggestionOf(
  json: unknown,
  dot: string,
): { docket: string | null | undefined } | undefined {
  const item = parseAutocomplete(json).value.find((s) => s.dot_number.replace(/^0+/, '') === dot);
  if (!item) return undefined;
  if (!Object.hasOwn(item.extra, 'docket')) return { docket: undefined };
  const raw = item.extra.docket;
  if (raw === null || raw === '') return { docket: null };
  const text = typeof raw === 'string' ? raw.replace(/[\s-]/g, '').toUpperCase() : '';
  return { docket: DOCKET_VALUE.test(text) ? text : undefined };
}

/** Run `work` over `items` with at most `limit` in flight; results in input order. */
async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The distinct entries of a list, keyed by their canonical form. */
function distinctEntries(inputs: readonly string[]): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  for (const input of inputs) {
    const entry = classifyEntry(input);
    if (!entries.has(entry.key)) entries.set(entry.key, entry);
  }
  return entries;
}

/** Counts and the most the lookups could cost, without calling anything. */
export function planResolution(inputs: readonly string[]): ResolvePlan {
  const entries = [...distinctEntries(inputs).values()];
  const count = (kind: Entry['kind']) => entries.filter((e) => e.kind === kind).length;
  const autocomplete = entries.filter((e) => e.kind === 'dot' && e.dot.length >= 2).length;
  const fmcsa = count('dot') + count('docket');
  return {
    entries: inputs.length,
    profileIds: count('profile_id'),
    dots: count('dot'),
    dockets: count('docket'),
    invalid: count('invalid'),
    maxCostUsd: millsToUsd(
      autocomplete * unitMills('autocomplete') + fmcsa * unitMills('profile-fmcsa'),
    ),
  };
}

/** Resolve every input; each appears once in `resolved` or `unresolved`, in input order. */
export async function resolveEntries(
  inputs: readonly string[],
  mirror: MirrorClient,
  caller: MirrorCaller,
): Promise<Resolution> {
  const entries = distinctEntries(inputs);
  const resolver = new Resolver(mirror, caller);
  const keys = [...entries.keys()];
  const outcomes = await mapBounded(keys, RESOLVE_CONCURRENCY, (key) =>
    resolver.entry(entries.get(key) as Entry),
  );
  const byKey = new Map(keys.map((key, i) => [key, outcomes[i] as Outcome]));
  const resolution: Resolution = {
    resolved: [],
    unresolved: [],
    profile_ids: [],
    costUsd: millsToUsd(resolver.mills),
    lookups: resolver.lookups,
  };
  for (const input of inputs) {
    const outcome = byKey.get(classifyEntry(input).key) as Outcome;
    if (outcome.ok)
      resolution.resolved.push({ input, profile_id: outcome.profileId, via: outcome.via });
    else resolution.unresolved.push({ input, reason: outcome.reason, message: outcome.message });
  }
  resolution.profile_ids = [...new Set(resolution.resolved.map((r) => r.profile_id))];
  return resolution;
}

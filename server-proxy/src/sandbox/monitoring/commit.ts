import type { Ledger, PartialFault } from '../context.ts';
import type { CarrierDataset } from '../data/types.ts';
import { badRequest } from '../errors.ts';
import { monthOf } from './dates.ts';
import {
  formatProfileId,
  parseProfileId,
  quote,
  resolveProfileId,
  type ParsedProfileId,
} from './ids.ts';
import type { MonitoringStore } from './store.ts';

/** Profiles committed per SQLite transaction. */
const CHUNK_SIZE = 100;
/** Most profile IDs one add/remove request may carry (the service documents no limit). */
const MAX_PROFILE_IDS = 10_000;

export interface RequestedId {
  raw: string;
  parsed: ParsedProfileId;
}

interface FailedId {
  profile_id: string;
  error: string;
}

const ID_HINT =
  'Each ID is <dot>-<docket>, e.g. 568253-MC277621, or the bare DOT of a carrier without a docket.';
const BODY_HINT = 'Send {"profile_ids": ["568253-MC277621"]} with Content-Type: application/json.';

function checkShape(body: unknown): unknown[] {
  if (body === undefined || body === null) {
    throw badRequest('missing_profile_ids', 'The request has no body', BODY_HINT);
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('invalid_body', 'The body must be a JSON object', BODY_HINT);
  }
  const unknown = Object.keys(body).find((key) => key !== 'profile_ids');
  if (unknown !== undefined) {
    throw badRequest('unknown_field', `Unknown body field "${quote(unknown)}"`, BODY_HINT);
  }
  const ids = (body as { profile_ids?: unknown }).profile_ids;
  if (ids === undefined) {
    throw badRequest('missing_profile_ids', '"profile_ids" is missing', BODY_HINT);
  }
  if (!Array.isArray(ids)) {
    throw badRequest('invalid_profile_ids', '"profile_ids" must be an array of strings', BODY_HINT);
  }
  if (ids.length === 0) {
    throw badRequest(
      'empty_profile_ids',
      '"profile_ids" is empty',
      'Send at least one profile ID.',
    );
  }
  if (ids.length > MAX_PROFILE_IDS) {
    throw badRequest(
      'too_many_profile_ids',
      `"profile_ids" holds ${ids.length} IDs; at most ${MAX_PROFILE_IDS} are accepted per request`,
      `Split the list into requests of up to ${MAX_PROFILE_IDS} IDs.`,
    );
  }
  return ids;
}

/** Validate a body of add/remove; any malformed ID rejects the whole request (400). */
export function parseProfileIdsBody(body: unknown): RequestedId[] {
  return checkShape(body).map((raw, index) => {
    if (typeof raw !== 'string') {
      throw badRequest(
        'invalid_profile_ids',
        `profile_ids[${index}] is not a string`,
        'Every element of "profile_ids" must be a string.',
      );
    }
    const parsed = parseProfileId(raw);
    if (!parsed) {
      throw badRequest(
        'invalid_profile_id',
        `profile_ids[${index}] is not a profile ID: "${quote(raw)}"`,
        ID_HINT,
      );
    }
    return { raw, parsed };
  });
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += CHUNK_SIZE) {
    out.push(items.slice(start, start + CHUNK_SIZE));
  }
  return out;
}

/** Thrown inside a chunk's transaction by an armed 207 fault rule, so the chunk rolls back. */
class InjectedChunkFault extends Error {}

export interface AddDeps {
  store: MonitoringStore;
  ledger: Ledger;
  dataset: CarrierDataset;
}

export interface AddOutcome {
  added: number;
  failed: FailedId[];
}

interface Target {
  profileId: string;
  dot: string;
}

/** Resolve IDs against the dataset; unknown ones fail individually, duplicates collapse. */
function resolveAll(ids: RequestedId[], dataset: CarrierDataset) {
  const targets = new Map<string, Target>();
  const failed: FailedId[] = [];
  for (const { raw, parsed } of ids) {
    const resolution = resolveProfileId(parsed, dataset);
    if (resolution.ok) targets.set(resolution.profileId, resolution);
    else failed.push({ profile_id: raw, error: resolution.error });
  }
  return { targets: [...targets.values()], failed };
}

/** Watch one profile (or acknowledge it when already watched) and bill its DOT for the month. */
function watchOne(deps: AddDeps, target: Target, apiKey: string, now: Date): void {
  const month = monthOf(now);
  if (deps.store.getWatch(target.profileId)) {
    deps.store.acknowledge(target.profileId, now.toISOString(), apiKey, month);
  } else {
    deps.store.insertWatch({
      profile_id: target.profileId,
      dot: target.dot,
      started_at: Math.floor(now.getTime() / 1000),
      acknowledged_at: null,
      billed_key: apiKey,
      billed_through: month,
    });
  }
  deps.ledger.charge(apiKey, 'monitoring', now, target.dot);
}

/**
 * POST add: commit the resolved IDs in chunks of CHUNK_SIZE, one transaction each. An armed 207
 * fault rule makes the last chunk fail (rolled back, its IDs reported as failed).
 */
export function addProfiles(
  deps: AddDeps,
  ids: RequestedId[],
  apiKey: string,
  now: Date,
  fault: PartialFault | undefined,
): AddOutcome {
  const { targets, failed } = resolveAll(ids, deps.dataset);
  const batches = chunks(targets);
  const failing = fault ? batches.length - 1 : -1;
  let added = 0;
  batches.forEach((batch, index) => {
    try {
      deps.store.db.transaction(() => {
        for (const target of batch) watchOne(deps, target, apiKey, now);
        if (index === failing) throw new InjectedChunkFault();
      })();
      added += batch.length;
    } catch (err) {
      if (!(err instanceof InjectedChunkFault)) throw err;
      const error = `Chunk ${index + 1} of ${batches.length} was not committed; retry these profile IDs`;
      failed.push(...batch.map((target) => ({ profile_id: target.profileId, error })));
    }
  });
  return { added, failed };
}

/** POST remove: stop watching, in chunks; IDs not on the watchlist are ignored (idempotent). */
export function removeProfiles(store: MonitoringStore, ids: RequestedId[]): number {
  const unique = [...new Set(ids.map(({ parsed }) => formatProfileId(parsed.dot, parsed.docket)))];
  let removed = 0;
  for (const batch of chunks(unique)) {
    store.db.transaction(() => {
      for (const profileId of batch) if (store.deleteWatch(profileId)) removed += 1;
    })();
  }
  return removed;
}

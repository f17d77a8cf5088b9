import type { Ledger, PartialFault } from '../context.ts';
import type { CarrierDataset } from '../data/types.ts';
import type { RequestedId } from '../../../../src/lib/service/rules/profile-id.ts';
import { monthOf } from './dates.ts';
import { formatProfileId, resolveProfileId } from './ids.ts';
import type { MonitoringStore } from './store.ts';

/**
 * Committing add/remove requests whose body the contract's `parseProfileIdsBody` has already
 * validated: resolution against the dataset, chunked transactions, billing.
 */

/** Profiles committed per SQLite transaction. */
const CHUNK_SIZE = 100;

interface FailedId {
  profile_id: string;
  error: string;
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

/**
 * Keeps the names the mirror sees, off the hot path: `observe` only reads the answer's identity
 * keys and queues what is new; the queue is written in one upsert after a short delay (or at once
 * when it is large), and a DOT whose name, DBA and docket were already written recently is not
 * queued again. A failed write is logged and dropped: names are a convenience, never a reason to
 * fail or slow an answer.
 */
import type { Endpoint } from '../context.ts';
import { sightingsIn } from './sightings.ts';
import type { CarrierNameStore, NameSighting } from './store.ts';

/** Written this long after the first queued sighting. */
const FLUSH_DELAY_MS = 250;
/** Written at once when this many DOTs wait. */
const FLUSH_AT = 500;
/** A name seen again unchanged is re-written (its `seen_at`) at most this often. */
const REFRESH_MS = 24 * 3600_000;
/** How many written names are remembered to skip unchanged re-sightings. */
const MEMO_MAX = 50_000;

export interface NameRecorder {
  /** Queue the names a successful answer of `endpoint` carries. Never throws. */
  observe(endpoint: Endpoint, json: unknown): void;
  /** Queue sightings read elsewhere (the name lookup). */
  add(sightings: readonly NameSighting[]): void;
  /** Write what is queued now; resolves when written (or the write failed and was logged). */
  flush(): Promise<void>;
  /** Flush and stop the timer. */
  close(): Promise<void>;
}

export interface RecorderOptions {
  now?: () => Date;
  onError?: (err: unknown) => void;
  flushDelayMs?: number;
}

const signature = (s: NameSighting) => JSON.stringify([s.legal, s.dba, s.docket]);

export function createNameRecorder(
  store: CarrierNameStore,
  {
    now = () => new Date(),
    onError = () => undefined,
    flushDelayMs = FLUSH_DELAY_MS,
  }: RecorderOptions = {},
): NameRecorder {
  const queued = new Map<string, NameSighting>();
  /** DOT → [signature, ms] of what was last written */
  const written = new Map<string, [string, number]>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  function remember(sighting: NameSighting, at: number) {
    written.delete(sighting.dot);
    written.set(sighting.dot, [signature(sighting), at]);
    if (written.size > MEMO_MAX) {
      const oldest = written.keys().next().value;
      if (oldest !== undefined) written.delete(oldest);
    }
  }

  function write(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (queued.size === 0) return writing;
    const batch = [...queued.values()];
    queued.clear();
    const at = now();
    writing = writing
      .then(() => store.put(batch, at, new Date(at.getTime() - REFRESH_MS)))
      .then(() => {
        for (const sighting of batch) remember(sighting, at.getTime());
      })
      .catch(onError);
    return writing;
  }

  function add(sightings: readonly NameSighting[]) {
    if (closed) return;
    const t = now().getTime();
    for (const sighting of sightings) {
      const last = written.get(sighting.dot);
      if (last && last[0] === signature(sighting) && t - last[1] < REFRESH_MS) continue;
      queued.set(sighting.dot, sighting);
    }
    if (queued.size >= FLUSH_AT) void write();
    else if (queued.size > 0 && timer === undefined) {
      timer = setTimeout(() => void write(), flushDelayMs);
      timer.unref();
    }
  }

  return {
    observe(endpoint, json) {
      try {
        add(sightingsIn(endpoint, json));
      } catch (err) {
        onError(err);
      }
    },
    add,
    flush: write,
    async close() {
      // what is queued is written; what arrives from now on is dropped (the database closes next)
      closed = true;
      await write();
    },
  };
}

/**
 * Reads monitoring list answers in a dedicated worker, so the megabytes of a 500-row page are
 * parsed without blocking the page (scrolling, typing, the table's first paint). One worker serves
 * every request, matched by id. Where no worker can run (no `Worker`, or it fails to start), the
 * reading happens on the main thread: slower, same result.
 */
import { adoptChangeIds } from '../../../lib/monitoring/change-id.ts';
import { readListText, type ListReading } from './list-reader.ts';
import type { ListParseAnswer, ListParseRequest } from './list.worker.ts';

interface Pending {
  text: string;
  resolve: (reading: ListReading) => void;
}

let worker: Worker | undefined;
let workerFailed = typeof Worker === 'undefined';
let nextId = 0;
const pending = new Map<number, Pending>();

/** The worker failed: read what it still owed here, and everything after that too. */
function giveUpOnWorker(): void {
  workerFailed = true;
  worker?.terminate();
  worker = undefined;
  for (const [id, request] of pending) {
    pending.delete(id);
    request.resolve(readListText(request.text));
  }
}

function startWorker(): Worker {
  const started = new Worker(new URL('./list.worker.ts', import.meta.url), {
    type: 'module',
    name: 'monitoring-list-parser',
  });
  started.addEventListener('message', (event: MessageEvent<ListParseAnswer>) => {
    const { id, reading, changeIds } = event.data;
    const request = pending.get(id);
    pending.delete(id);
    if (reading.ok && changeIds) adoptChangeIds(reading.list.profiles, changeIds);
    request?.resolve(reading);
  });
  started.addEventListener('error', giveUpOnWorker);
  started.addEventListener('messageerror', giveUpOnWorker);
  return started;
}

/**
 * Starts the worker (loading its script and the parser) if it is not running yet: called when a
 * list request goes out, so the worker is ready by the time the answer has arrived.
 */
export function warmListParser(): Worker | undefined {
  if (workerFailed) return undefined;
  try {
    worker ??= startWorker();
  } catch {
    giveUpOnWorker();
  }
  return worker;
}

/** The reading of a list answer's text, from the worker when there is one. */
export function readListOffThread(text: string): Promise<ListReading> {
  if (!warmListParser()) return Promise.resolve(readListText(text));
  const id = (nextId += 1);
  const message: ListParseRequest = { id, text };
  return new Promise((resolve) => {
    pending.set(id, { text, resolve });
    worker?.postMessage(message);
  });
}

/**
 * Worker side of `parse-off-thread.ts`: one reading per message, answered with the same id, with
 * the ids of every profile's changes (hashing them is the other costly step before the first render).
 * On start it warms the reader up on a made-up page (`list-warm-up.ts`) while the first answer is
 * still on its way.
 */
import { changeIdsOf } from '../../../lib/monitoring/change-id.ts';
import { readListText, type ListReading } from './list-reader.ts';
import { warmUpInRounds } from './list-warm-up.ts';

export interface ListParseRequest {
  id: number;
  text: string;
}

export interface ListParseAnswer {
  id: number;
  reading: ListReading;
  /** per profile of `reading.list`, in order: its change ids (`inboxChangesOf` order) */
  changeIds?: string[][];
}

/**
 * Warm-up readings of the made-up page: small ones (10–15 ms the first, ~2 ms once optimised), so
 * a real answer arriving meanwhile waits little for the one under way.
 */
const WARM_UP_ROUNDS = 24;
let asked = false;

self.addEventListener('message', (event: MessageEvent<ListParseRequest>) => {
  asked = true;
  const { id, text } = event.data;
  const reading = readListText(text);
  const answer: ListParseAnswer = { id, reading };
  if (reading.ok) answer.changeIds = changeIdsOf(reading.list.profiles);
  self.postMessage(answer);
});

warmUpInRounds(
  WARM_UP_ROUNDS,
  (next) => setTimeout(next, 0),
  () => asked,
);

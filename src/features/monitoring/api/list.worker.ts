/**
 * Worker side of `parse-off-thread.ts`: one reading per message, answered with the same id, with
 * the ids of every profile's changes (hashing them is the other costly step before the first render).
 */
import { changeIdsOf } from '../../../lib/monitoring/change-id.ts';
import { readListText, type ListReading } from './list-reader.ts';

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

self.addEventListener('message', (event: MessageEvent<ListParseRequest>) => {
  const { id, text } = event.data;
  const reading = readListText(text);
  const answer: ListParseAnswer = { id, reading };
  if (reading.ok) answer.changeIds = changeIdsOf(reading.list.profiles);
  self.postMessage(answer);
});

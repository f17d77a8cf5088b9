/** Worker side of `parse-off-thread.ts`: one reading per message, answered with the same id. */
import { readListText } from './list-reader.ts';

export interface ListParseRequest {
  id: number;
  text: string;
}

self.addEventListener('message', (event: MessageEvent<ListParseRequest>) => {
  const { id, text } = event.data;
  self.postMessage({ id, reading: readListText(text) });
});

/**
 * Reads the text of a `monitoring/list` answer: JSON, then the shared parser. A page of 500
 * profiles is megabytes, and this is the costly part of showing it, so it runs in a worker
 * (`list.worker.ts`) where one can be started, and here on the main thread where not (tests).
 */
import { parseMonitoringList, type MonitoringList } from '../../../lib/service/index.ts';

export type ListReading = { ok: true; list: MonitoringList } | { ok: false };

export function readListText(text: string): ListReading {
  let body: unknown = null;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      return { ok: false };
    }
  }
  return { ok: true, list: parseMonitoringList(body).value };
}

/** The Raw tab's copy and download of the profile as pretty-printed JSON. */
import { downloadText } from '../../../../../lib/download.ts';

function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}

export async function copyJson(value: unknown): Promise<void> {
  if (!navigator.clipboard) throw new Error('The clipboard is not available here.');
  await navigator.clipboard.writeText(prettyJson(value));
}

/** Saves `value` as `<name>` through a temporary object URL. */
export function downloadJson(value: unknown, name: string): void {
  downloadText(prettyJson(value), name, 'application/json');
}

/** The Raw tab's copy and download of the profile as pretty-printed JSON. */

function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'null';
}

export async function copyJson(value: unknown): Promise<void> {
  if (!navigator.clipboard) throw new Error('The clipboard is not available here.');
  await navigator.clipboard.writeText(prettyJson(value));
}

/** Saves `value` as `<name>` through a temporary object URL. */
export function downloadJson(value: unknown, name: string): void {
  const blob = new Blob([prettyJson(value)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** Saves `text` as a file called `name` through a temporary object URL (CSV and JSON exports). */
export function downloadText(text: string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // revoked after the click has been handled, so the download has its URL
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function downloadCsv(text: string, name: string): void {
  downloadText(text, name, 'text/csv;charset=utf-8');
}

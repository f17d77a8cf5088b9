/**
 * The one spelling of a carrier profile's URL: `/carriers/:dot/:tab`, with an optional anchor on the
 * tab. No imports: the shell (the header's omnibox) links to profiles and stays light.
 */
export function carrierPath(dot: string | number, tab = 'overview', hash?: string): string {
  const path = `/carriers/${encodeURIComponent(String(dot))}/${tab}`;
  return hash ? `${path}#${hash}` : path;
}

/** A USDOT number as URLs and filters carry it: 1 to 8 digits. */
export function isDotNumber(value: string): boolean {
  return /^\d{1,8}$/.test(value);
}

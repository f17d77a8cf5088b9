/**
 * Scrubbing the API key out of text the service sends back (bodies, the few passed headers, log
 * lines), in every encoding it may take there: raw, JSON-escaped, percent-encoded (URL and form),
 * base64 (standard and URL-safe, at any alignment inside a longer base64 string). A JSON body that
 * holds `\u` (or `\/`) escapes is also parsed and every string in it scrubbed, because
 * `"s\u006b_live_…"` is the raw key once the browser (or the profile summary) parses it.
 */

export const REDACTED = '[redacted]';

/** Percent-encoded forms: encodeURIComponent, form encoding (`+` for spaces), lower-case hex. */
function percentForms(key: string): string[] {
  const uri = encodeURIComponent(key);
  const form = new URLSearchParams({ k: key }).toString().slice(2);
  const forms = [uri, uri.replaceAll('%20', '+'), form];
  const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  return [...forms, ...forms.map(lower)];
}

/**
 * The part of base64(prefix + key) that depends on the key alone, for the three alignments the
 * key can have inside a longer base64 string: any encoding that holds the key holds one of these.
 */
function base64Cores(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const cores: string[] = [];
  for (const offset of [0, 1, 2]) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const standard = padded.toString('base64');
    const start = offset === 0 ? 0 : 4;
    const end = 4 * Math.floor(padded.length / 3);
    if (end - start < 8) continue;
    const core = standard.slice(start, end);
    cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

/** The key as it appears inside a JSON string: escaped quotes/backslashes/controls, and `\/`. */
function jsonForms(key: string): string[] {
  const inner = JSON.stringify(key).slice(1, -1);
  return [inner, inner.replaceAll('/', '\\/')];
}

/** Every needle of `key`, longest first (so a longer form is replaced before a shorter inside it). */
function keyNeedles(key: string): string[] {
  if (key === '') return [];
  const all = [key, ...jsonForms(key), ...percentForms(key), ...base64Cores(key)];
  const more = all.flatMap((needle) => jsonForms(needle));
  return [...new Set([...all, ...more])]
    .filter((needle) => needle.length > 0)
    .sort((a, b) => b.length - a.length);
}

/** JSON text the browser's parser would turn into other characters than it shows. */
function hasRiskyEscapes(text: string, key: string): boolean {
  if (text.includes('\\u') || text.includes('\\/')) return true;
  // a key with characters JSON must escape (quote, backslash, controls) is escaped in any case
  return JSON.stringify(key) !== `"${key}"` && text.includes('\\');
}

export class KeyScrubber {
  private readonly needles: string[];

  constructor(private readonly key: string) {
    this.needles = keyNeedles(key);
  }

  get active(): boolean {
    return this.needles.length > 0;
  }

  /** `text` with every needle replaced by [redacted]. */
  text(text: string): string {
    let clean = text;
    for (const needle of this.needles) {
      if (clean.includes(needle)) clean = clean.replaceAll(needle, REDACTED);
    }
    return clean;
  }

  /**
   * A JSON body and its parsed value, both free of the key in every encoding. The text is scrubbed
   * as text; when it holds escapes that decode differently, every string (and property name) of
   * the parsed value is scrubbed too and, if one changed, the body is serialised again from it.
   * `parse` must not throw for a valid body (the caller checked it is JSON).
   */
  json(body: string, parse: (text: string) => unknown): { body: string; json: unknown } {
    const text = this.text(body);
    const json = parse(text);
    if (!this.active || !hasRiskyEscapes(text, this.key)) return { body: text, json };
    const { value, changed } = this.walk(json);
    return changed ? { body: JSON.stringify(value), json: value } : { body: text, json };
  }

  /** Scrub every string of a parsed JSON value, iteratively (the depth was checked before). */
  private walk(root: unknown): { value: unknown; changed: boolean } {
    let changed = false;
    const clean = (s: string) => {
      const out = this.text(s);
      if (out !== s) changed = true;
      return out;
    };
    const holder: { root: unknown } = { root };
    const stack: Record<string, unknown>[] = [holder];
    while (stack.length > 0) {
      const node = stack.pop() as Record<string, unknown>;
      for (const name of Object.keys(node)) {
        const value = node[name];
        const cleanName = Array.isArray(node) ? name : clean(name);
        if (cleanName !== name) {
          delete node[name];
          node[cleanName] = value;
        }
        if (typeof value === 'string') node[cleanName] = clean(value);
        else if (typeof value === 'object' && value !== null) {
          stack.push(value as Record<string, unknown>);
        }
      }
    }
    return { value: holder.root, changed };
  }
}

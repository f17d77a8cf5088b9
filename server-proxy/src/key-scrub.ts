/**
 * Scrubbing the API key out of text the service sends back (bodies, the few passed headers, log
 * lines), in every encoding it may take there. One tolerant pattern matches the key written with
 * each of its characters in any of its forms, mixed freely: the character itself in either case,
 * JSON escapes (`\"`, `\\`, `\/`, `\u005f`), percent-encoding of its UTF-8 bytes (hex in either
 * case, `+` for a space, the `%` itself encoded again as `%25`), `\x5f`, HTML character references
 * (`&#95;`, `&#x5F;`, `&#X5f;`, named ones such as `&lowbar;`, the `&` itself written `&amp;`);
 * also a hex dump of the key's bytes (either case) and base64 (standard and URL-safe, at any
 * alignment inside a longer base64 string). A JSON body that holds `\u` (or `\/`) escapes is also
 * parsed and every string in it scrubbed, because an escape can spell a form the text does not
 * show (`\u0026#95;` is `&#95;` once parsed).
 */

export const REDACTED = '[redacted]';

/** HTML named character references (WHATWG list) of the ASCII characters that have one. */
const NAMED_REFERENCES: Readonly<Record<string, readonly string[]>> = {
  '\t': ['Tab'],
  '\n': ['NewLine'],
  '!': ['excl'],
  '"': ['quot'],
  '#': ['num'],
  $: ['dollar'],
  '%': ['percnt'],
  '&': ['amp'],
  "'": ['apos'],
  '(': ['lpar'],
  ')': ['rpar'],
  '*': ['ast', 'midast'],
  '+': ['plus'],
  ',': ['comma'],
  '.': ['period'],
  '/': ['sol'],
  ':': ['colon'],
  ';': ['semi'],
  '<': ['lt'],
  '=': ['equals'],
  '>': ['gt'],
  '?': ['quest'],
  '@': ['commat'],
  '[': ['lsqb', 'lbrack'],
  '\\': ['bsol'],
  ']': ['rsqb', 'rbrack'],
  '^': ['Hat'],
  _: ['lowbar', 'UnderBar'],
  '`': ['grave', 'DiacriticalGrave'],
  '{': ['lcub', 'lbrace'],
  '|': ['verbar', 'vert', 'VerticalLine'],
  '}': ['rcub', 'rbrace'],
};

/** A hex dump of the key is only looked for from this many bytes (8 bytes = 16 hex digits). */
const MIN_HEX_DUMP_BYTES = 8;

const escapeRegex = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/** The character and its other-case forms (the pattern is case-insensitive, so this is for bytes). */
function caseVariants(char: string): string[] {
  return [...new Set([char, char.toLowerCase(), char.toUpperCase()])];
}

/**
 * Every way one character of the key may be written, as regex alternatives that never match the
 * same text twice (two alternatives matching one text would make a failing match try both, for
 * every character: exponential). The pattern is case-insensitive, so the character itself is one
 * alternative; its other case matters only for the encoded forms (`%73` and `%53`).
 */
function charForms(char: string): string[] {
  const forms = new Set<string>([escapeRegex(char)]);
  for (const variant of caseVariants(char)) {
    const bytes = [...Buffer.from(variant, 'utf8')];
    if (variant.toLowerCase() !== char.toLowerCase()) forms.add(escapeRegex(variant));
    const json = JSON.stringify(variant).slice(1, -1);
    if (json !== variant) forms.add(escapeRegex(json));
    if (variant === '/') forms.add('\\\\/');
    if (variant === ' ') forms.add('\\+');
    // percent-encoding of each UTF-8 byte; `%25` is the `%` itself encoded again
    forms.add(bytes.map((b) => `%(?:25)*${hex(b, 2)}`).join(''));
    forms.add(bytes.map((b) => `\\\\+x${hex(b, 2)}`).join(''));
    const units = Array.from({ length: variant.length }, (_, i) => variant.charCodeAt(i));
    forms.add(units.map((unit) => `\\\\+u${hex(unit, 4)}`).join(''));
    for (const point of [...variant].map((c) => c.codePointAt(0) ?? 0)) {
      // `&#95;`, `&#x5f;`, leading zeros, the `;` left out (browsers still decode it)
      forms.add(`&(?:amp;)*#(?:0*${point}|x0*${hex(point, 1)});?`);
    }
    for (const name of NAMED_REFERENCES[variant] ?? []) forms.add(`&(?:amp;)*${name};?`);
  }
  return [...forms];
}

/** The key's bytes as a hex dump (either case; bytes may be split by a space, `:` or `-`). */
function hexDumpPattern(key: string): string | undefined {
  if (Buffer.byteLength(key, 'utf8') < MIN_HEX_DUMP_BYTES) return undefined;
  const bytes = [...key].map((char) => {
    const dumps = caseVariants(char).map((variant) =>
      [...Buffer.from(variant, 'utf8')].map((b) => hex(b, 2)).join('[ :-]?'),
    );
    return `(?:${[...new Set(dumps)].join('|')})`;
  });
  return bytes.join('[ :-]?');
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

/** The one pattern of every form of `key` (global, case-insensitive), or undefined for no key. */
function keyPattern(key: string): RegExp | undefined {
  if (key === '') return undefined;
  const perChar = [...key].map((char) => `(?:${charForms(char).join('|')})`).join('');
  const dump = hexDumpPattern(key);
  const base64 = [...new Set(base64Cores(key))].map(escapeRegex);
  const alternatives = [perChar, ...(dump === undefined ? [] : [dump]), ...base64];
  return new RegExp(alternatives.map((source) => `(?:${source})`).join('|'), 'gi');
}

/** JSON text the browser's parser would turn into other characters than it shows. */
function hasRiskyEscapes(text: string, key: string): boolean {
  if (text.includes('\\u') || text.includes('\\/')) return true;
  // a key with characters JSON must escape (quote, backslash, controls) is escaped in any case
  return JSON.stringify(key) !== `"${key}"` && text.includes('\\');
}

export class KeyScrubber {
  private readonly pattern: RegExp | undefined;

  constructor(private readonly key: string) {
    this.pattern = keyPattern(key);
  }

  get active(): boolean {
    return this.pattern !== undefined;
  }

  /** `text` with every form of the key replaced by [redacted]. */
  text(text: string): string {
    return this.pattern === undefined ? text : text.replace(this.pattern, REDACTED);
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

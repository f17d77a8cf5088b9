/**
 * How deeply a JSON text nests, measured without recursion (one pass over the characters, strings
 * skipped). The proxy refuses an upstream answer nested deeper than MAX_JSON_DEPTH before anything
 * parses, walks or serialises it: the shared shape parsers, JSON.stringify and the profile summary
 * all recurse, and a 100,000-deep answer would otherwise overflow the stack (a 500).
 */

/** Deeper than any real answer of the service (a profile nests about 6 levels). */
export const MAX_JSON_DEPTH = 200;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** True when `text` opens more than `max` arrays/objects inside one another at some point. */
export function exceedsJsonDepth(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let i = 0;
  const length = text.length;
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // skip the string: find the closing quote that is not escaped
      let end = text.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes += 1;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end === -1) return false;
      i = end + 1;
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    }
    i += 1;
  }
  return false;
}

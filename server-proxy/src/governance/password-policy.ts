/**
 * Which passwords are too easy to guess, whatever their length: the most common passwords, and
 * passwords built only from repeats and simple sequences.
 *
 * The list is the common-passwords dictionary of zxcvbn-ts (`@zxcvbn-ts/language-common`, about
 * 49,000 passwords from public breach corpora, most frequent first; see docs/proxy-security.md for
 * why this package). A password is refused when, ignoring case:
 * - it is on the list, also once spaces, `-`, `_` and `.` are taken out;
 * - it is one unit repeated (`aaaaaaaaaaaa`, `abcabcabcabc`, `121212121212`);
 * - it is a simple sequence, up or down, digits wrapping round (`123456789012`, `abcdefghijkl`);
 * - it is made of at most three such pieces (listed, repeat, sequence), a single character also
 *   counting as a piece at either end (`password1234`, `iloveyou1234`, `qwerty123456!`).
 * The messages never quote the password.
 */
import { dictionary } from '@zxcvbn-ts/language-common';

let common: ReadonlySet<string> | undefined;

/** The list as a set, built on first use (the package decodes it when loaded). */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].map((word) => word.toLowerCase()));
  return common;
}

/** Longest password split into pieces (longer ones are only checked whole). */
const MAX_SPLIT_LENGTH = 64;
/** Most pieces a password may be cut into and still count as built from weak ones. */
const MAX_PIECES = 3;

const SEQUENCES = ['0123456789', 'abcdefghijklmnopqrstuvwxyz'];

/** One unit written at least twice: `aaaa`, `abab`, `121212`. */
function isRepeat(text: string): boolean {
  return /^([^]+?)\1+$/u.test(text);
}

/** Three or more characters each one step up (or each one down) in one alphabet, wrapping round. */
function isSequence(text: string): boolean {
  const chars = [...text];
  if (chars.length < 3) return false;
  return SEQUENCES.some((alphabet) => {
    const at = chars.map((c) => alphabet.indexOf(c));
    if (at.some((index) => index < 0)) return false;
    const step = (i: number) =>
      ((at[i] ?? 0) - (at[i - 1] ?? 0) + alphabet.length) % alphabet.length;
    const first = step(1);
    return (
      (first === 1 || first === alphabet.length - 1) &&
      at.every((_, i) => i === 0 || step(i) === first)
    );
  });
}

function isWeakPiece(piece: string): boolean {
  return commonPasswords().has(piece) || isRepeat(piece) || isSequence(piece);
}

/** Whether `text` cuts into at most MAX_PIECES weak pieces (a lone character only at either end). */
function isBuiltFromWeakPieces(text: string): boolean {
  const chars = [...text];
  const n = chars.length;
  if (n > MAX_SPLIT_LENGTH) return false;
  // fewest pieces for chars[0, end), or Infinity
  const fewest = Array.from({ length: n + 1 }, () => Infinity);
  fewest[0] = 0;
  for (let end = 1; end <= n; end += 1) {
    for (let start = 0; start < end; start += 1) {
      const before = fewest[start] ?? Infinity;
      if (before + 1 >= (fewest[end] ?? Infinity)) continue;
      const piece = chars.slice(start, end).join('');
      const affix = end - start === 1 && (start === 0 || end === n);
      if (affix || isWeakPiece(piece)) fewest[end] = before + 1;
    }
  }
  return (fewest[n] ?? Infinity) <= MAX_PIECES && n > 1;
}

const ADVICE = 'choose another, such as four or more random words';

/** Why `password` is too easy to guess, with what to do, or undefined. Never quotes the password. */
export function guessablePasswordProblem(password: string): string | undefined {
  const lower = password.normalize('NFC').toLowerCase();
  const compact = lower.replace(/[\s._-]+/gu, '');
  const why =
    commonPasswords().has(lower) || commonPasswords().has(compact)
      ? 'is one of the most common passwords (on a public list of breached passwords)'
      : isRepeat(lower)
        ? 'repeats the same characters (like aaaa… or abcabc…)'
        : isSequence(lower)
          ? 'is a simple sequence (like 123456… or abcdef…)'
          : isBuiltFromWeakPieces(lower)
            ? 'is made of common passwords, repeats or sequences (such as a common word and 1234)'
            : undefined;
  return why === undefined ? undefined : `${why}; ${ADVICE}`;
}

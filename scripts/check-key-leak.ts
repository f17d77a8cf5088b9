/**
 * The key-leak gate over the built SPA: every file under the output directory, source maps
 * included, must be free of API keys.
 *
 *   tsx scripts/check-key-leak.ts [dist]   # exit 1 and list file:offset for every hit
 *
 * What counts as a key:
 * - the embedded sandbox's key, which the e2e proxy holds (`EMBEDDED_SANDBOX_KEY`);
 * - `CARRIER_API_KEY`, or the content of `CARRIER_API_KEY_FILE`, when set;
 * - each of those also as base64 (as an `Authorization: Basic` value or a data URL would carry it);
 * - any key-shaped token, `sk_live_` or `sk_test_` followed by a letter or digit. The SPA never
 *   needs a key, so no fixture is allowed either: a fixture in the bundle is a test file bundled
 *   into production, and an allow-list would be one more place a real key could hide. The bare
 *   prefixes (`sk_test_` followed by a space, `…` or `.`) stay allowed for help texts.
 * Hits are printed masked, never in full.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EMBEDDED_SANDBOX_KEY } from '../server-proxy/src/config.ts';

/** Shorter configured values are not keys; searching for them would only find noise. */
const MIN_KEY_LENGTH = 8;
const KEY_SHAPE = /sk_(?:live|test)_[A-Za-z0-9]/g;

export interface Needle {
  /** what the needle is, for the report; never the key itself */
  label: string;
  text: string;
}

interface Leak {
  file: string;
  offset: number;
  label: string;
}

/** The runs of base64 that any encoding of `key` contains, whatever its alignment in the stream. */
export function base64Forms(key: string): string[] {
  const forms: string[] = [];
  for (const shift of [0, 1, 2]) {
    const encoded = Buffer.from('\0'.repeat(shift) + key, 'latin1')
      .toString('base64')
      .replace(/=+$/, '');
    const start = [0, 2, 3][shift] ?? 0;
    const end = (shift + key.length) % 3 === 0 ? encoded.length : encoded.length - 1;
    forms.push(encoded.slice(start, end));
  }
  return forms;
}

/** The strings a leak of `key` would show as: the key itself and its base64 forms. */
export function needlesOf(label: string, key: string): Needle[] {
  return [
    { label, text: key },
    ...base64Forms(key).map((text) => ({ label: `${label} (base64)`, text })),
  ];
}

function keyFileContent(path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The configured keys: the embedded sandbox's, and the real one when the environment has it. */
export function configuredKeys(env: NodeJS.ProcessEnv): Needle[] {
  const keys: [string, string | undefined][] = [
    ['the embedded sandbox key', EMBEDDED_SANDBOX_KEY],
    ['CARRIER_API_KEY', env.CARRIER_API_KEY?.trim()],
    ['the key in CARRIER_API_KEY_FILE', keyFileContent(env.CARRIER_API_KEY_FILE)],
  ];
  return keys.flatMap(([label, key]) =>
    key !== undefined && key.length >= MIN_KEY_LENGTH ? needlesOf(label, key) : [],
  );
}

/** `sk_live_ab…`: enough to find the token, not enough to use it. */
function masked(text: string, offset: number): string {
  return `${text.slice(offset, offset + 10)}…`;
}

/** Every place in `text` (a file read as latin1, so offsets are byte offsets) that holds a key. */
export function findLeaks(text: string, needles: readonly Needle[]): Omit<Leak, 'file'>[] {
  const leaks: Omit<Leak, 'file'>[] = [];
  for (const needle of needles) {
    for (let at = text.indexOf(needle.text); at !== -1; at = text.indexOf(needle.text, at + 1)) {
      leaks.push({ offset: at, label: needle.label });
    }
  }
  for (const match of text.matchAll(KEY_SHAPE)) {
    leaks.push({ offset: match.index, label: `a key-shaped token ${masked(text, match.index)}` });
  }
  return leaks.sort((a, b) => a.offset - b.offset);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

interface Scan {
  files: number;
  sourceMaps: number;
  bytes: number;
  leaks: Leak[];
}

/** Scans every file under `dir` for the needles and key-shaped tokens. */
export function scanDir(dir: string, needles: readonly Needle[]): Scan {
  const scan: Scan = { files: 0, sourceMaps: 0, bytes: 0, leaks: [] };
  for (const path of filesUnder(dir)) {
    const text = readFileSync(path).toString('latin1');
    scan.files += 1;
    scan.bytes += text.length;
    if (path.endsWith('.map')) scan.sourceMaps += 1;
    const file = relative(process.cwd(), path);
    scan.leaks.push(...findLeaks(text, needles).map((leak) => ({ file, ...leak })));
  }
  return scan;
}

function main(): void {
  const dir = process.argv[2] ?? 'dist';
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`${dir} is not a directory: build first (vite build)`);
    process.exitCode = 1;
    return;
  }
  const scan = scanDir(dir, configuredKeys(process.env));
  const what = `${scan.files} files (${scan.sourceMaps} source maps, ${(scan.bytes / 1e6).toFixed(1)} MB)`;
  for (const leak of scan.leaks) console.error(`${leak.file}:${leak.offset}: ${leak.label}`);
  if (scan.files === 0) console.error(`${dir} is empty: nothing to scan`);
  else if (scan.leaks.length > 0) console.error(`key leak: ${scan.leaks.length} hit(s) in ${what}`);
  else console.log(`no key in ${what} under ${dir}`);
  if (scan.files === 0 || scan.leaks.length > 0) process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();

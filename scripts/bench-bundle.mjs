#!/usr/bin/env node
/**
 * Bundle figures of a built SPA (figures only, unless --check): the initial JavaScript a first
 * visit downloads (the entry script of index.html, its modulepreload links, and every chunk they
 * import statically, should a preload link be missing), gzip-compressed, against the 150 kB target;
 * then the lazy chunks each route or feature adds on top of it (their static-import closure minus
 * what is already loaded), with their CSS. Chunks loaded with `import()` (on first use or when the
 * browser is idle) are not initial.
 *
 * The gate is deterministic: the same build gives the same figure (gzip level 9 over the files).
 *
 *   npx vite build --outDir /tmp/bench-dist && node scripts/bench-bundle.mjs /tmp/bench-dist
 *   node scripts/bench-bundle.mjs dist --check 150   # exit 1 when the initial JS is over 150 kB
 *   node scripts/bench-bundle.mjs dist --json bench/results/bundle-2026-11-22.json
 *
 * --json writes the figures in the results shape of scripts/bench-results.ts (ids `bundle.initial-js`
 * and `bundle.lazy.<group>`, unit kB gzip), for the summary of `npm run bench`.
 *
 * kB here are 1,000 bytes (as Vite prints them).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const TARGET_KB = 150;

/** Lazy groups: the chunks (by file-name prefix) a route or feature starts from. */
const LAZY_GROUPS = [
  {
    name: 'search: parsers (autocomplete, results reader)',
    roots: ['autocomplete', 'read-results'],
  },
  { name: 'search: results section (table, preview)', roots: ['ResultsSection'] },
  { name: 'monitoring nav badge', roots: ['MonitoringNavBadge'] },
  { name: 'profile (page + overview tab)', roots: ['ProfilePage', 'OverviewTab'] },
  { name: 'monitoring', roots: ['MonitoringPage'] },
  { name: 'map (MapLibre)', roots: ['MapCanvas'] },
  { name: 'charts (Recharts)', roots: ['CartesianChart', 'ComposedChart', 'BarChart'] },
];

function parseArgs(argv) {
  let outDir = 'dist';
  let check;
  let json;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') {
      json = argv[i + 1];
      i += 1;
      if (!json) throw new Error('--json needs a file name');
    } else if (arg === '--check') {
      check = Number(argv[i + 1]);
      i += 1;
      if (!Number.isFinite(check) || check <= 0) throw new Error('--check needs a size in kB');
    } else if (arg !== undefined) {
      outDir = arg;
    }
  }
  return { outDir, check, json };
}

const kb = (bytes) => bytes / 1000;
const fixed = (bytes) => kb(bytes).toFixed(2);

function sizes(file) {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** `/assets/x.js` → `assets/x.js` (paths in index.html are absolute to the site root). */
function localPath(href) {
  return href.replace(/^\//, '');
}

/** The entry script and the modulepreload links of index.html, as paths under the out dir. */
function initialScripts(html) {
  const entries = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)];
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)];
  return [...entries, ...preloads].map((match) => localPath(match[1] ?? ''));
}

/** Chunks a chunk imports statically (`from"./x.js"` and `import"./x.js"` in the minified output). */
function staticImports(outDir, chunk) {
  const text = readFileSync(join(outDir, chunk), 'utf8');
  const found = new Set();
  for (const match of text.matchAll(/(?:\bfrom|\bimport)\s*["'](\.\/[^"']+\.js)["']/g)) {
    found.add(join('assets', basename(match[1] ?? '')));
  }
  return [...found];
}

function closure(outDir, roots, exclude) {
  const seen = new Set();
  const queue = [...roots];
  while (queue.length > 0) {
    const chunk = queue.pop();
    if (chunk === undefined || seen.has(chunk) || exclude.has(chunk)) continue;
    seen.add(chunk);
    queue.push(...staticImports(outDir, chunk));
  }
  return [...seen];
}

/** The CSS Vite emits next to a chunk (same name stem), if any. */
function chunkCss(assets, chunk) {
  const stem = basename(chunk).replace(/-[\w-]{8}\.js$/, '-');
  return assets.filter((file) => file.startsWith(stem) && file.endsWith('.css'));
}

function row(file, { raw, gzip }) {
  return { file, 'raw kB': fixed(raw), 'gzip kB': fixed(gzip) };
}

function reportInitial(outDir, scripts) {
  const rows = scripts.map((file) => row(file, sizes(join(outDir, file))));
  const gzip = scripts.reduce((sum, file) => sum + sizes(join(outDir, file)).gzip, 0);
  console.log(`Initial JS (entry, modulepreload, static imports), target ≤ ${TARGET_KB} kB gzip`);
  console.table(rows);
  const verdict = kb(gzip) <= TARGET_KB ? 'within' : 'OVER';
  console.log(`initial total ${fixed(gzip)} kB gzip: ${verdict} the ${TARGET_KB} kB target\n`);
  return gzip;
}

function reportLazy(outDir, assets, initial) {
  const chunks = assets.filter((file) => file.endsWith('.js'));
  const groups = [];
  for (const group of LAZY_GROUPS) {
    const roots = chunks
      .filter((file) => group.roots.some((root) => file.startsWith(`${root}-`)))
      .map((file) => join('assets', file));
    const files = closure(outDir, roots, initial);
    const css = files.flatMap((file) => chunkCss(assets, file).map((c) => join('assets', c)));
    const all = [...files, ...css];
    const gzip = all.reduce((sum, file) => sum + sizes(join(outDir, file)).gzip, 0);
    console.log(`Lazy: ${group.name}, ${fixed(gzip)} kB gzip on top of the initial JS`);
    console.table(all.map((file) => row(file, sizes(join(outDir, file)))));
    groups.push({ name: group.name, files: all, gzipBytes: gzip });
  }
  const workers = assets.filter((file) => file.endsWith('.mjs'));
  for (const worker of workers) {
    const { raw, gzip } = sizes(join(outDir, 'assets', worker));
    console.log(`worker ${worker}: ${fixed(raw)} kB raw, ${fixed(gzip)} kB gzip (map only)`);
  }
  return groups;
}

const slug = (name) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The figures as `{ metric, label, value, unit, target, met }` entries (kB gzip, 2 decimals). */
function writeJson(file, initialGzip, groups) {
  const value = (bytes) => Math.round(bytes / 10) / 100;
  const initial = value(initialGzip);
  const metrics = [
    {
      metric: 'bundle.initial-js',
      label: 'initial JS of the search page (entry, modulepreload, static imports), gzip',
      value: initial,
      unit: 'kB',
      target: { op: '<=', value: TARGET_KB },
      met: initial <= TARGET_KB,
    },
    ...groups.map((group) => ({
      metric: `bundle.lazy.${slug(group.name)}`,
      label: `lazy: ${group.name}, gzip on top of the initial JS`,
      value: value(group.gzipBytes),
      unit: 'kB',
      target: null,
      met: null,
    })),
  ];
  const results = {
    bench: 'bundle',
    date: new Date().toISOString(),
    settings: {},
    metrics,
    details: { groups },
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`results written to ${file}`);
}

function main() {
  const { outDir, check, json } = parseArgs(process.argv.slice(2));
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const declared = initialScripts(html);
  if (declared.length === 0) throw new Error(`no module script in ${join(outDir, 'index.html')}`);
  const imported = closure(outDir, declared, new Set()).filter((file) => !declared.includes(file));
  const scripts = [...declared, ...imported];
  const assets = readdirSync(join(outDir, 'assets'));
  const initialGzip = reportInitial(outDir, scripts);
  const groups = reportLazy(outDir, assets, new Set(scripts));
  if (json !== undefined) writeJson(json, initialGzip, groups);
  if (check !== undefined && kb(initialGzip) > check) {
    console.error(
      `initial JS ${fixed(initialGzip)} kB gzip is over the --check ${check} kB budget`,
    );
    process.exitCode = 1;
  }
}

main();

/**
 * Pure parts of the Lighthouse benchmark: category scores of several runs → median and range
 * against the targets, and the audits that keep a category below its target.
 */
import { metric, summarise, type MetricEntry, type Target } from './bench-results.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export const CATEGORY_TARGETS: Record<Category, Target | null> = {
  performance: { op: '>=', value: 95 },
  accessibility: { op: '=', value: 100 },
  'best-practices': { op: '=', value: 100 },
  seo: null,
};

/** The parts of a Lighthouse result (LHR) read here. */
export interface LhrAudit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  /** a table (`headings` + `items`) for most audits; other kinds are ignored here */
  details?: unknown;
}

export interface LhrLike {
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] } | undefined>;
  audits: Record<string, LhrAudit | undefined>;
}

/** Modes whose score says nothing about passing (information, manual checks, not applicable). */
const UNSCORED_MODES = new Set(['informative', 'manual', 'notApplicable', 'error']);

/** A category's score on Lighthouse's 0–100 scale (null when the category did not run). */
export function categoryScore(lhr: LhrLike, category: Category): number | null {
  const score = lhr.categories[category]?.score;
  return score === null || score === undefined ? null : Math.round(score * 100);
}

export interface FailingAudit {
  id: string;
  title: string;
  displayValue: string | null;
  /** the first column of the audit's first few table rows (e.g. the issue type, the URL) */
  detail: string | null;
  score: number;
}

const DETAIL_ITEMS = 3;

function cellText(cell: unknown): string | null {
  if (typeof cell === 'string' || typeof cell === 'number') return String(cell);
  if (typeof cell !== 'object' || cell === null) return null;
  const { url, snippet } = cell as { url?: unknown; snippet?: unknown };
  if (typeof snippet === 'string') return snippet;
  return typeof url === 'string' ? url : null;
}

function firstColumn(details: unknown): unknown[] {
  if (typeof details !== 'object' || details === null) return [];
  const { headings, items } = details as { headings?: unknown; items?: unknown };
  if (!Array.isArray(headings) || !Array.isArray(items)) return [];
  const key: unknown = (headings[0] as { key?: unknown } | undefined)?.key;
  if (typeof key !== 'string') return [];
  return items.map((item: Record<string, unknown>) => item[key] ?? item.node);
}

/** What the audit's table names first (issue types, URLs, node snippets), a few rows joined. */
export function auditDetail(audit: LhrAudit): string | null {
  const cells = firstColumn(audit.details)
    .map(cellText)
    .filter((text): text is string => text !== null);
  if (cells.length === 0) return null;
  const more = cells.length > DETAIL_ITEMS ? ` (+${cells.length - DETAIL_ITEMS} more)` : '';
  return cells.slice(0, DETAIL_ITEMS).join('; ') + more;
}

/** The category's scored audits below a full score, lowest first. */
export function failingAudits(lhr: LhrLike, category: Category): FailingAudit[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  const failing: FailingAudit[] = [];
  for (const { id } of refs) {
    const audit = lhr.audits[id];
    if (!audit || audit.score === null || UNSCORED_MODES.has(audit.scoreDisplayMode)) continue;
    if (audit.score >= 1) continue;
    failing.push({
      id,
      title: audit.title,
      displayValue: audit.displayValue ?? null,
      detail: auditDetail(audit),
      score: Math.round(audit.score * 100),
    });
  }
  return failing.sort((a, b) => a.score - b.score);
}

/** One entry per category: the median over the runs with its range. */
export function scoreEntries(page: string, scores: Record<Category, number[]>): MetricEntry[] {
  return CATEGORIES.map((category) => {
    const values = scores[category];
    const stats = summarise(values);
    return metric({
      metric: `lighthouse.${page}.${category}`,
      label: `Lighthouse ${category} (desktop), ${page} page, median`,
      value: values.length === 0 ? null : stats.median,
      unit: 'score',
      target: CATEGORY_TARGETS[category],
      spread: { n: stats.n, min: stats.min, max: stats.max },
    });
  });
}

export interface AuditFailures extends FailingAudit {
  /** in how many of the runs it failed */
  runs: number;
}

/** Failing audits of several runs merged by id; each keeps its worst run's score and value. */
export function mergeFailures(runs: readonly FailingAudit[][]): AuditFailures[] {
  const merged = new Map<string, AuditFailures>();
  for (const failures of runs) {
    for (const failure of failures) {
      const known = merged.get(failure.id);
      if (!known) merged.set(failure.id, { ...failure, runs: 1 });
      else if (failure.score < known.score)
        merged.set(failure.id, { ...failure, runs: known.runs + 1 });
      else known.runs += 1;
    }
  }
  return [...merged.values()].sort((a, b) => a.score - b.score);
}

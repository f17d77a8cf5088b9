/**
 * A decision's standing against the carrier's verdict now (issue 29, docs/vetting.md): the proxy's
 * `GET /api/local/decisions/current` answers, per carrier, the newest decision record and how it
 * stands under the current policy on the freshest held data (`now`, `standing`), computed without a
 * billed call. Every screen that shows a decision reads it here, one request for all its DOTs, and
 * words it with `standingWords` so every screen says the same.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet } from './api-client.ts';
import { formatDate } from './format.ts';
import { DECISIONS, DECISION_LABELS } from './vetting-api.ts';
import { OUTCOMES } from './vetting/index.ts';
import { STANDINGS } from './vetting/standing.ts';

/** At most this many DOTs per call (the proxy's limit). */
const MAX_STANDING_DOTS = 500;

const reason = z.object({
  rule: z.string(),
  label: z.string().optional(),
  outcome: z.enum(OUTCOMES),
  message: z.string(),
});

const standingItem = z.object({
  id: z.number().int(),
  dot_number: z.string(),
  decision: z.enum(DECISIONS),
  decided_at: z.string(),
  expires_on: z.string().nullable(),
  policy_version: z.number(),
  verdict: z.object({ verdict: z.enum(OUTCOMES) }),
  override_reason: z.string().optional(),
  now: z
    .object({
      verdict: z.enum(OUTCOMES),
      policy_version: z.number(),
      reasons: z.array(reason),
      fetched_at: z.string().optional(),
      evaluated_at: z.string().optional(),
      source: z.string().optional(),
      stale: z.boolean().optional(),
    })
    .nullable(),
  standing: z.enum(STANDINGS),
  // filled by the override / re-vet work; an answer without them reads "none"
  override: z.boolean().optional().default(false),
  revet_due: z.enum(['overdue', 'soon']).nullable().optional(),
  needs_revet: z.boolean().optional().default(false),
});
export type DecisionStanding = z.infer<typeof standingItem>;

const standingPage = z.object({ items: z.array(standingItem) });

/** The query key: under the decisions' key, so recording a decision asks again. */
function standingKey(dots: readonly string[]) {
  return ['vetting', 'decisions', 'standing', dots] as const;
}

/** A DOT as the proxy keys it: without leading zeros. */
function dotKey(dot: string): string {
  return dot.replace(/^0+(?=\d)/, '');
}

/** DOTs as the proxy keys them: digits without leading zeros, each once, sorted. */
export function standingDots(dots: readonly string[]): string[] {
  const clean = dots.filter((dot) => /^\d{1,8}$/.test(dot)).map(dotKey);
  return [...new Set(clean)].sort();
}

/** The standing of a carrier's current decision in a screen's answer (undefined: none, or not yet). */
export function standingFor(
  standings: ReadonlyMap<string, DecisionStanding> | undefined,
  dot: string | undefined,
): DecisionStanding | undefined {
  return dot === undefined ? undefined : standings?.get(dotKey(dot));
}

/** The standing of each carrier's current decision, by DOT, from one request per 500 DOTs. */
export async function fetchStandings(
  dots: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, DecisionStanding>> {
  const parts: string[][] = [];
  for (let i = 0; i < dots.length; i += MAX_STANDING_DOTS) {
    parts.push(dots.slice(i, i + MAX_STANDING_DOTS));
  }
  const answers = await Promise.all(
    parts.map((part) =>
      apiGet('/api/local/decisions/current', { dot_numbers: part.join(',') }, { signal }),
    ),
  );
  const map = new Map<string, DecisionStanding>();
  for (const body of answers) {
    for (const item of standingPage.parse(body).items) map.set(item.dot_number, item);
  }
  return map;
}

/**
 * The standings of the carriers a screen shows (none asked → no call). `staleTime: 0`: a policy
 * saved elsewhere changes standings, so each screen asks anew when it opens.
 */
/**
 * The standing of each carrier's current decision, by DOT. `basis` names the data the screen shows
 * beside it (e.g. the verdict's policy version and fetch time): when that moves on — the profile was
 * fetched anew after a monitoring change, the policy was saved — the standing is asked again, so the
 * decision is never judged on older data than the verdict next to it. The previous answer stays on
 * screen while the new one comes.
 */
export function useDecisionStandings(dots: readonly string[], enabled = true, basis?: string) {
  const asked = standingDots(dots);
  return useQuery({
    queryKey: [...standingKey(asked), basis ?? null],
    queryFn: ({ signal }) => fetchStandings(asked, signal),
    enabled: enabled && asked.length > 0,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

export type StandingTone = 'good' | 'bad' | 'warn' | 'info' | 'neutral';

export interface StandingMark {
  key: 'needs_revet' | 'override' | 'revet_overdue' | 'revet_soon' | 'stale';
  text: string;
  tone: StandingTone;
  title?: string;
}

interface StandingWords {
  /** "Approved 20 Nov — now fails policy v2 (2 reasons)" */
  text: string;
  /** the same without the date, for a phone: "Approved — now fails policy v2 (2 reasons)" */
  short: string;
  /** the fewest words, for a one-line strip on a phone: "Approved — now fails" */
  brief: string;
  tone: StandingTone;
  /** the reasons the verdict now gives, one a line, for a title */
  reasons: string;
  marks: StandingMark[];
}

const APPROVALS = new Set(['approved', 'approved_with_conditions']);

/** "20 Nov" this year, "20 Nov 2025" another year. */
export function shortDate(iso: string, today: Date = new Date()): string {
  const full = formatDate(iso);
  const year = String(today.getFullYear());
  return full.endsWith(` ${year}`) ? full.slice(0, -year.length - 1) : full;
}

function localDay(day: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The standing in the fewest words (a holding decision keeps its own: "Review accepted", or none). */
const BRIEF: Partial<Record<DecisionStanding['standing'], string>> = {
  now_fails: 'now fails',
  now_review: 'now needs review',
  now_passes: 'now passes',
  unknown: 'standing unknown',
};

/** The words and tone of a decision's standing, the same on every screen. */
export function standingWords(item: DecisionStanding, today: Date = new Date()): StandingWords {
  const decided = `${DECISION_LABELS[item.decision]} ${shortDate(item.decided_at, today)}`;
  const nonPass = (item.now?.reasons ?? []).filter((r) => r.outcome !== 'pass');
  const count = nonPass.length;
  const version = item.now ? `policy v${item.now.policy_version}` : 'policy';
  const why = count > 0 ? ` (${plural(count, 'reason')})` : '';
  const reasons = nonPass.map((r) => `${r.label ?? r.rule}: ${r.message}`).join('\n');
  let text: string;
  let tone: StandingTone;
  switch (item.standing) {
    case 'now_fails':
      text = `${decided} — now fails ${version}${why}`;
      tone = 'bad';
      break;
    case 'now_review':
      text = `${decided} — now needs review under ${version}${why}`;
      tone = 'warn';
      break;
    case 'now_passes':
      text = `${decided} — now passes ${version}`;
      tone = 'info';
      break;
    case 'unknown':
      text = `${decided} — standing unknown (no data held)`;
      tone = 'neutral';
      break;
    default:
      if (APPROVALS.has(item.decision) && item.now && item.now.verdict !== 'pass') {
        // an approval over a Review or a Fail that still stands: never a green "Approved"
        // beside a verdict that is not a Pass
        const word = item.now.verdict === 'fail' ? 'Fail' : 'Review';
        text = `${decided} — ${word} accepted`;
        tone = item.now.verdict === 'fail' ? 'bad' : 'warn';
      } else {
        text = decided;
        tone = APPROVALS.has(item.decision)
          ? item.decision === 'approved'
            ? 'good'
            : 'warn'
          : 'bad';
      }
  }
  const marks: StandingMark[] = [];
  if (item.needs_revet) {
    marks.push({
      key: 'needs_revet',
      text: 'needs re-vet',
      tone: 'warn',
      title: 'The policy changed since this decision and its standing changed with it.',
    });
  }
  if (item.override) {
    marks.push({
      key: 'override',
      text: 'override',
      tone: 'neutral',
      title: item.override_reason
        ? `Recorded against the verdict: ${item.override_reason}`
        : 'Recorded against the verdict, with a reason on the record.',
    });
  }
  // an answer without `revet_due` (older proxy): past the date is overdue
  const due =
    item.revet_due !== undefined
      ? item.revet_due
      : item.expires_on !== null && item.expires_on < localDay(today)
        ? 'overdue'
        : null;
  if (due) {
    const date = item.expires_on ? formatDate(item.expires_on) : 'its date';
    marks.push(
      due === 'overdue'
        ? { key: 'revet_overdue', text: 're-vet overdue', tone: 'bad', title: `Re-vet by ${date}` }
        : { key: 'revet_soon', text: 're-vet soon', tone: 'warn', title: `Re-vet by ${date}` },
    );
  }
  if (item.now?.stale) {
    marks.push({
      key: 'stale',
      text: 'data to refresh',
      tone: 'neutral',
      title: 'The held data predates a reported change; it is fetched anew on the next view.',
    });
  }
  const label = DECISION_LABELS[item.decision];
  const short = label + text.slice(decided.length);
  const status = BRIEF[item.standing] ?? text.slice(decided.length).replace(/^ — /, '');
  const brief = status ? `${label} — ${status}` : label;
  return { text, short, brief, tone, reasons, marks };
}

/** Worst first: needs re-vet, now fails, now needs review, the rest (stable otherwise). */
export function standingRank(item: DecisionStanding | undefined): number {
  if (!item) return 4;
  if (item.needs_revet) return 0;
  if (item.standing === 'now_fails') return 1;
  if (item.standing === 'now_review') return 2;
  return 3;
}

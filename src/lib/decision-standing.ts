/**
 * A decision's standing in words (issue 29, docs/vetting.md): the proxy's
 * `GET /api/local/decisions/current` answers, per carrier, the newest decision record and how it
 * stands under the current policy on the freshest held data (`now`, `standing`); the vetting
 * entity asks it (`useDecisionStandings`, src/entities/vetting/standing.ts) and every screen words
 * it with `standingWords`, so every screen says the same. Plain code: no React Query.
 */
import { formatDate } from './format.ts';
import type { CurrentDecision, HeldVerdict } from './vetting/contract.ts';
import { DECISION_LABELS } from './vetting/decision-record.ts';

/**
 * What a screen needs of a current decision (`CurrentDecision`, the answer's one schema in
 * src/lib/vetting/contract.ts) to word its standing.
 */
export interface DecisionStanding extends Pick<
  CurrentDecision,
  | 'id'
  | 'dot_number'
  | 'decision'
  | 'decided_at'
  | 'expires_on'
  | 'policy_version'
  | 'override_reason'
  | 'standing'
  | 'override'
  | 'needs_revet'
> {
  verdict: Pick<CurrentDecision['verdict'], 'verdict'>;
  now:
    | (Pick<HeldVerdict, 'verdict' | 'policy_version' | 'stale'> &
        Partial<Pick<HeldVerdict, 'fetched_at' | 'evaluated_at' | 'source'>> & {
          reasons: Pick<HeldVerdict['reasons'][number], 'rule' | 'label' | 'outcome' | 'message'>[];
        })
    | null;
  /** absent from an older proxy's answer: a past re-vet date then reads overdue */
  revet_due?: CurrentDecision['revet_due'];
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
export function standingFor<T extends DecisionStanding>(
  standings: ReadonlyMap<string, T> | undefined,
  dot: string | undefined,
): T | undefined {
  return dot === undefined ? undefined : standings?.get(dotKey(dot));
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

/**
 * A decision and how it stands now, the same on every screen that shows one (docs/vetting.md):
 * "Approved 20 Nov — now fails policy v2 (2 reasons)" in the verdict's fail colour, "… now needs
 * review" in its review colour, "Rejected 3 Nov — now passes policy v3" as information, plain
 * "Approved 20 Nov" when it holds; beside it the marks "needs re-vet", "override", "re-vet
 * overdue/soon". A symbol and the words carry the state, never the colour alone; the reasons are
 * in the title and, with `link`, one click away on the profile's full verdict.
 */
import { Link } from 'react-router';
import { carrierPath } from '../lib/carrier/paths.ts';
import {
  standingWords,
  type DecisionStanding as Item,
  type StandingMark,
  type StandingTone,
} from '../lib/decision-standing.ts';

const SYMBOL: Record<StandingTone, string> = {
  good: '✓',
  bad: '✕',
  warn: '!',
  info: 'i',
  neutral: '–',
};

// the verdict's tones (the profile's verdict-style.ts): fail red, review amber, pass emerald
const TONE: Record<StandingTone, string> = {
  good: 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100',
  bad: 'border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100',
  warn: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100',
  info: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100',
  neutral:
    'border-neutral-300 bg-neutral-100 text-neutral-800 dark:border-neutral-700 dark:bg-neutral-800 dark:text-neutral-100',
};

const PILL = 'inline-flex items-baseline gap-1 rounded-md border px-2 py-0.5 text-sm font-medium';

interface DecisionStandingProps {
  item: Item;
  /** read before the words, e.g. "Decision" */
  label?: string;
  /** the words link to the carrier's full verdict (its reasons) */
  link?: boolean;
  /** marks the screen shows elsewhere (the Decisions list marks every override beside its verdict) */
  omit?: readonly StandingMark['key'][];
  today?: Date;
  /**
   * on a phone: without the label's words (kept for screen readers) and the date, marks smaller;
   * with `marksOnPhone: false` the marks are left to the fuller view (the profile's Overview)
   */
  narrow?: boolean;
  /** with `narrow`: the fewest words on a phone ("Approved — now fails"; the reasons in the title) */
  brief?: boolean;
  marksOnPhone?: boolean;
}

export function DecisionStanding({
  item,
  label,
  link = false,
  omit = [],
  today,
  narrow = false,
  brief = false,
  marksOnPhone = true,
}: DecisionStandingProps) {
  const words = standingWords(item, today);
  const marks = words.marks.filter((mark) => !omit.includes(mark.key));
  const title = words.reasons || undefined;
  const body = (
    <>
      <span aria-hidden="true" className="font-bold">
        {SYMBOL[words.tone]}
      </span>
      <span>
        {label ? (
          <span className={narrow ? 'font-normal max-sm:sr-only' : 'font-normal'}>{label}: </span>
        ) : null}
        {narrow ? (
          <>
            <span className="max-sm:hidden">{words.text}</span>
            <span className="sm:hidden">{brief ? words.brief : words.short}</span>
          </>
        ) : (
          words.text
        )}
      </span>
    </>
  );
  return (
    <span
      className="inline-flex flex-wrap items-center gap-x-1.5 gap-y-1"
      data-standing={item.standing}
    >
      {link ? (
        <Link
          to={carrierPath(item.dot_number, 'overview', 'verdict')}
          title={title}
          className={`${PILL} ${TONE[words.tone]} underline decoration-1 underline-offset-2`}
        >
          {body}
          {item.standing === 'holds' ? null : (
            <span className="sr-only"> (the verdict and its reasons on the profile)</span>
          )}
        </Link>
      ) : (
        <span title={title} className={`${PILL} ${TONE[words.tone]}`}>
          {body}
        </span>
      )}
      {marks.map((mark) => (
        <span
          key={mark.key}
          title={mark.title}
          data-mark={mark.key}
          className={`${PILL} ${TONE[mark.tone]} whitespace-nowrap ${narrow ? 'max-sm:px-1.5 max-sm:py-0 max-sm:text-xs' : ''} ${marksOnPhone ? '' : 'max-sm:hidden'}`}
        >
          <span aria-hidden="true" className="font-bold">
            {SYMBOL[mark.tone]}
          </span>
          {mark.text}
        </span>
      ))}
    </span>
  );
}

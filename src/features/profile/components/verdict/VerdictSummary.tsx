/**
 * The verdict first: directly under the carrier's name, on every tab, the word Pass, Review or Fail
 * with the carrier's current decision beside it. On the Overview it also holds "Record a decision"
 * (the next tab stop after the name), the decision history and a link down to the reasons (the
 * full verdict, VerdictBanner); on the other tabs it is one compact line with a link to the
 * Overview's full verdict.
 */
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { carrierPath } from '../../../../lib/carrier/paths.ts';
import type { Profile } from '../../../../lib/service/index.ts';
import { DECISION_LABELS } from '../../../../lib/vetting/decision-record.ts';
import { useRecordDecision } from '../../api/verdict.ts';
import { useCan } from '../../../../entities/session/role.ts';
import { RoleNote } from '../../../../entities/session/RoleNote.tsx';
import type { Outcome } from '../../../../lib/vetting/index.ts';
import { focusWhenShown } from '../tabs/overview/focus-target.ts';
import { DecisionHistory, DecisionState } from './CurrentDecision.tsx';
import { TenderCheckHistory } from '../../../../entities/tender-check/components/TenderCheckHistory.tsx';
import { BUTTON_CLASS, DecisionForm } from './DecisionForm.tsx';
import { useShownVerdict } from './use-shown-verdict.ts';
import {
  BANNER_CLASS,
  FULL_VERDICT_ID,
  OUTCOME_SYMBOL,
  OUTCOME_WORDS,
  WORD_CLASS,
} from './verdict-style.ts';

/** The summary's element id. */
const VERDICT_SUMMARY_ID = 'verdict-summary';

const BOX = 'mt-3 rounded-lg border-2 text-sm max-sm:mt-2';
const LINK = 'text-sky-800 underline dark:text-sky-300';

interface VerdictSummaryProps {
  dot: string;
  profile: Profile;
  /** the Overview shows the whole summary; the other tabs one compact line */
  compact: boolean;
  evaluateLocally?: boolean;
}

function VerdictWord({ verdict, large }: { verdict: Outcome; large: boolean }) {
  return (
    <span
      className={`font-semibold text-neutral-950 dark:text-neutral-50 ${large ? 'text-lg max-sm:text-base' : ''}`}
    >
      Verdict:{' '}
      <span className={WORD_CLASS[verdict]}>
        <span aria-hidden="true">{OUTCOME_SYMBOL[verdict]} </span>
        {OUTCOME_WORDS[verdict]}
      </span>
    </span>
  );
}

function reasonsText(deciding: number, total: number): string {
  if (deciding === 0) return `All ${total} checks pass`;
  return deciding === 1 ? 'Why: 1 reason' : `Why: ${deciding} reasons`;
}

export function VerdictSummary({
  dot,
  profile,
  compact,
  evaluateLocally = false,
}: VerdictSummaryProps) {
  const query = useShownVerdict(dot, profile, evaluateLocally);
  const [open, setOpen] = useState(false);
  const record = useRecordDecision();
  const can = useCan('record decisions');
  const formId = useId();
  const roleNoteId = useId();
  const verdict = query.data;
  if (query.isError) {
    return (
      <p
        role="alert"
        id={VERDICT_SUMMARY_ID}
        className={`${BOX} border-red-300 px-3 py-2 dark:border-red-800`}
      >
        No verdict could be computed for this carrier: {query.error.message}
      </p>
    );
  }
  if (!verdict) {
    // as tall as the summary it stands for (measured: 54 and 78 px on the Overview, 36 and 60 px
    // on the other tabs, wide and on a phone): nothing below jumps when the verdict arrives
    return (
      <p
        role="status"
        id={VERDICT_SUMMARY_ID}
        className={`${BOX} border-neutral-300 px-3 py-1.5 dark:border-neutral-700 ${compact ? 'min-h-9 max-sm:min-h-15' : 'min-h-13.5 max-sm:min-h-19.5'}`}
      >
        Computing the verdict…
      </p>
    );
  }
  const deciding = verdict.reasons.filter((reason) => reason.outcome !== 'pass').length;
  const basis = `${verdict.policy_version}@${'fetched_at' in verdict ? verdict.fetched_at : ''}`;
  const fullVerdict = carrierPath(dot, 'overview', FULL_VERDICT_ID);
  if (compact) {
    return (
      <section
        id={VERDICT_SUMMARY_ID}
        aria-label="Verdict summary"
        data-verdict={verdict.verdict}
        className={`${BOX} flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-1.5 ${BANNER_CLASS[verdict.verdict]}`}
      >
        <VerdictWord verdict={verdict.verdict} large={false} />
        {/* on a phone the link shares the verdict's line and the decision takes the next one
            (the decision holds nothing to focus, so the Tab order is unchanged) */}
        <span className="max-sm:order-2">
          <DecisionState dot={dot} compact basis={basis} />
        </span>
        <Link to={fullVerdict} className={`${LINK} whitespace-nowrap max-sm:order-1`}>
          Full verdict
          <span className="sr-only"> and its reasons, on the Overview</span>
        </Link>
      </section>
    );
  }
  return (
    <section
      id={VERDICT_SUMMARY_ID}
      aria-label="Verdict summary"
      data-verdict={verdict.verdict}
      className={`${BOX} px-3 py-2 max-sm:py-1.5 ${BANNER_CLASS[verdict.verdict]}`}
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <VerdictWord verdict={verdict.verdict} large />
        <DecisionState dot={dot} basis={basis} />
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2 sm:ml-auto" data-print-hide>
          <button
            type="button"
            className={`${BUTTON_CLASS} disabled:cursor-not-allowed disabled:opacity-60 max-sm:py-1`}
            aria-expanded={open}
            aria-controls={formId}
            disabled={!can.allowed}
            aria-describedby={can.allowed ? undefined : roleNoteId}
            onClick={() => {
              setOpen(!open);
              record.reset();
            }}
          >
            Record a decision
          </button>
          <RoleNote id={roleNoteId} permission={can} />
          <Link
            to={fullVerdict}
            onClick={() => focusWhenShown(FULL_VERDICT_ID)}
            className={`${LINK} whitespace-nowrap`}
          >
            {reasonsText(deciding, verdict.reasons.length)}
            <span className="sr-only"> (the full verdict below)</span>
          </Link>
        </div>
      </div>
      <DecisionHistory dot={dot} />
      <TenderCheckHistory dot={dot} />
      {record.isSuccess ? (
        <p role="status" className="mt-2 text-neutral-900 dark:text-neutral-100">
          Decision recorded: {DECISION_LABELS[record.data.decision]} (record #{record.data.id}).{' '}
          <Link to={`/decisions/${record.data.id}`} className={LINK}>
            Print view
          </Link>
        </p>
      ) : null}
      {open && can.allowed ? (
        <DecisionForm
          dot={dot}
          verdict={verdict.verdict}
          policyVersion={verdict.policy_version}
          reasons={deciding}
          id={formId}
          record={record}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </section>
  );
}

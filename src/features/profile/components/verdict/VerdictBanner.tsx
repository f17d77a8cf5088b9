/**
 * The overview's full verdict: the team policy (docs/vetting.md) evaluated by the proxy
 * (`/api/local/verdict`: the same engine, on its cached copy of the profile, so the browser does not
 * download the full profile for it), the word Pass, Review or Fail, the policy version, and the
 * reasons that decided it, each linking to the element that shows its evidence. The headline and
 * recording a decision are in the header's summary above (VerdictSummary).
 */
import { useId } from 'react';
import { Link } from 'react-router';
import { carrierPath } from '../../../../lib/carrier/paths.ts';
import { formatDate } from '../../../../lib/format.ts';
import type { Profile } from '../../../../lib/service/index.ts';
import type { VerdictReason } from '../../../../entities/vetting/verdict.ts';
import { focusWhenShown } from '../tabs/overview/focus-target.ts';
import { PROFILE_TABS } from '../tabs/types.ts';
import { useShownVerdict } from './use-shown-verdict.ts';
import {
  BANNER_CLASS,
  FULL_VERDICT_ID,
  OUTCOME_SYMBOL,
  OUTCOME_WORDS,
  WORD_CLASS,
} from './verdict-style.ts';

function tabLabel(tab: string): string {
  return PROFILE_TABS.find((entry) => entry.id === tab)?.label ?? tab;
}

/** Where a reason's evidence is: the tab, and the section (or row) in it. */
function evidenceHref(dot: string, reason: Pick<VerdictReason, 'tab' | 'anchor'>): string {
  return carrierPath(dot, reason.tab, reason.anchor);
}

function Tags({ reason }: { reason: VerdictReason }) {
  const tags = [
    reason.not_enough_data ? 'not enough data' : undefined,
    reason.not_applicable ? 'not applicable' : undefined,
    reason.vendor_derived ? 'computed by the data vendor' : undefined,
  ].filter((tag): tag is string => tag !== undefined);
  return tags.map((tag) => (
    <span
      key={tag}
      className="ml-2 rounded border border-neutral-400 px-1.5 text-xs font-medium text-neutral-800 dark:border-neutral-500 dark:text-neutral-200"
    >
      {tag}
    </span>
  ));
}

function ReasonItem({ dot, reason }: { dot: string; reason: VerdictReason }) {
  return (
    <li className="flex gap-2" data-rule={reason.rule} data-outcome={reason.outcome}>
      <span aria-hidden="true" className={`font-bold ${WORD_CLASS[reason.outcome]}`}>
        {OUTCOME_SYMBOL[reason.outcome]}
      </span>
      <span>
        <strong>
          {OUTCOME_WORDS[reason.outcome]} · {reason.label ?? reason.rule}:
        </strong>{' '}
        {reason.message}
        <Tags reason={reason} />{' '}
        <Link
          to={evidenceHref(dot, reason)}
          // the target may be on this very page (the header's badges): focus it there too
          onClick={() => focusWhenShown(reason.anchor ?? '')}
          className="text-sm whitespace-nowrap text-sky-800 underline dark:text-sky-300"
        >
          Evidence: {tabLabel(reason.tab)}{' '}
          <span className="sr-only">({reason.label ?? reason.rule})</span>
        </Link>
      </span>
    </li>
  );
}

interface VerdictBannerProps {
  dot: string;
  /** the profile on screen (its summary is enough): for the vendor's risk score line */
  profile: Profile;
  /**
   * Evaluate here instead, on this full profile: when the proxy keeps no profile cache (it then
   * cuts no summary), each verdict call would be another billed profile call.
   */
  evaluateLocally?: boolean;
}

export function VerdictBanner({ dot, profile, evaluateLocally = false }: VerdictBannerProps) {
  const query = useShownVerdict(dot, profile, evaluateLocally);
  const headingId = useId();
  const verdict = query.data;
  if (query.isError) {
    return (
      <p role="alert" className="mb-4 rounded-md border border-red-300 p-3 text-sm">
        No verdict could be computed for this carrier: {query.error.message}
      </p>
    );
  }
  if (!verdict) {
    // As tall as a typical Review verdict (heading, policy line, three reasons; 276 px wide, 456 px
    // on a phone, measured on 2214589 and 4418207): the page below does not jump when it arrives,
    // a moment after the overview has drawn (layout shift).
    return (
      <p
        role="status"
        className="mb-6 min-h-69 rounded-lg border-2 border-neutral-300 p-4 text-sm max-sm:min-h-114 dark:border-neutral-700"
      >
        Computing the verdict…
      </p>
    );
  }
  const deciding = verdict.reasons.filter((reason) => reason.outcome !== 'pass');
  const passed = verdict.reasons.filter((reason) => reason.outcome === 'pass');
  return (
    <section
      id={FULL_VERDICT_ID}
      aria-labelledby={headingId}
      data-verdict={verdict.verdict}
      className={`mb-6 scroll-mt-4 rounded-lg border-2 p-4 ${BANNER_CLASS[verdict.verdict]}`}
    >
      <h2 id={headingId} className="text-xl font-semibold text-neutral-950 dark:text-neutral-50">
        Verdict:{' '}
        <span className={WORD_CLASS[verdict.verdict]}>
          <span aria-hidden="true">{OUTCOME_SYMBOL[verdict.verdict]} </span>
          {OUTCOME_WORDS[verdict.verdict]}
        </span>
      </h2>
      <p className="mt-1 text-sm text-neutral-800 dark:text-neutral-200">
        Policy version {verdict.policy_version} ·{' '}
        <Link to="/policy" className="text-sky-800 underline dark:text-sky-300">
          see the policy
        </Link>{' '}
        · data of {formatDate(verdict.snapshot_date)} · computed from the profile on screen
      </p>
      {profile.risk_score && !verdict.reasons.some((r) => r.rule === 'vendor_risk_score') ? (
        <p className="mt-1 text-sm text-neutral-800 dark:text-neutral-200">
          Vendor risk score {profile.risk_score} (computed by the data vendor; not a rule of this
          policy).
        </p>
      ) : null}
      {deciding.length > 0 ? (
        <>
          <h3 className="mt-3 font-semibold text-neutral-950 dark:text-neutral-50">
            Why ({deciding.length})
          </h3>
          <ul aria-label="Reasons for the verdict" className="mt-1 space-y-1.5 text-sm">
            {deciding.map((reason) => (
              <ReasonItem key={reason.rule} dot={dot} reason={reason} />
            ))}
          </ul>
        </>
      ) : (
        <p className="mt-3 text-sm text-neutral-900 dark:text-neutral-100">
          Every rule of the policy passes.
        </p>
      )}
      <details className="mt-3 text-sm" open={deciding.length === 0}>
        <summary className="cursor-pointer font-medium text-neutral-900 dark:text-neutral-100">
          Checks passed ({passed.length})
        </summary>
        <ul aria-label="Checks passed" className="mt-2 space-y-1.5">
          {passed.map((reason) => (
            <ReasonItem key={reason.rule} dot={dot} reason={reason} />
          ))}
        </ul>
      </details>
    </section>
  );
}

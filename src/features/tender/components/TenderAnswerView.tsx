/**
 * The answer of a tender check in one screen: Go / Call back first / Do not tender, large, in
 * colour, with a symbol and the words; what to do when identity is in doubt; the searches left
 * pending with their cost and the button that runs them (nothing is billed before it is pressed);
 * then every reason, grouped Identity / Load fit / Verdict, each with its evidence and a link to
 * where the profile shows it.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PRIMARY_BUTTON, MUTED } from '../../../components/controls.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { formatDate, formatDateTime, formatUsd } from '../../../lib/format.ts';
import {
  TENDER_ANSWER_LABELS,
  TENDER_CHECK_LABELS,
  TENDER_RULE_GROUP,
  type TenderAnswer,
  type TenderCheckAnswer,
  type TenderEvidence,
  type TenderOutcome,
  type TenderReason,
  type TenderSearch,
} from '../../../lib/tender/contract.ts';
import { DECISION_LABELS } from '../../../lib/vetting/decision-record.ts';
import { pendingTotal, RULE_LABELS } from '../model/answer.ts';

const LINK = 'text-sky-800 underline dark:text-sky-300';

const ANSWER_STYLE: Record<TenderAnswer, { box: string; symbol: string; advice: string }> = {
  go: {
    box: 'border-emerald-600 bg-emerald-50 text-emerald-950 dark:border-emerald-500 dark:bg-emerald-950 dark:text-emerald-50',
    symbol: '✓',
    advice: 'The offer matches the carrier on record, and the carrier fits this load.',
  },
  call_back: {
    box: 'border-amber-600 bg-amber-50 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50',
    symbol: '!',
    advice: 'Something needs a second look before you tender: see the reasons below.',
  },
  do_not_tender: {
    box: 'border-red-600 bg-red-50 text-red-950 dark:border-red-500 dark:bg-red-950 dark:text-red-50',
    symbol: '✕',
    advice: 'Do not give this load to whoever made the offer: see the reasons below.',
  },
};

const OUTCOME_STYLE: Record<TenderOutcome, { label: string; symbol: string; className: string }> = {
  pass: {
    label: 'Pass',
    symbol: '✓',
    className:
      'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100',
  },
  review: {
    label: 'Review',
    symbol: '!',
    className:
      'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100',
  },
  fail: {
    label: 'Fail',
    symbol: '✕',
    className:
      'border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100',
  },
};

function OutcomePill({ outcome }: { outcome: TenderOutcome }) {
  const style = OUTCOME_STYLE[outcome];
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold ${style.className}`}
    >
      <span aria-hidden="true">{style.symbol}</span>
      {style.label}
    </span>
  );
}

function AppLink({ to, children }: { to: string; children: ReactNode }) {
  return to.startsWith('/') ? (
    <Link to={to} className={LINK}>
      {children}
    </Link>
  ) : (
    <span>{children}</span>
  );
}

function evidenceValue(value: TenderEvidence['value']): string {
  if (value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

const SOURCE_LABEL: Record<TenderEvidence['source'], string> = {
  profile: 'profile',
  'profile-lite': 'lite profile',
  policy: 'policy',
  decisions: 'decision record',
  input: 'the offer',
};

function Evidence({ items }: { items: TenderEvidence[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-sm text-neutral-700 dark:text-neutral-300">
      {items.map((item, index) => (
        <li key={`${item.field}-${index}`} className="break-words">
          <code className="font-mono text-xs">{item.field}</code> = {evidenceValue(item.value)}
          <span className={MUTED}>
            {' '}
            · {SOURCE_LABEL[item.source]}
            {item.date ? ` of ${formatDate(item.date)}` : ''}
          </span>
          {item.link ? (
            <>
              {' '}
              ·{' '}
              <AppLink to={item.link}>
                show<span className="sr-only"> {item.field}</span>
              </AppLink>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function ReasonList({ reasons, pending }: { reasons: TenderReason[]; pending: boolean }) {
  if (reasons.length === 0) {
    return (
      <p className={MUTED}>
        {pending
          ? 'Not judged yet: what it rests on is among the searches not run.'
          : 'Nothing was checked here.'}
      </p>
    );
  }
  return (
    <ul className="space-y-3">
      {reasons.map((reason) => (
        <li key={reason.rule} data-rule={reason.rule} data-outcome={reason.outcome}>
          <div className="flex flex-wrap items-start gap-x-2 gap-y-1">
            <OutcomePill outcome={reason.outcome} />
            <span className="min-w-0 flex-1 font-medium">{RULE_LABELS[reason.rule]}</span>
          </div>
          <p className="mt-1 break-words">{reason.text}</p>
          <Evidence items={reason.evidence} />
        </li>
      ))}
    </ul>
  );
}

const SEARCH_STATUS: Record<TenderSearch['status'], string> = {
  held: 'answered from data held',
  free: 'free (already fetched this month)',
  billed: 'billed',
  pending: 'not run yet',
  failed: 'failed',
  skipped: 'nothing to search',
};

function Searches({ searches }: { searches: TenderSearch[] }) {
  if (searches.length === 0) return null;
  return (
    <div className="mt-4">
      <h4 className="text-sm font-semibold">Searches</h4>
      <ul className="mt-1 space-y-1 text-sm">
        {searches.map((search) => (
          <li key={`${search.check}-${search.key}`} className="break-words">
            {TENDER_CHECK_LABELS[search.check]} ({search.key} {search.value}):{' '}
            {SEARCH_STATUS[search.status]}
            {search.cost_usd > 0 ? `, ${formatUsd(search.cost_usd)}` : ''}
            {search.found.length > 0 ? (
              <>
                {' '}
                — also on{' '}
                {search.found.map((found, index) => (
                  <span key={found.dot_number}>
                    {index > 0 ? ', ' : ''}
                    <Link to={carrierPath(found.dot_number, 'contact')} className={LINK}>
                      USDOT {found.dot_number}
                      {found.legal_name ? ` ${found.legal_name}` : ''}
                    </Link>{' '}
                    ({found.now ? 'now' : 'in the past'}
                    {found.usdot_status ? `, USDOT ${found.usdot_status}` : ''})
                  </span>
                ))}
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A group of reasons; its outcome is shown only when it rests on some reason. */
function Group({
  id,
  title,
  outcome,
  children,
}: {
  id: string;
  title: string;
  outcome: TenderOutcome | null | undefined;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-md border border-neutral-200 bg-white p-4 dark:border-neutral-800 dark:bg-neutral-900"
    >
      <h3 id={id} className="mb-3 flex flex-wrap items-center gap-2 text-lg font-semibold">
        {title}
        {outcome ? <OutcomePill outcome={outcome} /> : null}
      </h3>
      {children}
    </section>
  );
}

/** A group's outcome, unless no reason was judged (it would then claim what nothing checked). */
function shown(reasons: readonly TenderReason[], outcome: TenderOutcome | null) {
  return reasons.length > 0 ? outcome : undefined;
}

interface PendingProps {
  answer: TenderCheckAnswer;
  /** run the pending searches, allowing this much; absent when the user may not run checks */
  onConfirm?: ((maxCostUsd: number) => void) | undefined;
  confirming: boolean;
}

/** The searches the check left unrun for their cost, and the one button that runs them. */
function Pending({ answer, onConfirm, confirming }: PendingProps) {
  if (answer.pending.length === 0) return null;
  const total = pendingTotal(answer.pending);
  return (
    <section
      aria-labelledby="tender-pending"
      className="rounded-md border border-sky-400 bg-sky-50 p-4 dark:border-sky-700 dark:bg-sky-950"
    >
      <h3 id="tender-pending" className="font-semibold">
        Not checked yet: {answer.pending.length} billed{' '}
        {answer.pending.length === 1 ? 'search' : 'searches'}, up to {formatUsd(total)}
      </h3>
      <ul className="mt-2 space-y-1 text-sm">
        {answer.pending.map((item) => (
          <li key={item.check}>
            {TENDER_CHECK_LABELS[item.check]}: up to {formatUsd(item.cost_usd)} (
            {item.endpoint === 'profile-lite' ? 'lite profile' : 'profile'},{' '}
            {formatUsd(item.unit_price_usd)} per new carrier, at most {item.max_units})
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm">
        Nothing has been billed for them. Until they run, the answer is at best Call back first.
      </p>
      {onConfirm ? (
        <button
          type="button"
          className={`${PRIMARY_BUTTON} mt-3`}
          disabled={confirming}
          onClick={() => onConfirm(total)}
        >
          {confirming ? 'Running…' : `Run them, up to ${formatUsd(total)}`}
        </button>
      ) : null}
    </section>
  );
}

export function TenderAnswerView({
  answer,
  onConfirm,
  confirming = false,
}: {
  answer: TenderCheckAnswer;
  onConfirm?: ((maxCostUsd: number) => void) | undefined;
  confirming?: boolean;
}) {
  const style = ANSWER_STYLE[answer.answer];
  const groups = {
    identity: answer.reasons.filter((r) => TENDER_RULE_GROUP[r.rule] === 'identity'),
    load_fit: answer.reasons.filter((r) => TENDER_RULE_GROUP[r.rule] === 'load_fit'),
    verdict: answer.reasons.filter((r) => TENDER_RULE_GROUP[r.rule] === 'verdict'),
  };
  const pending = answer.pending.length > 0;
  const carrier = answer.carrier;
  const decision = answer.verdict.decision;
  return (
    <article aria-labelledby="tender-answer" className="space-y-4" data-answer={answer.answer}>
      <div role="status" className={`rounded-lg border-2 p-4 sm:p-6 ${style.box}`}>
        <h2 id="tender-answer" className="flex items-center gap-3 text-3xl font-bold sm:text-4xl">
          <span
            aria-hidden="true"
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-full border-2 border-current text-2xl sm:size-12"
          >
            {style.symbol}
          </span>
          {TENDER_ANSWER_LABELS[answer.answer]}
        </h2>
        <p className="mt-2 text-base">{style.advice}</p>
        {answer.identity.call_back ? (
          <p className="mt-2 text-base font-semibold" data-testid="tender-call-back">
            {answer.identity.call_back}
          </p>
        ) : null}
        <p className="mt-3 text-sm break-words">
          {carrier ? (
            <>
              <Link to={carrierPath(carrier.dot_number)} className="font-medium underline">
                {carrier.legal_name ?? `USDOT ${carrier.dot_number}`}
              </Link>{' '}
              · USDOT {carrier.dot_number}
              {carrier.docket ? ` · ${carrier.docket}` : ''}
            </>
          ) : (
            'The carrier’s profile was not read.'
          )}
          {' · '}Check #{answer.id}, {formatDateTime(answer.checked_at)} by {answer.user.name}
          {answer.snapshot_date ? ` · data of ${formatDate(answer.snapshot_date)}` : ''} · cost{' '}
          {formatUsd(answer.cost_usd)}
          {answer.input.redacted ? ' · phone and e-mail removed after the retention period' : ''}
        </p>
      </div>
      <Pending answer={answer} onConfirm={onConfirm} confirming={confirming} />
      <div className="grid gap-4 lg:grid-cols-2">
        <Group
          id="tender-identity"
          title="Identity"
          outcome={shown(groups.identity, answer.identity.outcome)}
        >
          <ReasonList reasons={groups.identity} pending={pending} />
          <Searches searches={answer.identity.searches} />
        </Group>
        <div className="space-y-4">
          <Group
            id="tender-load-fit"
            title="Load fit"
            outcome={shown(groups.load_fit, answer.load_fit.outcome)}
          >
            {answer.load_fit.load_given ? null : (
              <p className={`${MUTED} mb-2`}>
                No load was described: only the carrier’s own insurance was checked.
              </p>
            )}
            <ReasonList reasons={groups.load_fit} pending={pending} />
          </Group>
          <Group
            id="tender-verdict"
            title="Verdict"
            outcome={shown(groups.verdict, answer.verdict.verdict)}
          >
            <ReasonList reasons={groups.verdict} pending={pending} />
            <p className="mt-3 text-sm">
              {decision ? (
                <>
                  Current decision:{' '}
                  <Link to={`/decisions/${decision.id}`} className={LINK}>
                    {DECISION_LABELS[decision.decision]} (record #{decision.id})
                  </Link>
                  , {formatDate(decision.decided_at)}
                  {decision.expires_on ? `, re-vet by ${formatDate(decision.expires_on)}` : ''}
                </>
              ) : (
                'No decision recorded for this carrier.'
              )}
              {answer.verdict.policy_version !== null
                ? ` Policy v${answer.verdict.policy_version}.`
                : ''}
            </p>
          </Group>
        </div>
      </div>
    </article>
  );
}

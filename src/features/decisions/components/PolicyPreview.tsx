/**
 * What saving the edited policy would do to the decisions on record, shown before "Save"
 * (docs/vetting.md, "Standing"): "Saving would change 3 carriers: 2 would fail, 1 would need
 * review", then each carrier (linked to its profile) with its decision, its verdict before and
 * after, and the reasons under the proposed policy. Asked of the proxy (held data only: nothing
 * stored, no billed call) once an edit has rested 300 ms.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { MUTED } from '../../../components/controls.ts';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { DECISION_LABELS } from '../../../lib/vetting/decision-record.ts';
import {
  usePolicyPreview,
  type PolicyPreview as Preview,
  type PreviewEntry,
  type RuleChanges,
} from '../api/policy.ts';
import type { PolicyOptions } from '../../../lib/vetting/index.ts';

const LINK = 'text-sky-800 underline dark:text-sky-300';
/** A threshold typed digit by digit is asked about once it rests this long. */
const SETTLE_MS = 300;

/** `value` once it has not changed for `ms` (compared as JSON: a new object of the same edit is no change). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as T), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}
const VERDICT: Record<PreviewEntry['verdict_after'], string> = {
  pass: 'Pass',
  review: 'Review',
  fail: 'Fail',
};

const GROUPS = [
  { key: 'would_fail', label: 'would fail', tone: 'text-red-800 dark:text-red-300' },
  { key: 'would_review', label: 'would need review', tone: 'text-amber-800 dark:text-amber-300' },
  { key: 'would_pass', label: 'would pass', tone: 'text-emerald-800 dark:text-emerald-300' },
] as const;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "Saving would change 3 carriers: 2 would fail, 1 would need review". */
export function previewSummary(preview: Preview): string {
  const parts = GROUPS.filter((group) => preview[group.key].length > 0).map(
    (group) => `${preview[group.key].length} ${group.label}`,
  );
  const total = GROUPS.reduce((sum, group) => sum + preview[group.key].length, 0);
  if (total === 0) {
    return `Saving would change no carrier's standing (${plural(preview.unchanged, 'current decision')} checked).`;
  }
  return `Saving would change ${plural(total, 'carrier')}: ${parts.join(', ')}.`;
}

function reasonsText(entry: PreviewEntry): string {
  if (entry.reasons.length === 0) return 'no reasons left';
  return entry.reasons.map((reason) => reason.label ?? reason.rule).join('; ');
}

function EntryRow({ entry }: { entry: PreviewEntry }) {
  return (
    <li data-dot={entry.dot_number} className="py-1">
      <Link to={carrierPath(entry.dot_number)} className={`${LINK} font-medium`}>
        {entry.legal_name ?? `USDOT ${entry.dot_number}`}
      </Link>{' '}
      <span className={MUTED}>
        USDOT {entry.dot_number} · {DECISION_LABELS[entry.decision]} ·{' '}
        {VERDICT[entry.verdict_before]} → {VERDICT[entry.verdict_after]}
        {entry.standing_after !== entry.standing_before && entry.standing_after !== 'holds'
          ? ' · the decision would need a re-vet'
          : ''}
      </span>
      <div className="text-sm">{reasonsText(entry)}</div>
    </li>
  );
}

export function PolicyPreview({
  rules,
  options,
  enabled,
}: {
  rules: RuleChanges;
  options?: Partial<PolicyOptions> | undefined;
  enabled: boolean;
}) {
  const edit = { rules, ...(options ? { options } : {}) };
  const asked = useSettled(edit, SETTLE_MS);
  // asked only about the edit on screen once it rests; what is shown is always its answer
  const current = JSON.stringify(asked) === JSON.stringify(edit);
  const preview = usePolicyPreview(asked, enabled && current);
  const data = current ? preview.data : undefined;
  if (!enabled) return null;
  return (
    <section
      aria-labelledby="policy-preview-heading"
      className="mt-4 max-w-3xl rounded-md border border-neutral-300 p-3 dark:border-neutral-700"
      data-testid="policy-preview"
    >
      <h3 id="policy-preview-heading" className="font-semibold">
        Before you save
      </h3>
      <div role="status" aria-live="polite" className="text-sm">
        {preview.isError && current
          ? `Cannot tell which decisions this would change: ${preview.error.message}`
          : data
            ? previewSummary(data)
            : 'Working out which decisions this would change…'}
      </div>
      {data
        ? GROUPS.filter((group) => data[group.key].length > 0).map((group) => (
            <div key={group.key} className="mt-2">
              <h4 className={`text-sm font-semibold ${group.tone}`}>
                {plural(data[group.key].length, 'carrier')} {group.label}
              </h4>
              <ul className="divide-y divide-neutral-200 dark:divide-neutral-800">
                {data[group.key].map((entry) => (
                  <EntryRow key={entry.decision_id} entry={entry} />
                ))}
              </ul>
            </div>
          ))
        : null}
    </section>
  );
}

/**
 * "Attach a tender check": the carrier's stored checks to choose from when recording a decision,
 * so the record shows that identity was checked before it (docs/tender-check.md, "Kept as
 * evidence"). Nothing when the carrier has no check.
 */
import { useId } from 'react';
import { formatDateTime } from '../../../lib/format.ts';
import { TENDER_ANSWER_LABELS } from '../../../lib/tender/contract.ts';
import { useTenderChecks } from '../api.ts';

export function TenderCheckPicker({
  dot,
  value,
  onChange,
  selectClassName,
}: {
  dot: string;
  /** the chosen check's id, '' for none */
  value: string;
  onChange: (value: string) => void;
  selectClassName: string;
}) {
  const id = useId();
  const checks = useTenderChecks({ dot_number: dot });
  const items = checks.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <div className="text-sm font-medium">
      <label htmlFor={id}>Tender check made before this decision (optional)</label>
      <select
        id={id}
        className={selectClassName}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">None attached</option>
        {items.map((check) => (
          <option key={check.id} value={String(check.id)}>
            #{check.id} {TENDER_ANSWER_LABELS[check.answer]} — {formatDateTime(check.checked_at)},{' '}
            {check.user.name}
          </option>
        ))}
      </select>
    </div>
  );
}

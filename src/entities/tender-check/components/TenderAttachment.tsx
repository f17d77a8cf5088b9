/**
 * The tender check a decision record was made with (docs/tender-check.md, "Kept as evidence"), as
 * the record's page and its print show it: which check, its answer and identity outcome, who made
 * it and when, the data's date and the digest the record's hash covers.
 */
import { Link } from 'react-router';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import {
  TENDER_ANSWER_LABELS,
  type TenderDecisionAttachment,
} from '../../../lib/tender/contract.ts';

const OUTCOME_WORDS = { pass: 'passed', review: 'needs review', fail: 'failed' } as const;

export function TenderAttachment({
  attachment,
  linkClassName,
}: {
  attachment: TenderDecisionAttachment;
  linkClassName: string;
}) {
  return (
    <span data-testid="tender-attachment">
      <Link to={`/tender-checks/${attachment.id}`} className={linkClassName}>
        tender check #{attachment.id}
      </Link>
      : <strong>{TENDER_ANSWER_LABELS[attachment.answer]}</strong>, identity{' '}
      {OUTCOME_WORDS[attachment.identity]}; by {attachment.checked_by} on{' '}
      {formatDateTime(attachment.checked_at)}
      {attachment.snapshot_date ? `, data of ${formatDate(attachment.snapshot_date)}` : ''}{' '}
      <span className="font-mono break-all">(digest {attachment.digest.slice(0, 16)}…)</span>
    </span>
  );
}

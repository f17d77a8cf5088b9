import { Badge, type BadgeTone } from '../../../components/Badge.tsx';
import { TENDER_ANSWER_LABELS, type TenderAnswer } from '../../../lib/tender/contract.ts';

/** The tone of each answer: colour, a symbol and the words, never colour alone. */
const TENDER_ANSWER_TONE: Record<TenderAnswer, BadgeTone> = {
  go: 'good',
  call_back: 'warn',
  do_not_tender: 'bad',
};

/** A stored check's answer as a small pill ("✓ Go", "! Call back first", "✕ Do not tender"). */
export function TenderAnswerBadge({ answer }: { answer: TenderAnswer }) {
  return (
    <span data-answer={answer}>
      <Badge tone={TENDER_ANSWER_TONE[answer]}>{TENDER_ANSWER_LABELS[answer]}</Badge>
    </span>
  );
}

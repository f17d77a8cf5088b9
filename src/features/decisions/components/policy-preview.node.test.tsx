import { describe, expect, it } from 'vitest';
import type { PolicyPreview, PreviewEntry } from '../api/policy.ts';
import { previewSummary } from './PolicyPreview.tsx';

function entry(dot: string, verdict_after: PreviewEntry['verdict_after']): PreviewEntry {
  return {
    dot_number: dot,
    legal_name: null,
    decision: 'approved',
    decision_id: Number(dot),
    standing_before: 'holds',
    standing_after: verdict_after === 'fail' ? 'now_fails' : 'holds',
    verdict_before: 'review',
    verdict_after,
    reasons: [],
  };
}

const empty: PolicyPreview = {
  version_from: 2,
  would_fail: [],
  would_review: [],
  would_pass: [],
  unchanged: 7,
};

describe('previewSummary', () => {
  it('counts the carriers and names each group in words', () => {
    expect(
      previewSummary({
        ...empty,
        would_fail: [entry('1', 'fail'), entry('2', 'fail')],
        would_review: [entry('3', 'review')],
      }),
    ).toBe('Saving would change 3 carriers: 2 would fail, 1 would need review.');
    expect(previewSummary({ ...empty, would_pass: [entry('4', 'pass')] })).toBe(
      'Saving would change 1 carrier: 1 would pass.',
    );
  });

  it('says when nothing would change, and how many decisions were checked', () => {
    expect(previewSummary(empty)).toBe(
      "Saving would change no carrier's standing (7 current decisions checked).",
    );
    expect(previewSummary({ ...empty, unchanged: 1 })).toBe(
      "Saving would change no carrier's standing (1 current decision checked).",
    );
  });
});

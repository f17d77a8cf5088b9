import { describe, expect, it } from 'vitest';
import type { DecisionStanding } from '../../../lib/decision-standing.ts';
import { standingFirst } from './use-inbox.ts';

function standing(over: Partial<DecisionStanding>): DecisionStanding {
  return {
    id: 1,
    dot_number: '1',
    decision: 'approved',
    decided_at: '2026-11-20T10:00:00.000Z',
    expires_on: null,
    policy_version: 1,
    verdict: { verdict: 'pass' },
    now: { verdict: 'pass', policy_version: 1, reasons: [] },
    standing: 'holds',
    override: false,
    revet_due: null,
    needs_revet: false,
    ...over,
  };
}

describe('standingFirst', () => {
  it('puts needs re-vet first, then now fails, then now needs review, the rest in order', () => {
    const rows = [
      { dot: 'a' },
      { dot: 'b', standing: standing({ standing: 'now_review' }) },
      { dot: 'c', standing: standing({}) },
      { dot: 'd', standing: standing({ standing: 'now_fails' }) },
      { dot: 'e', standing: standing({ standing: 'now_passes', needs_revet: true }) },
      { dot: 'f', standing: standing({ standing: 'now_passes' }) },
    ];
    expect(standingFirst(rows).map((row) => row.dot)).toEqual(['e', 'd', 'b', 'a', 'c', 'f']);
  });
});

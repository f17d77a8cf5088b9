import { describe, expect, it } from 'vitest';
import {
  shortDate,
  standingDots,
  standingFor,
  standingRank,
  standingWords,
  type DecisionStanding,
} from './decision-standing.ts';

const TODAY = new Date(2026, 10, 29, 12);

function item(over: Partial<DecisionStanding> = {}): DecisionStanding {
  return {
    id: 7,
    dot_number: '4418207',
    decision: 'approved',
    decided_at: '2026-11-20T10:00:00.000Z',
    expires_on: null,
    policy_version: 1,
    verdict: { verdict: 'review' },
    now: {
      verdict: 'fail',
      policy_version: 2,
      reasons: [
        {
          rule: 'shared_identifiers',
          label: 'Identifiers shared',
          outcome: 'fail',
          message: 'Shares a phone with DOT 3187452',
        },
        {
          rule: 'new_entrant',
          label: 'New entrant',
          outcome: 'review',
          message: 'Under 18 months',
        },
        { rule: 'authority', label: 'Authority', outcome: 'pass', message: 'Active' },
      ],
    },
    standing: 'now_fails',
    override: false,
    revet_due: null,
    needs_revet: false,
    ...over,
  };
}

describe('standingWords', () => {
  it('words an approval that now fails in the fail tone, with its non-pass reasons', () => {
    const words = standingWords(item(), TODAY);
    expect(words.text).toBe('Approved 20 Nov — now fails policy v2 (2 reasons)');
    // a phone's forms: without the date, and in the fewest words
    expect(words.short).toBe('Approved — now fails policy v2 (2 reasons)');
    expect(words.brief).toBe('Approved — now fails');
    expect(standingWords(item({ standing: 'holds' }), TODAY).brief).toBe(
      'Approved — Fail accepted',
    );
    expect(
      standingWords(
        item({ standing: 'holds', now: { verdict: 'pass', policy_version: 2, reasons: [] } }),
        TODAY,
      ).brief,
    ).toBe('Approved');
    expect(words.tone).toBe('bad');
    expect(words.reasons).toBe(
      'Identifiers shared: Shares a phone with DOT 3187452\nNew entrant: Under 18 months',
    );
    expect(words.marks).toEqual([]);
  });

  it('words review, passes, holds and unknown', () => {
    const review = standingWords(
      item({
        standing: 'now_review',
        verdict: { verdict: 'pass' },
        now: {
          verdict: 'review',
          policy_version: 3,
          reasons: [{ rule: 'new_entrant', outcome: 'review', message: 'Under 18 months' }],
        },
      }),
      TODAY,
    );
    expect(review).toMatchObject({
      text: 'Approved 20 Nov — now needs review under policy v3 (1 reason)',
      tone: 'warn',
      reasons: 'new_entrant: Under 18 months',
    });
    const passes = standingWords(
      item({
        decision: 'rejected',
        decided_at: '2025-11-03T09:00:00.000Z',
        standing: 'now_passes',
        now: { verdict: 'pass', policy_version: 3, reasons: [] },
      }),
      TODAY,
    );
    expect(passes).toMatchObject({
      text: 'Rejected 3 Nov 2025 — now passes policy v3',
      tone: 'info',
    });
    expect(
      standingWords(
        item({ standing: 'holds', now: { verdict: 'pass', policy_version: 2, reasons: [] } }),
        TODAY,
      ),
    ).toMatchObject({ text: 'Approved 20 Nov', tone: 'good' });
    // an approval that stands over a Fail or a Review is never a green "Approved"
    expect(standingWords(item({ standing: 'holds', override: true }), TODAY)).toMatchObject({
      text: 'Approved 20 Nov — Fail accepted',
      tone: 'bad',
    });
    expect(
      standingWords(
        item({
          standing: 'holds',
          now: {
            verdict: 'review',
            policy_version: 2,
            reasons: [{ rule: 'new_entrant', outcome: 'review', message: 'Under 18 months' }],
          },
        }),
        TODAY,
      ),
    ).toMatchObject({ text: 'Approved 20 Nov — Review accepted', tone: 'warn' });
    expect(standingWords(item({ decision: 'do_not_use', standing: 'holds' }), TODAY).tone).toBe(
      'bad',
    );
    expect(standingWords(item({ standing: 'unknown', now: null }), TODAY)).toMatchObject({
      text: 'Approved 20 Nov — standing unknown (no data held)',
      tone: 'neutral',
    });
  });

  it('marks needs re-vet, an override with its reason, and a due re-vet', () => {
    const words = standingWords(
      item({
        needs_revet: true,
        override: true,
        override_reason: 'Broker of record vouched',
        revet_due: 'soon',
        expires_on: '2026-12-05',
      }),
      TODAY,
    );
    expect(words.marks.map((mark) => [mark.key, mark.text, mark.tone])).toEqual([
      ['needs_revet', 'needs re-vet', 'warn'],
      ['override', 'override', 'neutral'],
      ['revet_soon', 're-vet soon', 'warn'],
    ]);
    expect(words.marks[1]?.title).toBe('Recorded against the verdict: Broker of record vouched');
    expect(words.marks[2]?.title).toBe('Re-vet by 5 Dec 2026');
    expect(
      standingWords(item({ revet_due: 'overdue', expires_on: '2026-11-01' }), TODAY).marks[0],
    ).toMatchObject({ key: 'revet_overdue', text: 're-vet overdue', tone: 'bad' });
  });

  it('reads a past re-vet date as overdue when the answer has no revet_due', () => {
    const { revet_due: _omitted, ...older } = item({ expires_on: '2026-11-28' });
    expect(standingWords(older, TODAY).marks.map((mark) => mark.key)).toEqual(['revet_overdue']);
    expect(standingWords({ ...older, expires_on: '2026-11-29' }, TODAY).marks).toEqual([]);
  });
});

describe('helpers', () => {
  it('shortDate drops the current year only', () => {
    expect(shortDate('2026-11-20T23:00:00Z', TODAY)).toBe('20 Nov');
    expect(shortDate('2025-01-02', TODAY)).toBe('2 Jan 2025');
  });

  it('standingDots keys DOTs as the proxy does', () => {
    expect(standingDots(['0568253', '568253', 'x', '2214589', ''])).toEqual(['2214589', '568253']);
  });

  it('standingFor reads a DOT as the proxy keys it', () => {
    const standings = new Map([['568253', item({ dot_number: '568253' })]]);
    expect(standingFor(standings, '0568253')?.dot_number).toBe('568253');
    expect(standingFor(standings, '2214589')).toBeUndefined();
    expect(standingFor(undefined, '568253')).toBeUndefined();
    expect(standingFor(standings, undefined)).toBeUndefined();
  });

  it('standingRank puts needs re-vet, then fails, then review first', () => {
    expect(
      [
        item({ standing: 'holds' }),
        item({ standing: 'now_review' }),
        undefined,
        item({ standing: 'now_fails' }),
        item({ standing: 'holds', needs_revet: true }),
      ].map(standingRank),
    ).toEqual([3, 2, 4, 1, 0]);
  });
});

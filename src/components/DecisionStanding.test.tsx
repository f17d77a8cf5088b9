import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { DecisionStanding as Item } from '../lib/decision-standing.ts';
import { DecisionStanding } from './DecisionStanding.tsx';

const TODAY = new Date(2026, 10, 29, 12);

const FAILS: Item = {
  id: 3,
  dot_number: '4418207',
  decision: 'approved',
  decided_at: '2026-11-20T10:00:00.000Z',
  expires_on: '2026-12-05',
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
    ],
  },
  standing: 'now_fails',
  override: true,
  revet_due: 'soon',
  needs_revet: true,
};

afterEach(cleanup);

function show(item: Item, link = false, label?: string) {
  return render(
    <MemoryRouter>
      <DecisionStanding item={item} link={link} label={label} today={TODAY} />
    </MemoryRouter>,
  );
}

describe('DecisionStanding', () => {
  it('says an approval now fails in the fail colour, with its reasons and marks', () => {
    const { container } = show(FAILS, false, 'Decision');
    const root = container.querySelector('[data-standing]');
    expect(root?.getAttribute('data-standing')).toBe('now_fails');
    const words = screen.getByTitle('Identifiers shared: Shares a phone with DOT 3187452');
    expect(words.textContent).toBe('✕Decision: Approved 20 Nov — now fails policy v2 (1 reason)');
    expect(words.className).toContain('bg-red-50');
    expect(words.className).not.toContain('emerald');
    expect([...container.querySelectorAll('[data-mark]')].map((mark) => mark.textContent)).toEqual([
      '!needs re-vet',
      '–override',
      '!re-vet soon',
    ]);
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('leaves out the marks a screen shows elsewhere', () => {
    const { container } = render(
      <MemoryRouter>
        <DecisionStanding item={FAILS} omit={['override']} today={TODAY} />
      </MemoryRouter>,
    );
    expect(
      [...container.querySelectorAll('[data-mark]')].map((mark) => mark.getAttribute('data-mark')),
    ).toEqual(['needs_revet', 'revet_soon']);
  });

  it('links the words to the profile’s full verdict when asked', () => {
    show(FAILS, true);
    const link = screen.getByRole('link', { name: /now fails policy v2/ });
    expect(link.getAttribute('href')).toBe('/carriers/4418207/overview#verdict');
    expect(link.textContent).toContain('(the verdict and its reasons on the profile)');
  });

  it('shows a holding approval plainly, green, without marks', () => {
    const { container } = show({
      ...FAILS,
      standing: 'holds',
      now: { verdict: 'pass', policy_version: 2, reasons: [] },
      override: false,
      revet_due: null,
      needs_revet: false,
    });
    const words = screen.getByText('Approved 20 Nov').parentElement;
    expect(words?.className).toContain('bg-emerald-50');
    expect(words?.hasAttribute('title')).toBe(false);
    expect(container.querySelectorAll('[data-mark]')).toHaveLength(0);
  });

  it('shows a rejection that now passes as information', () => {
    show({
      ...FAILS,
      decision: 'rejected',
      standing: 'now_passes',
      now: { verdict: 'pass', policy_version: 3, reasons: [] },
    });
    const words = screen.getByText('Rejected 20 Nov — now passes policy v3').parentElement;
    expect(words?.className).toContain('bg-sky-50');
  });
});

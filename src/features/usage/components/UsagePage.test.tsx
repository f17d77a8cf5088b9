import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { readUsage } from '../api/usage.ts';
import { monthLabel } from './UsagePage.tsx';

const LAZY_ROUTE = { timeout: 4_000 };

/** What the proxy's GET /api/local/usage answers (server-proxy/src/governance/spend.ts). */
const USAGE_BODY = {
  month: '2026-11',
  mode: 'sandbox',
  spentUsd: 167.67,
  reservedUsd: 0,
  uncertainUsd: 3,
  budgetUsd: 200,
  remainingUsd: 32.33,
  byCategory: [],
  byEndpoint: [
    { endpoint: 'profile', calls: 60, cacheHits: 5, billedUnits: 55, usd: 165 },
    { endpoint: 'profile-lite', calls: 6, cacheHits: 1, billedUnits: 5, usd: 2.5 },
    { endpoint: 'autocomplete', calls: 57, cacheHits: 0, billedUnits: 57, usd: 0.171 },
    { endpoint: 'monitoring/list', calls: 2, cacheHits: 0, billedUnits: 0, usd: 0 },
  ],
  byUser: [
    { user: 'ann', calls: 100, usd: 150 },
    { user: 'bo', calls: 25, usd: 17.67 },
    { user: 'token:4:McLeod TMS', calls: 3, usd: 9 },
  ],
  byToken: [{ id: 4, name: 'McLeod TMS', calls: 3, usd: 9 }],
  byDay: [{ day: '2026-11-25', calls: 125, usd: 167.67 }],
  billing: {
    billed: false,
    note: 'Nothing is billed in sandbox/test: this is the embedded sandbox.',
  },
  currency: 'USD',
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function serveUsage(body: unknown) {
  vi.stubGlobal('fetch', (input: string) =>
    Promise.resolve(
      String(input).startsWith('/api/local/usage')
        ? Response.json(body)
        : Response.json({ error: 'not here', code: 'not_found' }, { status: 404 }),
    ),
  );
}

describe('Usage page', () => {
  // The first render loads the page's chunk with recharts: slow on a busy machine.
  it(
    'shows the month total, the budget left, and spend by endpoint and by user as tables',
    { timeout: 15_000 },
    async () => {
      serveUsage(USAGE_BODY);
      renderApp('/usage');
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Usage' }, LAZY_ROUTE),
      ).toBeTruthy();
      expect(await screen.findByText('Spent in November 2026', {}, LAZY_ROUTE)).toBeTruthy();
      expect(screen.getByText('$167.67')).toBeTruthy();
      expect(screen.getByText('$32.33 (16.2%)')).toBeTruthy();
      expect(screen.getByText('Of which not yet settled')).toBeTruthy();
      expect(screen.getByText(/^Not billed\./).textContent).toContain('embedded sandbox');

      const endpoints = screen.getByRole('table', { name: 'Spend by endpoint this month' });
      const profileRow = within(endpoints).getByRole('row', { name: /Full profile/ });
      expect(
        within(profileRow)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ).toEqual(['60', '5', '55', '$165.00']);
      expect(within(endpoints).getAllByRole('row')).toHaveLength(5);

      const users = screen.getByRole('table', { name: 'Spend by user this month' });
      expect(
        within(users)
          .getAllByRole('rowheader')
          .map((cell) => cell.textContent),
      ).toEqual(['ann', 'bo', 'McLeod TMS (API token)']);
      // the calls made with API tokens, by the token's name
      const tokens = screen.getByRole('table', { name: 'Spend by API token this month' });
      const tokenRow = within(tokens).getByRole('row', { name: /McLeod TMS/ });
      expect(
        within(tokenRow)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ).toEqual(['3', '$9.00']);
      // The chart is decoration for sighted users: the tables carry its numbers.
      expect(screen.getByTestId('spend-chart').getAttribute('aria-hidden')).toBe('true');
    },
  );

  it('says when nothing is spent and no budget is set', async () => {
    serveUsage({
      ...USAGE_BODY,
      spentUsd: 0,
      budgetUsd: null,
      remainingUsd: null,
      byUser: [],
      byToken: [],
      byEndpoint: [],
    });
    renderApp('/usage');
    expect(await screen.findByText('Nothing spent yet this month.', {}, LAZY_ROUTE)).toBeTruthy();
    expect(screen.getByText('None set')).toBeTruthy();
    expect(screen.getByText('No calls this month.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'By API token' })).toBeNull();
    expect(screen.queryByTestId('spend-chart')).toBeNull();
  });

  it('is in the main navigation', () => {
    serveUsage(USAGE_BODY);
    renderApp('/search');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Usage' }).getAttribute('href')).toBe('/usage');
  });
});

describe('readUsage', () => {
  it('reads a well-formed body and tolerates a malformed one', () => {
    const usage = readUsage(USAGE_BODY);
    expect(usage).toMatchObject({ spentUsd: 167.67, budgetUsd: 200, billed: false });
    expect(usage.byEndpoint[0]).toEqual({
      key: 'profile',
      calls: 60,
      cacheHits: 5,
      billedUnits: 55,
      usd: 165,
    });
    const odd = readUsage({ spentUsd: 'lots', byUser: [{ usd: 3 }, 'x'], budgetUsd: null });
    expect(odd).toMatchObject({ spentUsd: 0, budgetUsd: undefined, byUser: [], byEndpoint: [] });
    expect(readUsage(null).byDay).toEqual([]);
  });

  it('names the month', () => {
    expect(monthLabel('2026-11')).toBe('November 2026');
    expect(monthLabel('garbled')).toBe('garbled');
  });
});

import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../test/render-app.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function serveUsage(spentUsd: number, budgetUsd: number | null) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', (input: string) => {
    calls.push(String(input));
    return Promise.resolve(
      String(input).startsWith('/api/local/usage')
        ? Response.json({ month: '2026-11', spentUsd, budgetUsd, billing: { billed: true } })
        : Response.json({ error: 'not here', code: 'not_found' }, { status: 404 }),
    );
  });
  return calls;
}

describe('header spend', () => {
  it('shows this month’s spend and the budget on a live key, linking to the Usage page', async () => {
    serveUsage(167.67, 500);
    renderApp('/search', { config: { mode: 'live', budgetUsd: 500 } });
    const link = await screen.findByRole(
      'link',
      { name: '$167.67 this month of $500.00' },
      { timeout: 4_000 },
    );
    expect(link.getAttribute('href')).toBe('/usage');
  });

  it('is not shown, nor fetched, in sandbox or test mode (nothing is billed)', async () => {
    for (const mode of ['sandbox', 'test'] as const) {
      const calls = serveUsage(167.67, null);
      renderApp('/search', { config: { mode } });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(screen.queryByTestId('header-spend')).toBeNull();
      expect(calls.filter((url) => url.startsWith('/api/local/usage'))).toEqual([]);
      cleanup();
    }
  });
});

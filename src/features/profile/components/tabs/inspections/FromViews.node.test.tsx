/**
 * The Inspections tab on the proxy's slices (`/api/local/profile-view`), against a real proxy with
 * its embedded sandbox (child process): the heavy carrier's 5,200 inspections arrive a page of 100
 * at a time, sorted and filtered by the proxy; the CSV export fetches every matching row.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiGet } from '../../../../../lib/api-client.ts';
import { parseProfileResponse } from '../../../../../lib/service/index.ts';
import { startSandboxProxy, type SandboxProxy } from '../../../../../test/sandbox-proxy.node.ts';
import { renderTab } from '../testing/render-tab.node.tsx';
import { InspectionsTab } from './Tab.tsx';

const saved: { text: string; name: string }[] = [];
vi.mock('../../../../../lib/download.ts', () => ({
  downloadCsv: (text: string, name: string) => saved.push({ text, name }),
}));

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 30_000 };
const HEAVY = '3999999';

let sandbox: SandboxProxy;

beforeAll(async () => {
  sandbox = await startSandboxProxy();
}, 60_000);
afterAll(async () => {
  await sandbox.stop();
});
afterEach(() => {
  cleanup();
  sandbox.calls.length = 0;
  saved.length = 0;
});

/** The summary the page would hold, and the tab drawn from it (source "summary"). */
async function renderFromSummary(dot: string) {
  const body = await apiGet('/api/local/profile-summary', { dot_number: dot });
  const parsed = parseProfileResponse(body);
  const profile = parsed.value.items[0];
  if (!profile) throw new Error(`no summary for ${dot}`);
  sandbox.calls.length = 0;
  const Tab = (props: Parameters<typeof InspectionsTab>[0]) => (
    <InspectionsTab {...props} source="summary" />
  );
  return renderTab(Tab, dot, { raw: body, parsed: { value: profile, issues: [] } });
}

function viewCalls(view: string): URLSearchParams[] {
  return sandbox.calls
    .filter((call) => call.startsWith('GET /api/local/profile-view?'))
    .map((call) => new URLSearchParams(call.slice(call.indexOf('?') + 1)))
    .filter((params) => params.get('view') === view);
}

function rowsOf(table: HTMLElement): HTMLElement[] {
  return within(table)
    .getAllByRole('row')
    .filter((row) => row.hasAttribute('data-row-id'));
}

describe('InspectionsTab on the proxy slices (heavy carrier 3999999)', () => {
  it('pages through the server, newest first, without the full profile', async () => {
    const user = userEvent.setup();
    await renderFromSummary(HEAVY);
    const table = await screen.findByRole('table', { name: 'Inspections: 5,200' }, WAIT);
    // the first rows at once, the rest of the page of 100 right after
    await waitFor(() => expect(rowsOf(table)).toHaveLength(100), WAIT);
    const pages = screen.getByRole('navigation', { name: 'Inspection pages' });
    expect(pages.textContent).toContain('Page 1 of 52');
    const firstIds = rowsOf(table).map((row) => row.getAttribute('data-row-id'));
    await user.click(within(pages).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(pages.textContent).toContain('Page 2 of 52'), WAIT);
    await waitFor(
      () => expect(rowsOf(table)[0]?.getAttribute('data-row-id')).not.toBe(firstIds[0]),
      WAIT,
    );
    const secondIds = rowsOf(table).map((row) => row.getAttribute('data-row-id'));
    expect(secondIds.filter((id) => firstIds.includes(id))).toEqual([]);
    const asked = viewCalls('inspections');
    expect(asked.map((params) => params.get('offset'))).toEqual(['0', '100']);
    expect(asked.every((p) => p.get('sort') === 'insp_date' && p.get('dir') === 'desc')).toBe(true);
    expect(viewCalls('inspection-points')).toHaveLength(1);
    expect(sandbox.calls.some((call) => call.includes('/api/v2/profile?'))).toBe(false);
    // the per-state counts come from the view (the sandbox sends no preferred_lanes here)
    const lanes = screen.getByRole('region', { name: 'Inspections per state' });
    expect(within(lanes).getAllByTestId('lane-bar').length).toBeGreaterThan(1);
  });

  it('filters and sorts on the server, back to the first page', async () => {
    const user = userEvent.setup();
    await renderFromSummary(HEAVY);
    const pages = await screen.findByRole('navigation', { name: 'Inspection pages' }, WAIT);
    await user.click(within(pages).getByRole('button', { name: 'Next page' }));
    await user.click(screen.getByRole('checkbox', { name: 'Out-of-service only' }));
    const filtered = await screen.findByRole('table', { name: /match the filters$/ }, WAIT);
    for (const row of rowsOf(filtered)) expect(row.textContent).toContain('Yes (');
    const last = viewCalls('inspections').at(-1);
    expect(last?.get('oos')).toBe('1');
    expect(last?.get('offset')).toBe('0');
    expect(viewCalls('inspection-points').at(-1)?.get('oos')).toBe('1');

    const header = screen.getByRole('columnheader', { name: /Violations/ });
    await user.click(within(header).getByRole('button'));
    await waitFor(
      () => expect(viewCalls('inspections').at(-1)?.get('sort')).toBe('viol_total'),
      WAIT,
    );
    expect(header.getAttribute('aria-sort')).toBe('descending');
    // Location is not a sort field of the view: its header does not offer a sort
    const location = screen.getByRole('columnheader', { name: 'Location' });
    expect(within(location).queryByRole('button')).toBeNull();
  });

  it('exports every matching inspection, not only the page on screen', async () => {
    const user = userEvent.setup();
    await renderFromSummary(HEAVY);
    const button = await screen.findByRole(
      'button',
      { name: 'Export 5,200 inspections as CSV' },
      WAIT,
    );
    await user.click(button);
    await waitFor(() => expect(saved).toHaveLength(1), WAIT);
    const lines = saved[0]?.text.split('\r\n') ?? [];
    expect(lines[0]).toMatch(/^report_number,inspection_date,/);
    expect(lines).toHaveLength(5_201);
    expect(saved[0]?.name).toMatch(/^inspections-3999999-/);
    expect(viewCalls('inspections').at(-1)?.get('limit')).toBe('10000');
  });
});

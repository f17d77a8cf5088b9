/**
 * The Crashes and Fleet & equipment tabs on the proxy's slices (`view-table.tsx`), against a real
 * proxy with its embedded sandbox (child process), for the heavy carrier 3999999 (1,100 crashes,
 * 2,600 vehicles): pages from the proxy, never the full profile.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiGet } from '../../../../../lib/api-client.ts';
import { parseProfileResponse } from '../../../../../lib/service/index.ts';
import { startSandboxProxy, type SandboxProxy } from '../../../../../test/sandbox-proxy.node.ts';
import { CrashesTab } from '../crashes/Tab.tsx';
import { FleetTab } from '../fleet/Tab.tsx';
import { renderTab } from '../testing/render-tab.node.tsx';
import type { ProfileTabProps } from '../types.ts';

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
});

async function renderFromSummary(Tab: ComponentType<ProfileTabProps>) {
  const body = await apiGet('/api/local/profile-summary', { dot_number: HEAVY });
  const profile = parseProfileResponse(body).value.items[0];
  if (!profile) throw new Error('no summary');
  sandbox.calls.length = 0;
  const FromSummary = (props: ProfileTabProps) => <Tab {...props} source="summary" />;
  return renderTab(FromSummary, HEAVY, { raw: body, parsed: { value: profile, issues: [] } });
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

describe('history tabs on the proxy slices (heavy carrier 3999999)', () => {
  it('Crashes: a page of 100, its pager, the map’s points, no full profile', async () => {
    const user = userEvent.setup();
    await renderFromSummary(CrashesTab);
    const table = await screen.findByRole('table', { name: /^Crashes: 1,\d{3}$/ }, WAIT);
    expect(rowsOf(table)).toHaveLength(100);
    const pages = screen.getByRole('navigation', { name: 'Crash pages' });
    await user.click(within(pages).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(viewCalls('crashes').at(-1)?.get('offset')).toBe('100'), WAIT);
    expect(viewCalls('crashes')[0]?.get('sort')).toBe('report_date');
    expect(viewCalls('crash-points')).toHaveLength(1);
    expect(sandbox.calls.some((call) => call.includes('/api/v2/profile?'))).toBe(false);
  });

  it('Fleet: the equipment history 100 vehicles at a time', async () => {
    const user = userEvent.setup();
    await renderFromSummary(FleetTab);
    const table = await screen.findByRole('table', { name: /^Equipment history: 2,/ }, WAIT);
    expect(rowsOf(table)).toHaveLength(100);
    await user.click(screen.getByRole('button', { name: 'Show 100 more' }));
    await waitFor(() => expect(rowsOf(table)).toHaveLength(200), WAIT);
    expect(viewCalls('equipment').map((params) => params.get('limit'))).toEqual(['100', '200']);
    expect(screen.getByRole('button', { name: /^Export 2,\d{3} vehicles as CSV$/ })).toBeTruthy();
    expect(sandbox.calls.some((call) => call.includes('/api/v2/profile?'))).toBe(false);
  });
});

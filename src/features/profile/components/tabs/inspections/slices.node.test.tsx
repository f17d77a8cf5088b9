/**
 * The Inspections slices fetched ahead (`prefetchTabSlices`), against a real proxy with its embedded
 * sandbox (child process): right after the summary, both slices the tab opens on are asked for
 * once, and the tab drawn afterwards finds them in the cache and asks nothing more; a summary too
 * old to trust the proxy's cache, or none, asks for nothing; and the profile page asks for them once
 * it has drawn the overview.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet } from '../../../../../lib/api-client.ts';
import { createQueryClient } from '../../../../../entities/query-client.ts';
import { parseProfileResponse } from '../../../../../lib/service/index.ts';
import { renderApp } from '../../../../../test/render-app.tsx';
import { startSandboxProxy, type SandboxProxy } from '../../../../../test/sandbox-proxy.node.ts';
import { profileKeys } from '../../../api/keys.ts';
import { allowIdlePreload, prefetchTabSlices } from '../../tab-loaders.ts';
import { renderTab } from '../testing/render-tab.node.tsx';
import { InspectionsTab } from './Tab.tsx';

vi.setConfig({ testTimeout: 60_000 });
const WAIT = { timeout: 30_000 };
const HEAVY = '3999999';

let sandbox: SandboxProxy;

beforeAll(async () => {
  sandbox = await startSandboxProxy();
  allowIdlePreload();
}, 60_000);
afterAll(async () => {
  await sandbox.stop();
});
afterEach(() => {
  cleanup();
  sandbox.calls.length = 0;
});

function viewCalls(view?: string): URLSearchParams[] {
  return sandbox.calls
    .filter((call) => call.startsWith('GET /api/local/profile-view?'))
    .map((call) => new URLSearchParams(call.slice(call.indexOf('?') + 1)))
    .filter((params) => view === undefined || params.get('view') === view);
}

/** A query client holding the carrier's summary as the page would, answered `age` ms ago. */
async function clientWithSummary(dot: string, age = 0) {
  const body = await apiGet('/api/local/profile-summary', { dot_number: dot });
  const profile = parseProfileResponse(body).value.items[0];
  if (!profile) throw new Error(`no summary for ${dot}`);
  const client = createQueryClient();
  client.setQueryData(
    profileKeys.summary(dot),
    { dot, profile, raw: body },
    { updatedAt: Date.now() - age },
  );
  sandbox.calls.length = 0;
  return { client, body, profile };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 1_000));

describe('the Inspections slices fetched ahead (heavy carrier 3999999)', () => {
  it('asks for the first page and the points once; the tab then draws from the cache', async () => {
    const { client, body, profile } = await clientWithSummary(HEAVY);
    prefetchTabSlices(client, HEAVY);
    await waitFor(() => {
      const views = client.getQueryCache().findAll({ queryKey: profileKeys.views(HEAVY) });
      expect(views.map((query) => query.state.status)).toEqual(['success', 'success']);
    }, WAIT);
    expect(viewCalls().map((params) => params.get('view'))).toEqual(
      expect.arrayContaining(['inspections', 'inspection-points']),
    );
    expect(viewCalls()).toHaveLength(2);
    const page = viewCalls('inspections')[0];
    expect([page?.get('sort'), page?.get('dir'), page?.get('offset')]).toEqual([
      'insp_date',
      'desc',
      '0',
    ]);
    // a second ask (another draw of the page) finds both held
    prefetchTabSlices(client, HEAVY);
    await settled();
    expect(viewCalls()).toHaveLength(2);
    // no billed call: the slices come from the profile the proxy cached for the summary
    expect(sandbox.calls.some((call) => call.includes('/api/v2/profile?'))).toBe(false);

    sandbox.calls.length = 0;
    const Tab = (props: Parameters<typeof InspectionsTab>[0]) => (
      <InspectionsTab {...props} source="summary" />
    );
    renderTab(Tab, HEAVY, { raw: body, parsed: { value: profile, issues: [] } }, client);
    expect(await screen.findByRole('table', { name: 'Inspections: 5,200' }, WAIT)).toBeTruthy();
    expect(screen.queryByText(/^Loading the /)).toBeNull();
    await settled();
    expect(viewCalls()).toEqual([]);
  });

  it('asks for nothing when the summary is too old to trust the proxy’s cache', async () => {
    const { client } = await clientWithSummary(HEAVY, 60_000);
    prefetchTabSlices(client, HEAVY);
    await settled();
    expect(viewCalls()).toEqual([]);
  });

  it('asks for nothing without a summary (a page drawn from the full profile)', async () => {
    prefetchTabSlices(createQueryClient(), HEAVY);
    await settled();
    expect(viewCalls()).toEqual([]);
  });

  it('never makes the proxy fetch a profile it no longer holds; the tab asks itself when opened', async () => {
    // a page drawn from a summary while the proxy's cache has since lost the profile: here, a
    // carrier the proxy has never fetched (the summary is the heavy carrier's, under its DOT)
    const OTHER = '568253';
    const { client, profile } = await clientWithSummary(HEAVY);
    client.setQueryData(profileKeys.summary(OTHER), { dot: OTHER, profile, raw: {} });
    sandbox.calls.length = 0;
    prefetchTabSlices(client, OTHER);
    await waitFor(() => {
      const views = client.getQueryCache().findAll({ queryKey: profileKeys.views(OTHER) });
      expect(views.map((query) => query.state.status)).toEqual(['error', 'error']);
    }, WAIT);
    for (const query of client.getQueryCache().findAll({ queryKey: profileKeys.views(OTHER) })) {
      expect(query.state.error).toBeInstanceOf(ApiError);
      expect((query.state.error as ApiError).code).toBe('not_cached');
      expect(query.state.fetchFailureCount).toBe(1); // not retried
    }
    // the proxy still holds nothing for it: the prefetch made no upstream (billed) call
    await expect(
      apiGet(
        '/api/local/profile-view',
        { dot_number: OTHER, view: 'inspection-points' },
        { headers: { 'cache-control': 'only-if-cached' } },
      ),
    ).rejects.toMatchObject({ status: 504, code: 'not_cached' });

    // the user opens the page and the tab: the tab's own queries ask again, the normal way
    const real = await apiGet('/api/local/profile-summary', { dot_number: OTHER });
    const parsed = parseProfileResponse(real).value.items[0];
    if (!parsed) throw new Error(`no summary for ${OTHER}`);
    sandbox.calls.length = 0;
    const Tab = (props: Parameters<typeof InspectionsTab>[0]) => (
      <InspectionsTab {...props} source="summary" />
    );
    renderTab(Tab, OTHER, { raw: real, parsed: { value: parsed, issues: [] } }, client);
    expect(await screen.findByRole('table', { name: /^Inspections: / }, WAIT)).toBeTruthy();
    expect(viewCalls('inspections')).toHaveLength(1);
  });

  it('the profile page asks for them once its overview has drawn', async () => {
    renderApp(`/carriers/${HEAVY}/overview`);
    expect(await screen.findByRole('heading', { name: 'Risk factors' }, WAIT)).toBeTruthy();
    await waitFor(() => expect(viewCalls('inspection-points')).toHaveLength(1), WAIT);
    expect(viewCalls('inspections')).toHaveLength(1);
    expect(sandbox.calls.some((call) => call.includes('/api/v2/profile?'))).toBe(false);
  });
});

// @vitest-environment node
import '../testing/install-dom.node.ts';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EMBEDDED_SANDBOX_KEY } from '../../../../../../server-proxy/src/config.ts';
import {
  startProxy,
  testConfig,
  type RunningProxy,
} from '../../../../../../server-proxy/src/helpers.test-support.ts';
import { createQueryClient } from '../../../../../entities/query-client.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import type { ProfileResult } from '../../../api/get-profile.ts';
import { profileKeys } from '../../../api/keys.ts';
import { readLookupPricing } from '../../../api/lookup-network.ts';
import { LINK_TYPES, lookupCost } from './model.ts';
import { renderTab, testedDots } from '../testing/render-tab.node.tsx';
import { NetworkTab } from './Tab.tsx';

afterEach(cleanup);

function wireList(raw: Record<string, unknown>, field: string, own: string): string[] {
  const list = (raw[field] as string[] | undefined) ?? [];
  return [...new Set(list)].filter((dot) => dot !== own);
}

describe.each(testedDots(CURATED_DOTS))('NetworkTab of DOT %s', (dot) => {
  const carrier = sandboxProfile(dot);
  const raw = carrier.raw as Record<string, unknown>;

  it('has one list per link type, each DOT linking to its profile', () => {
    const { getByRole } = renderTab(NetworkTab, dot, carrier);
    const links = getByRole('region', { name: 'Links by identifier' });
    const anyLinked = LINK_TYPES.some((t) => wireList(raw, t.list, dot).length > 0);
    for (const type of LINK_TYPES) {
      const expected = wireList(raw, type.list, dot);
      const section = within(links).queryByRole('region', {
        name: new RegExp(`^${type.label.replace(/[()]/g, '\\$&')}: ${expected.length} carrier`),
      });
      expect(section !== null).toBe(anyLinked);
      if (!section) continue;
      const hrefs = within(section)
        .queryAllByRole('link')
        .map((a) => a.getAttribute('href'));
      expect(hrefs).toEqual(expected.slice(0, 50).map((d) => `/carriers/${d}/overview`));
    }
  });

  it('tables the carriers sharing VINs', () => {
    const { getByRole } = renderTab(NetworkTab, dot, carrier);
    const ext = (raw.network_graph_equipment_ext as { dot_number: string }[] | undefined) ?? [];
    const region = getByRole('region', { name: 'Carriers sharing equipment' });
    const table = within(region).queryByRole('table');
    expect(table?.querySelectorAll('tbody tr').length ?? 0).toBe(ext.length);
  });
});

describe('NetworkTab of the chameleon pair', () => {
  const carrier = sandboxProfile('4418207');

  it('lists 3187452 under telephone, physical address and equipment, named and flagged', () => {
    const { getByRole } = renderTab(NetworkTab, '4418207', carrier);
    for (const label of ['Telephone', 'Physical address', 'Equipment \\(shared VINs\\)']) {
      const section = getByRole('region', { name: new RegExp(`^${label}: 1 carrier`) });
      within(section).getByRole('link', { name: 'DOT 3187452' });
      within(section).getByText('RAPID ROUTE CARRIERS LLC');
      expect(section.textContent).toContain('out of service');
    }
    const warning = getByRole('note', { name: 'Links to troubled carriers' });
    expect(warning.textContent).toMatch(
      /DOT 3187452 RAPID ROUTE CARRIERS LLC \(USDOT inactive, out of service\)/,
    );
    expect(warning.textContent).toMatch(/physical address, telephone, equipment/);
  });

  it('expands the shared VINs and navigates to the linked profile', async () => {
    const { getByRole, router } = renderTab(NetworkTab, '4418207', carrier);
    const region = getByRole('region', { name: 'Carriers sharing equipment' });
    const toggle = within(region).getByRole('button', { name: /4 VINs shared with DOT 3187452/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    within(region).getByText('3AKJHHDR9NX060000');
    fireEvent.click(within(region).getByRole('link', { name: 'DOT 3187452' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/carriers/3187452/overview'));
  });

  it('does not flag an active linked carrier', () => {
    const { queryByRole } = renderTab(NetworkTab, '3187452', sandboxProfile('3187452'));
    expect(queryByRole('note', { name: 'Links to troubled carriers' })).toBeNull();
  });
});

describe('costed name look-up', () => {
  let proxy: RunningProxy;
  let requested: string[];
  let inFlight = 0;
  let maxInFlight = 0;

  beforeAll(async () => {
    proxy = await startProxy(
      testConfig({
        mode: 'sandbox',
        embeddedSandbox: true,
        upstream: { baseUrl: '', apiKey: EMBEDDED_SANDBOX_KEY, legacy: false, timeoutMs: 5000 },
      }),
    );
    const realFetch = globalThis.fetch;
    // the SPA calls its own origin; send those calls to the real proxy (without jsdom's signal)
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
      const path = String(input);
      requested.push(path);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return realFetch(`${proxy.url}${path}`, { ...init, signal: undefined }).finally(() => {
        inFlight -= 1;
      });
    });
  }, 60_000);
  afterAll(async () => {
    vi.restoreAllMocks();
    await proxy.close();
  });
  afterEach(() => {
    requested = [];
    maxInFlight = 0;
  });
  requested = [];

  const liteCalls = () => requested.filter((url) => url.startsWith('/api/v2/profile-lite'));

  it('shows the cost first and fetches nothing billed before confirmation', async () => {
    const { getByRole, findByRole } = renderTab(NetworkTab, '2987310', sandboxProfile('2987310'));
    const mailing = getByRole('region', { name: /^Mailing address: 1 carrier/ });
    within(mailing).getByText('name not looked up');
    fireEvent.click(getByRole('button', { name: 'Look up names for 1 carrier' }));
    const confirm = await findByRole('group', { name: 'Confirm name look-up' });
    await waitFor(() => expect(confirm.textContent).toMatch(/1 carrier × \$0\.50 .*= \$0\.50/));
    expect(confirm.textContent).toContain('sandbox mode: not billed');
    expect(liteCalls()).toEqual([]);

    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm: look up 1 carrier' }));
    await waitFor(() => within(mailing).getByText('GULF COAST TANK LINES INC'));
    expect(liteCalls()).toEqual(['/api/v2/profile-lite?dot_number=1120987']);
    getByRole('status');
    expect(getByRole('status').textContent).toMatch(/Looked up 1 of 1 carrier/);
  });

  it('cancelling makes no call', async () => {
    const { getByRole, findByRole, queryByRole } = renderTab(
      NetworkTab,
      '265752',
      sandboxProfile('265752'),
    );
    fireEvent.click(getByRole('button', { name: 'Look up names for 5 carriers' }));
    const confirm = await findByRole('group', { name: 'Confirm name look-up' });
    await waitFor(() => expect(confirm.textContent).toMatch(/5 carriers × \$0\.50 .*= \$2\.50/));
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(queryByRole('group', { name: 'Confirm name look-up' })).toBeNull();
    expect(liteCalls()).toEqual([]);
  });

  it('looks up at most two at a time, says which DOTs have no carrier and never asks again', async () => {
    const { getByRole, findByRole, getAllByText, queryByRole } = renderTab(
      NetworkTab,
      '265752',
      sandboxProfile('265752'),
    );
    fireEvent.click(getByRole('button', { name: 'Look up names for 5 carriers' }));
    const confirm = await findByRole('group', { name: 'Confirm name look-up' });
    await waitFor(() => expect(confirm.textContent).toContain('= $2.50'));
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirm: look up 5 carriers' }));
    await waitFor(() => expect(getByRole('status').textContent).toMatch(/Looked up 5 of 5/));
    expect(
      liteCalls()
        .map((url) => url.split('=')[1])
        .sort(),
    ).toEqual(['1964900', '3859536', '4356378', '598081', '86876'].sort());
    // the population of the test sandbox has none of these DOTs: each reads "no carrier found"
    expect(getAllByText('no carrier found').length).toBeGreaterThanOrEqual(5);
    expect(maxInFlight).toBeGreaterThan(0);
    expect(maxInFlight).toBeLessThanOrEqual(2);
    expect(queryByRole('button', { name: /Look up names/ })).toBeNull();
  });

  it('names carriers from profiles already in the query cache, with no call', () => {
    const queryClient = createQueryClient();
    const neighbour = sandboxProfile('1120987');
    const cached: ProfileResult = {
      dot: '1120987',
      profile: neighbour.parsed.value,
      raw: neighbour.raw,
      issues: [],
      fetchedAt: undefined,
      cache: undefined,
    };
    queryClient.setQueryData(profileKeys.full('1120987'), cached);
    const { getByRole, queryByRole } = renderTab(
      NetworkTab,
      '2987310',
      sandboxProfile('2987310'),
      queryClient,
    );
    within(getByRole('region', { name: /^Mailing address/ })).getByText(
      'GULF COAST TANK LINES INC',
    );
    expect(queryByRole('button', { name: /Look up names/ })).toBeNull();
    expect(requested).toEqual([]);
  });
});

describe('look-up pricing', () => {
  it('costs N new DOTs at the lite price', () => {
    expect(lookupCost(3, 0.5, true)).toEqual({
      carriers: 3,
      unitUsd: 0.5,
      totalUsd: 1.5,
      billed: true,
    });
    expect(lookupCost(520, 0.5, false).totalUsd).toBe(260);
  });

  it('reads the mode and price from the proxy config, conservatively when unknown', () => {
    expect(
      readLookupPricing({
        mode: 'sandbox',
        billing: { billed: false },
        prices: [{ endpoint: 'profile-lite', usd: 0.4, unit: 'x' }],
      }),
    ).toEqual({ mode: 'sandbox', billed: false, unitUsd: 0.4, assumed: false });
    expect(readLookupPricing({ mode: 'live' })).toEqual({
      mode: 'live',
      billed: true,
      unitUsd: 0.5,
      assumed: true,
    });
    expect(readLookupPricing('nonsense').billed).toBe(true);
  });
});

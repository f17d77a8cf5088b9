import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rememberCarrier } from '../../../lib/recent.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { startSandboxProxy, type SandboxProxy } from '../test/sandbox-proxy.node.ts';

vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 });
/** The first answers of a fresh proxy (and a busy machine) can take a few seconds. */
const WAIT = { timeout: 8_000 };

let sandbox: SandboxProxy;

beforeAll(async () => {
  sandbox = await startSandboxProxy();
});
afterAll(async () => {
  await sandbox.stop();
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

function destination(router: ReturnType<typeof renderApp>['router']): string {
  const location = router.state.navigation.location ?? router.state.location;
  return `${location.pathname}${location.search}`;
}

describe('SearchPage', () => {
  it('shows the results of the URL search in a table; a row opens the profile', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search?company=hansen%20%26%20adkins');
    const table = await screen.findByRole(
      'table',
      { name: /Carriers matching Company name/ },
      WAIT,
    );
    const row = within(table).getByRole('row', { name: /HANSEN & ADKINS AUTO TRANSPORT INC/ });
    expect(within(row).getByText('568253')).toBeDefined();
    expect(within(row).getByText('MC277621')).toBeDefined();
    expect(screen.getByRole('textbox', { name: 'Company name' })).toHaveProperty(
      'value',
      'hansen & adkins',
    );
    await user.click(within(row).getByText('568253'));
    await waitFor(() => expect(destination(router)).toBe('/carriers/568253/overview'));
  });

  it('reads "Not scored" and "Not applicable" for the intrastate private carrier', async () => {
    renderApp('/search?company=valley%20fresh%20dairy');
    const row = await screen.findByRole('row', { name: /VALLEY FRESH DAIRY COOPERATIVE/ }, WAIT);
    expect(within(row).getByText('Not scored')).toBeDefined();
    expect(within(row).getByText('Not applicable')).toBeDefined();
  });

  it('checks a URL search before sending it: nothing is asked, the hint is next to the field', async () => {
    const before = sandbox.calls.length;
    renderApp('/search?dot_number=12ab');
    const hint = await screen.findByRole('alert', {}, WAIT);
    expect(hint.textContent).toMatch(/1 to 8 digits/);
    const field = screen.getByRole('textbox', { name: 'USDOT number' });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(hint.id);
    expect(screen.getByText('Nothing was searched: correct the highlighted field.')).toBeDefined();
    expect(
      sandbox.calls.slice(before).filter((call) => call.startsWith('/api/v2/profile')),
    ).toEqual([]);
  });

  it('does not submit an invalid value: the URL stays, nothing is asked', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search');
    const form = screen.getByRole('form', { name: 'Advanced search' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Search by' }), 'vin');
    const before = sandbox.calls.length;
    await user.type(screen.getByRole('textbox', { name: 'VIN' }), 'NOT-A-VIN');
    await user.click(within(form).getByRole('button', { name: 'Search' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/17 characters/);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'VIN' }));
    expect(destination(router)).toBe('/search');
    // the nav badge's watch list may load once the page is idle: only searches count here
    const searches = sandbox.calls
      .slice(before)
      .filter((call) => call.startsWith('/api/v2/') && !call.startsWith('/api/v2/monitoring/'));
    expect(searches).toEqual([]);
  });

  it('goes straight to the profile for a docket search with one result', async () => {
    const { router } = renderApp('/search?docket_number=MC277621');
    await waitFor(() => expect(destination(router)).toBe('/carriers/568253/overview'), WAIT);
  });

  it('lists a name search from lite profiles and says what a page costs', async () => {
    renderApp('/search?company=hansen%20%26%20adkins');
    await screen.findByRole('table', { name: /Carriers matching/ }, WAIT);
    expect(sandbox.calls).toContain(
      '/api/v2/profile-lite?company=hansen+%26+adkins&page=1&pageSize=10',
    );
    expect(sandbox.calls.some((call) => call.startsWith('/api/v2/profile?company='))).toBe(false);
    expect(
      await screen.findByText(
        'Not billed here; on a live key up to $5.00 a page of 10 (lite profiles, $0.50 per new DOT per month).',
      ),
    ).toBeDefined();
  });

  it('sorts the page by risk severity, says it is this page only, and keeps it in the URL', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search?company=inc');
    const table = await screen.findByRole('table', { name: /Carriers matching/ }, WAIT);
    const note = screen.getByText(/A sort applies within this page \(10 of [\d,]+\) only/);
    expect(note).toBeDefined();
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Sort this page' }),
      'Risk, highest first',
    );
    await waitFor(() =>
      expect(destination(router)).toBe('/search?company=inc&sort=risk&order=desc'),
    );
    expect(
      screen.getByText(/^Sorted within this page \(10 of [\d,]+\): Risk, highest first\./),
    ).toBeDefined();
    const severity = ['Very High', 'High', 'Medium', 'Low', 'Not scored'];
    const risks = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelectorAll('td')[6]?.textContent ?? '');
    const ranks = risks.map((risk) => severity.indexOf(risk));
    expect(ranks.every((rank) => rank >= 0)).toBe(true);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('downloads the page of results as CSV, in the order shown', async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    // jsdom has no object URLs: the download's blob is caught where it would be made.
    URL.createObjectURL = (blob: Blob) => {
      blobs.push(blob);
      return 'blob:results';
    };
    URL.revokeObjectURL = () => undefined;
    renderApp('/search?company=hansen%20%26%20adkins&sort=name');
    await user.click(await screen.findByRole('button', { name: 'Download this page (CSV)' }, WAIT));
    // The CSV writer is a chunk of its own, loaded by the click.
    await waitFor(() => expect(blobs).toHaveLength(1));
    const text = await blobs[0]!.text();
    expect(text.split('\r\n')[0]).toBe(
      'dot_number,docket,legal_name,dba_name,city,state,usdot_status,out_of_service,authority,insurance,risk_score',
    );
    expect(text).toContain('568253,MC277621,HANSEN & ADKINS AUTO TRANSPORT INC');
  });

  it('goes straight to the profile for a DOT search with one result', async () => {
    const { router } = renderApp('/search?dot_number=2214589');
    await waitFor(() => expect(destination(router)).toBe('/carriers/2214589/overview'));
  });

  it('says so when nothing matches', async () => {
    renderApp('/search?company=zzqqxxjj');
    expect(
      await screen.findByText(/No carrier matches Company name “zzqqxxjj”/, {}, WAIT),
    ).toBeDefined();
  });

  it('submits the form as a URL, with page 1', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search?company=hansen&page=3');
    const form = screen.getByRole('form', { name: 'Advanced search' });
    await user.selectOptions(
      within(form).getByRole('combobox', { name: 'Search by' }),
      'unit_number',
    );
    const value = screen.getByRole('textbox', { name: 'Unit number' });
    await user.clear(value);
    await user.type(value, '101');
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Unit type (optional)' }),
      'TRUCK',
    );
    await user.click(within(form).getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(destination(router)).toBe('/search?unit_number=101&unit_type=TRUCK'),
    );
  });

  it('previews a result from the lite profile, labelled with its cost', async () => {
    const user = userEvent.setup();
    renderApp('/search?company=gulf%20coast%20tank');
    await screen.findByRole('table', { name: /Carriers matching/ }, WAIT);
    const preview = { name: 'Preview GULF COAST TANK LINES INC' };
    await user.click(await screen.findByRole('button', preview, WAIT));
    const panel = screen.getByRole('region', { name: 'Preview of GULF COAST TANK LINES INC' });
    expect(await within(panel).findByText('Authority check', {}, WAIT)).toBeDefined();
    expect(
      within(panel).getByText(/not billed here \(live: \$0\.50 per new DOT per month\)/),
    ).toBeDefined();
    expect(sandbox.calls).toContain('/api/v2/profile-lite?dot_number=1120987');
  });

  it('lists recently viewed carriers as links', async () => {
    rememberCarrier({ dot: '1893346', name: 'LAKESHORE COACH LINES INC' });
    renderApp('/search');
    const recent = screen.getByRole('region', { name: 'Recently viewed' });
    const link = within(recent).getByRole('link', { name: 'LAKESHORE COACH LINES INC' });
    expect(link.getAttribute('href')).toBe('/carriers/1893346/overview');
  });
});

import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rememberCarrier } from '../../../lib/recent.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { startSandboxProxy, type SandboxProxy } from '../test/sandbox-proxy.node.ts';

vi.setConfig({ testTimeout: 20_000 });
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

  it('puts the proxy 400 hint next to the field', async () => {
    renderApp('/search?dot_number=12ab');
    const hint = await screen.findByRole('alert', {}, WAIT);
    expect(hint.textContent).toMatch(/1 to 8 digits/);
    const field = screen.getByRole('textbox', { name: 'USDOT number' });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(field.getAttribute('aria-describedby')).toBe(hint.id);
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

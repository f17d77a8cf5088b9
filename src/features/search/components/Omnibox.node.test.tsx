import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { startSandboxProxy, type SandboxProxy } from '../test/sandbox-proxy.node.ts';

vi.setConfig({ testTimeout: 20_000, hookTimeout: 30_000 });

let sandbox: SandboxProxy;

beforeAll(async () => {
  sandbox = await startSandboxProxy();
});
afterAll(async () => {
  await sandbox.stop();
});
afterEach(cleanup);

/** Where the router is, or is going while a lazy route loads. */
function destination(router: ReturnType<typeof renderApp>['router']): string {
  return (router.state.navigation.location ?? router.state.location).pathname;
}

function omnibox() {
  return screen.getByRole('combobox', { name: 'Search carriers' });
}

async function openSuggestions(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.click(omnibox());
  await user.keyboard(text);
  await waitFor(() => expect(omnibox().getAttribute('aria-expanded')).toBe('true'), {
    timeout: 8_000,
  });
  return screen.getByRole('listbox', { name: 'Suggestions' });
}

describe('Omnibox', () => {
  it('suggests carriers by name with the match highlighted; arrows and Enter open one', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search');
    const listbox = await openSuggestions(user, 'hansen & a');
    // Typed key by key: on a busy machine a keystroke may ask before the last one does, and an
    // earlier answer shows meanwhile. Wait for the answer to the whole term.
    await waitFor(
      () => {
        expect(sandbox.calls).toContain('/api/v2/autocomplete?q=hansen+%26+a&limit=15');
        expect(listbox.getAttribute('aria-busy')).toBe('false');
      },
      { timeout: 8_000 },
    );
    const option = within(listbox).getByRole('option', { name: /HANSEN & ADKINS/ });
    expect(option.querySelector('mark')?.textContent?.toLowerCase()).toBe('hansen & a');
    expect(within(listbox).getAllByRole('option').length).toBeLessThanOrEqual(15);

    await user.keyboard('{ArrowDown}');
    const first = within(listbox).getAllByRole('option')[0]!;
    expect(omnibox().getAttribute('aria-activedescendant')).toBe(first.id);
    expect(first.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowUp}{ArrowDown}');
    expect(omnibox().getAttribute('aria-activedescendant')).toBe(first.id);

    await user.keyboard('{Enter}');
    // The profile route is lazy: the pending navigation names the target while its module loads.
    await waitFor(() => expect(destination(router)).toBe('/carriers/568253/overview'));
    expect(sandbox.calls.some((call) => call.startsWith('/api/v2/autocomplete?q=hansen'))).toBe(
      true,
    );
  });

  it('closes on Escape, then clears on a second Escape', async () => {
    const user = userEvent.setup();
    renderApp('/search');
    const before = sandbox.calls.length;
    await user.click(omnibox());
    // One input event (a paste) asks once, for the whole word; how keystrokes are grouped into
    // requests is timing, tested with a fake clock in use-typing-debounce.test.tsx.
    await user.paste('hansen');
    await waitFor(() => expect(omnibox().getAttribute('aria-expanded')).toBe('true'));
    const listbox = screen.getByRole('listbox', { name: 'Suggestions' });
    await within(listbox).findAllByRole('option');
    const asked = sandbox.calls.slice(before).filter((call) => call.includes('autocomplete'));
    expect(asked).toEqual(['/api/v2/autocomplete?q=hansen&limit=15']);
    await user.keyboard('{ArrowDown}{Escape}');
    expect(omnibox().getAttribute('aria-expanded')).toBe('false');
    expect(omnibox().hasAttribute('aria-activedescendant')).toBe(false);
    expect((omnibox() as HTMLInputElement).value).toBe('hansen');
    await user.keyboard('{Escape}');
    expect((omnibox() as HTMLInputElement).value).toBe('');
  });

  it('detects digits as a DOT: the DOT comes first, then the MC docket', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search?company=x');
    const listbox = await openSuggestions(user, '277621');
    expect(
      within(screen.getByRole('search', { name: 'Carrier search' })).getByRole('combobox', {
        name: 'Search by',
      }),
    ).toHaveProperty('value', 'auto');
    expect(screen.getByText('Auto: USDOT number')).toBeDefined();
    const options = within(listbox).getAllByRole('option');
    expect(options[0]?.textContent).toBe('Search USDOT number: 277621');
    const docket = within(listbox).getByRole('option', {
      name: 'Search Docket (MC/MX/FF): MC277621',
    });
    await user.keyboard('{ArrowDown}');
    expect(omnibox().getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    await user.keyboard('{ArrowDown}');
    expect(omnibox().getAttribute('aria-activedescendant')).toBe(docket.id);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?docket_number=MC277621'));
  });

  it('a typed DOT that is a carrier: ArrowDown picks that carrier', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search');
    await user.click(omnibox());
    await user.paste('568253');
    const listbox = screen.getByRole('listbox', { name: 'Suggestions' });
    await within(listbox).findByRole('option', { name: /HANSEN & ADKINS/ }, { timeout: 8_000 });
    await user.keyboard('{ArrowDown}');
    const active = document.getElementById(omnibox().getAttribute('aria-activedescendant') ?? '');
    expect(active?.textContent).toMatch(/^HANSEN & ADKINS AUTO TRANSPORT INC/);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(destination(router)).toBe('/carriers/568253/overview'));
  });

  it('Enter on a typed DOT opens its profile at once, without a search for it', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search');
    const visited: string[] = [];
    const unsubscribe = router.subscribe((state) => {
      const { pathname, search } = state.navigation.location ?? state.location;
      visited.push(pathname + search);
    });
    try {
      await user.click(omnibox());
      await user.paste('2214589');
      await user.keyboard('{Enter}');
      await waitFor(() => expect(destination(router)).toBe('/carriers/2214589/overview'));
      // no stop at /search?dot_number=… (its full-profile call and results table) on the way
      expect(visited.filter((path) => path.startsWith('/search'))).toEqual([]);
      const searched = (dot: string) =>
        sandbox.calls.filter((call) => call.startsWith(`/api/v2/profile?dot_number=${dot}`));
      expect(searched('2214589')).toEqual([]);

      // "Search USDOT number: …" chosen with the arrows goes the same way
      await user.click(omnibox());
      await user.paste('277621');
      const listbox = screen.getByRole('listbox', { name: 'Suggestions' });
      await within(listbox).findByRole('option', { name: 'Search USDOT number: 277621' });
      await user.keyboard('{ArrowDown}{Enter}');
      await waitFor(() => expect(destination(router)).toBe('/carriers/277621/overview'));
      expect(visited.filter((path) => path.startsWith('/search'))).toEqual([]);
      expect(searched('277621')).toEqual([]);
    } finally {
      unsubscribe();
    }
  });

  it('"swif" shows SWIFTPATH EXPRESS among the many SWIFTLINE names', async () => {
    const user = userEvent.setup();
    renderApp('/search');
    await user.click(omnibox());
    await user.paste('swif');
    await waitFor(() => expect(omnibox().getAttribute('aria-expanded')).toBe('true'), {
      timeout: 8_000,
    });
    const listbox = screen.getByRole('listbox', { name: 'Suggestions' });
    expect(
      await within(listbox).findByRole(
        'option',
        { name: /SWIFTPATH EXPRESS LLC/ },
        { timeout: 8_000 },
      ),
    ).toBeDefined();
    const names = within(listbox)
      .getAllByRole('option')
      .map((option) => option.textContent ?? '');
    expect(names.some((name) => name.startsWith('SWIFTLINE'))).toBe(true);
  });

  it('has a placeholder that fits a phone’s header', () => {
    const narrow = (query: string) =>
      ({
        matches: false,
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList;
    // jsdom has no matchMedia (the omnibox then assumes a wide window): a phone's answer.
    Object.defineProperty(window, 'matchMedia', { value: narrow, configurable: true });
    try {
      renderApp('/search');
      expect(omnibox().getAttribute('placeholder')).toBe('DOT, MC or name');
    } finally {
      Reflect.deleteProperty(window, 'matchMedia');
    }
    cleanup();
    renderApp('/search');
    expect(omnibox().getAttribute('placeholder')).toMatch(/^DOT, MC, name, phone, e-mail, VIN/);
  });

  it('lets the user override the detected key', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/search');
    const search = screen.getByRole('search', { name: 'Carrier search' });
    await user.selectOptions(
      within(search).getByRole('combobox', { name: 'Search by' }),
      'address',
    );
    await user.click(omnibox());
    await user.keyboard('5626027220{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?address=5626027220'));
  });

  it('is focused by "/" from anywhere except while typing in another field', async () => {
    const user = userEvent.setup();
    renderApp('/search');
    const field = screen.getByRole('textbox', { name: 'Company name' });
    await user.click(field);
    await user.keyboard('/');
    expect(document.activeElement).toBe(field);
    expect((field as HTMLInputElement).value).toBe('/');
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('/');
    expect(document.activeElement).toBe(omnibox());
    expect((omnibox() as HTMLInputElement).value).toBe('');
  });
});

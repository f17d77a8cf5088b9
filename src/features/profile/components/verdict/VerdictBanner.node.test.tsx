/**
 * The verdict banner, and the summary under the carrier's name: recording a decision and the
 * current decision, against a real proxy
 * with its embedded sandbox (child process): the verdict is the proxy's (`/api/local/verdict`, the
 * same engine on its cached profile), so the overview never downloads the full profile for it; the
 * decision goes through the real route.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../../test/render-app.tsx';
import { startSandboxProxy, type SandboxProxy } from '../../../../test/sandbox-proxy.node.ts';

vi.setConfig({ testTimeout: 30_000 });
const WAIT = { timeout: 15_000 };

let sandbox: SandboxProxy;

beforeAll(async () => {
  sandbox = await startSandboxProxy();
}, 60_000);
afterAll(async () => {
  await sandbox.stop();
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

async function findBanner() {
  return screen.findByRole('region', { name: /^Verdict:/ }, WAIT);
}

describe('the verdict banner', () => {
  it('shows Review for 4418207 with reasons that link to their evidence, without the full profile', async () => {
    renderApp('/carriers/4418207/overview');
    const banner = await findBanner();
    expect(within(banner).getByRole('heading', { level: 2 }).textContent).toMatch(/Review$/);
    expect(banner.textContent).toContain('Policy version 1');
    const reasons = within(banner).getByRole('list', { name: 'Reasons for the verdict' });
    const items = within(reasons).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-rule'))).toEqual([
      'new_entrant',
      'contact_changes',
      'shared_identifiers',
    ]);
    const network = within(reasons).getByRole('link', {
      name: 'Evidence: Network (Identifiers shared with a carrier in bad standing)',
    });
    expect(network.getAttribute('href')).toBe('/carriers/4418207/network#network-links');
    expect(reasons.textContent).toContain(
      'Shares physical address, telephone and equipment (4 VINs) with DOT 3187452 RAPID ROUTE CARRIERS LLC',
    );
    expect(sandbox.calls.filter((call) => call.includes('/api/local/verdict?'))).toHaveLength(1);
    expect(sandbox.calls.some((call) => call.includes('/api/v2/profile?'))).toBe(false);
  });

  it('labels vendor-computed values and lists the passed checks for 568253 (Pass)', async () => {
    renderApp('/carriers/568253/overview');
    const banner = await findBanner();
    expect(within(banner).getByRole('heading', { level: 2 }).textContent).toMatch(/Pass$/);
    const passed = within(banner).getByRole('list', { name: 'Checks passed' });
    for (const link of within(passed).getAllByRole('link')) {
      expect(link.getAttribute('href')).toMatch(/^\/carriers\/568253\/[a-z]+(#[a-z-]+)?$/);
    }
    cleanup();
    renderApp('/carriers/2214589/overview');
    const review = await findBanner();
    expect(review.textContent).toContain('computed by the data vendor');
    expect(review.textContent).toContain(
      'Vendor risk score Very High (computed by the data vendor; not a rule of this policy).',
    );
  });
});

/** The writes the page sent (the triage look-up is a read sent as POST: its ids go in the body). */
function writes(): string[] {
  return sandbox.calls.filter(
    (call) => call.startsWith('POST') && call !== 'POST /api/local/triage/lookup',
  );
}

describe('recording a decision', () => {
  it('stores it through the proxy and shows it beside the verdict under the name', async () => {
    const user = userEvent.setup();
    renderApp('/carriers/2456781/overview');
    const summary = await screen.findByRole('region', { name: 'Verdict summary' }, WAIT);
    await waitFor(() => expect(summary.textContent).toContain('No decision recorded'), WAIT);
    await user.click(within(summary).getByRole('button', { name: 'Record a decision' }));
    const form = within(summary).getByRole('form', { name: 'Record a decision' });
    await user.click(within(form).getByRole('radio', { name: 'Approved with conditions' }));
    await user.click(within(form).getByRole('button', { name: 'Save decision' }));
    // the browser refuses the form: conditions are required for this decision
    expect(writes()).toEqual([]);
    await user.type(
      within(form).getByLabelText(/^Conditions/),
      'Replacement BIPD before 2026-12-11',
    );
    await user.type(within(form).getByLabelText('Note'), 'Broker of record confirmed');
    // 2456781 needs review: the approval is an override, and the form asks why, in words
    expect(form.textContent).toMatch(
      /This carrier needs review under policy v1 \(\d+ reasons?\)\. Say why you approve it anyway\./,
    );
    await user.click(within(form).getByRole('button', { name: 'Save decision' }));
    expect(within(form).getByRole('alert').textContent).toBe(
      'Say why you approve this carrier anyway: an override needs its reason.',
    );
    expect(writes()).toEqual([]);
    await user.type(
      within(form).getByLabelText(/^Override reason/),
      'Insurer confirmed the replacement in writing',
    );
    await user.click(within(form).getByRole('button', { name: 'Save decision' }));
    const done = await within(summary).findByRole('status', {}, WAIT);
    await waitFor(
      () =>
        expect(done.textContent).toMatch(
          /Decision recorded: Approved with conditions \(record #\d+\)/,
        ),
      WAIT,
    );
    expect(writes()).toEqual(['POST /api/local/decisions']);
    await waitFor(() => expect(summary.textContent).toContain('Approved with conditions'), WAIT);
    expect(within(summary).getByText(/^Decision history \(1\)/)).toBeDefined();
  });
});

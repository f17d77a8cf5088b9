/**
 * The Decisions page, the record's print view and the Policy page against a real proxy with its
 * embedded sandbox (child process): what they show comes from the real routes and SQLite file.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { startSandboxProxy, type SandboxProxy } from '../../../test/sandbox-proxy.node.ts';

vi.setConfig({ testTimeout: 30_000 });
const WAIT = { timeout: 15_000 };
const CSRF = { 'x-requested-with': 'carrier-desk' };
const CARRIER_BOX = 'Carrier: USDOT, MC number or name';

let sandbox: SandboxProxy;

async function api(path: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(path, {
    ...init,
    headers: { ...CSRF, 'content-type': 'application/json', ...init.headers },
  });
  expect(response.ok, `${path} answered ${response.status}`).toBe(true);
  return response.json();
}

beforeAll(async () => {
  sandbox = await startSandboxProxy();
  await api('/api/v2/profile?dot_number=568253');
  await api('/api/v2/profile?dot_number=1893346');
  const record = (dot: string, decision: string, note: string) =>
    api('/api/local/decisions', {
      method: 'POST',
      body: JSON.stringify({ dot_number: dot, decision, note }),
    });
  await record('568253', 'approved', 'Long-standing partner');
  await record('1893346', 'do_not_use', 'Unsafe driving alert');
}, 60_000);
afterAll(async () => {
  await sandbox.stop();
});
afterEach(() => {
  cleanup();
});

describe('the Decisions page', () => {
  it('lists the records with the chain check, and filters from the URL', async () => {
    renderApp('/decisions');
    const table = await screen.findByRole('table', { name: /Decision records/ }, WAIT);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('Do not use'),
      expect.stringContaining('Approved'),
    ]);
    expect(rows[1]?.textContent).toContain('HANSEN & ADKINS AUTO TRANSPORT INC');
    await waitFor(
      () => expect(screen.getByText(/Chain verified: 2 records, none altered/)).toBeDefined(),
      WAIT,
    );
    cleanup();
    renderApp('/decisions?decision=approved');
    const filtered = await screen.findByRole('table', { name: /Decision records/ }, WAIT);
    expect(within(filtered).getAllByRole('row')).toHaveLength(2);
    expect((screen.getByLabelText('Decision') as HTMLSelectElement).value).toBe('approved');
  });

  it('applies filters into the URL', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/decisions');
    await screen.findByRole('table', { name: /Decision records/ }, WAIT);
    await user.type(screen.getByLabelText(CARRIER_BOX), '1893346');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?dot_number=1893346'));
    await waitFor(() => {
      const rows = within(screen.getByRole('table', { name: /Decision records/ })).getAllByRole(
        'row',
      );
      expect(rows).toHaveLength(2);
    }, WAIT);
  });
});

describe('the carrier filter', () => {
  async function filterBy(text: string) {
    const user = userEvent.setup();
    const rendered = renderApp('/decisions');
    await screen.findByRole('table', { name: /Decision records/ }, WAIT);
    await user.type(screen.getByLabelText(CARRIER_BOX), text);
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    return rendered;
  }

  async function listedCarriers(): Promise<string[]> {
    let names: string[] = [];
    await waitFor(() => {
      const table = screen.getByRole('table', { name: /Decision records/ });
      names = within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => row.textContent ?? '');
      expect(names).toHaveLength(1);
    }, WAIT);
    return names;
  }

  it.each(['MC277621', 'MC-277621', 'mc 277621'])(
    'takes the docket %s and lists the records that kept it',
    async (typed) => {
      const { router } = await filterBy(typed);
      await waitFor(() => expect(router.state.location.search).toBe('?carrier=MC277621'));
      expect((await listedCarriers())[0]).toContain('HANSEN & ADKINS AUTO TRANSPORT INC');
      expect(screen.getByLabelText(CARRIER_BOX).getAttribute('aria-invalid')).toBeNull();
    },
  );

  it('takes part of a legal or DBA name, in any case', async () => {
    const { router } = await filterBy('lakeshore coach');
    await waitFor(() => expect(router.state.location.search).toBe('?carrier=lakeshore+coach'));
    expect((await listedCarriers())[0]).toContain('LAKESHORE COACH LINES');
  });

  it('says so when no record kept the docket or the name', async () => {
    await filterBy('MC999999');
    expect((await screen.findByTestId('no-decisions', {}, WAIT)).textContent).toMatch(
      /No decision records for docket MC999999/,
    );
    cleanup();
    await filterBy('Nonexistent Hauling');
    expect((await screen.findByTestId('no-decisions', {}, WAIT)).textContent).toMatch(
      /No decision records for a carrier named “Nonexistent Hauling”/,
    );
  });

  it('explains what it takes instead of applying a single letter', async () => {
    const { router } = await filterBy('x');
    expect(screen.getByRole('alert').textContent).toMatch(/USDOT number, an MC number/);
    expect(screen.getByLabelText(CARRIER_BOX).getAttribute('aria-invalid')).toBe('true');
    expect(router.state.location.search).toBe('');
  });
});

describe('a backwards date range', () => {
  it('is kept, explained beside the dates, and not applied', async () => {
    const user = userEvent.setup();
    renderApp('/decisions?from=2026-12-01&to=2026-01-01');
    const table = await screen.findByRole('table', { name: /Decision records/ }, WAIT);
    // the records are listed as if no date were given, and the dates stay as the user gave them
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByRole('alert').textContent).toMatch(
      /“From” \(2026-12-01\) is after “To” \(2026-01-01\)/,
    );
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2026-01-01');
    expect(screen.getByLabelText('From').getAttribute('aria-invalid')).toBe('true');

    // typed in the form: Apply keeps both dates and does not touch the URL
    cleanup();
    const second = renderApp('/decisions');
    await screen.findByRole('table', { name: /Decision records/ }, WAIT);
    await user.type(screen.getByLabelText('From'), '2026-12-01');
    await user.type(screen.getByLabelText('To'), '2026-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(screen.getByRole('alert').textContent).toMatch(/is after “To”/);
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe('2026-01-01');
    expect(second.router.state.location.search).toBe('');
  });
});

describe('the print view', () => {
  it('shows the record with its rule results, key fields and chain hashes', async () => {
    renderApp('/decisions/1');
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Decision #1 · HANSEN & ADKINS AUTO TRANSPORT INC' },
        WAIT,
      ),
    ).toBeDefined();
    expect(screen.getByTestId('record-hash').textContent).toMatch(/^[0-9a-f]{64}$/);
    // no ORG_NAME on this proxy: the product's name, once the proxy said so
    await waitFor(
      () =>
        expect(screen.getByTestId('record-org').textContent).toBe(
          'carrier-desk · vetting decision record',
        ),
      WAIT,
    );
    // field names in words, values formatted
    expect(screen.getByText('BIPD insurance on file')).toBeDefined();
    expect(document.body.textContent).not.toMatch(/insurance_bipd_on_file|basic_percentile_/);
    expect(screen.getByText('0'.repeat(64))).toBeDefined();
    const results = screen.getByRole('table', { name: /Every rule of the policy/ });
    expect(within(results).getByText('USDOT status')).toBeDefined();
    expect(screen.getByText('Long-standing partner')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Print or save as PDF' })).toBeDefined();
  });

  it("carries the record's signed receipt, which the proxy verifies, and copies it", async () => {
    const user = userEvent.setup();
    renderApp('/decisions/1');
    const section = await screen.findByRole(
      'region',
      { name: 'Receipt — keep this with the printed record' },
      WAIT,
    );
    const json = await within(section).findByTestId('receipt-json', {}, WAIT);
    const receipt = JSON.parse(json.textContent ?? '') as Record<string, unknown>;
    expect(receipt).toMatchObject({
      type: 'decision-receipt',
      record_id: 1,
      record_position: 1,
      chain_length: 2,
      record_hash: screen.getByTestId('record-hash').textContent,
    });
    expect(section.textContent).toContain('#1, number 1 in the chain');
    expect(section.textContent).toContain('2 records when issued');
    expect(section.textContent).toContain(String(receipt.head_hash));
    expect(section.textContent).toContain(String(receipt.key_id));
    // the JSON as printed is what the proxy checks
    expect(
      await api('/api/local/decisions/verify', {
        method: 'POST',
        body: JSON.stringify({ receipts: [receipt] }),
      }),
    ).toMatchObject({ ok: true, receipts: [{ ok: true }] });
    await user.click(within(section).getByRole('button', { name: 'Copy receipt' }));
    expect(await navigator.clipboard.readText()).toBe(json.textContent);
    expect(within(section).getByRole('status').textContent).toBe('Receipt copied.');
    expect(within(section).getByRole('button', { name: 'Download receipt (.json)' })).toBeDefined();
  });

  it('says so when the record does not exist', async () => {
    renderApp('/decisions/999');
    expect(await screen.findByRole('alert', {}, WAIT)).toBeDefined();
  });
});

describe('the Policy page', () => {
  it('saves a change as a new version and lists it with what changed', async () => {
    const user = userEvent.setup();
    renderApp('/policy');
    const threshold = await screen.findByLabelText(
      'New entrant: New entrant while younger than (days)',
      {},
      WAIT,
    );
    await user.clear(threshold);
    await user.type(threshold, '365');
    await user.type(screen.getByLabelText(/^Why/), 'One year is enough');
    await user.click(screen.getByRole('button', { name: 'Save as a new version' }));
    await waitFor(() => expect(screen.getByText('Saved as version 2.')).toBeDefined(), WAIT);
    const versions = await screen.findByRole('list', { name: 'Policy versions' }, WAIT);
    await waitFor(
      () => expect(versions.textContent).toContain('New entrant: threshold 540 → 365'),
      WAIT,
    );
    expect(versions.textContent).toContain('One year is enough');
    expect(versions.textContent).toContain('Version 1 · default policy');
  });
});

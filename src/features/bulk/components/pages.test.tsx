/**
 * The bulk pages against a stubbed proxy answering with the contract's shapes: the list checked
 * before anything is sent, the dry run, the refusal over budget, the run, the job page's progress,
 * controls, failures and results with their URL state.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BulkItem, BulkJob } from '../../../lib/bulk/contract.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { estimateAnswer, jobAnswer, summaryAnswer } from '../test/answers.ts';
import { BulkJobPage } from './BulkJobPage.tsx';
import { BulkPage } from './BulkPage.tsx';

const ROUTES = [
  { path: '/bulk', Component: BulkPage },
  { path: '/bulk/:id', Component: BulkJobPage },
];
const CONFIG = { config: { mode: 'sandbox' as const } };
const WAIT = { timeout: 8_000 };

// the polling test waits out a poll interval; user-event typing is slow on a loaded machine
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ESTIMATE = estimateAnswer({
  carriers: 2,
  already_fetched: 1,
  billable: 1,
  rate_per_minute: 5,
  duration_seconds: 24,
  budget_usd: 100,
  spent_usd: 10,
  left_usd: 90,
});

function doneItem(position: number, dot: string, name: string, verdict: 'pass' | 'fail') {
  return {
    position,
    identifier: dot,
    dot_number: dot,
    status: 'done',
    verdict,
    attempts: 1,
    source: 'upstream',
    result: {
      name,
      verdict,
      policy_version: 1,
      reasons: verdict === 'fail' ? ['Out of service'] : [],
      usdot_status: 'ACTIVE',
      authority: 'Active',
      insurance: 'On file',
      safety_rating: 'Satisfactory',
      basic_alerts: verdict === 'fail' ? ['Unsafe driving'] : [],
      out_of_service: verdict === 'fail',
      linked_warnings: 0,
      snapshot_date: '2026-11-20',
    },
  } satisfies BulkItem;
}

function job(over: Partial<BulkJob> = {}): BulkJob {
  const items: BulkItem[] = [
    doneItem(1, '568253', 'HANSEN & ADKINS', 'pass'),
    doneItem(2, '3187452', 'OLD CARRIER', 'fail'),
    {
      position: 3,
      identifier: 'MC999999',
      status: 'failed',
      attempts: 3,
      error: { code: 'not_found', message: 'No carrier has docket MC999999.' },
    },
    { position: 4, identifier: '2214589', status: 'pending', attempts: 0 },
  ];
  return jobAnswer({
    status: 'running',
    updated_at: '2026-11-26T01:01:00Z',
    total: 4,
    done: 2,
    failed: 1,
    rate_per_minute: 5,
    eta_seconds: 12,
    estimate: ESTIMATE,
    items,
    ...over,
  });
}

interface Call {
  method: string;
  url: string;
  body: unknown;
}

/** A stub proxy: `answer` decides per call; every call is recorded. */
function serve(answer: (call: Call) => Response | undefined) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
    const call = {
      method: init.method ?? 'GET',
      url: String(input),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    calls.push(call);
    return Promise.resolve(
      answer(call) ?? Response.json({ error: 'not here', code: 'not_found' }, { status: 404 }),
    );
  });
  return calls;
}

describe('the Bulk vetting page', () => {
  it('lists invalid and duplicate entries, estimates the valid ones, and runs only on confirm', async () => {
    const user = userEvent.setup();
    const calls = serve((call) => {
      if (call.url.startsWith('/api/local/bulk-jobs') && call.method === 'GET') {
        return Response.json({ jobs: [] });
      }
      if (call.url === '/api/local/bulk-jobs' && call.method === 'POST') {
        const body = call.body as { dry_run?: boolean };
        return body.dry_run
          ? Response.json({ estimate: ESTIMATE })
          : Response.json({ id: 'job-1', estimate: ESTIMATE }, { status: 202 });
      }
      if (call.url.startsWith('/api/local/bulk-jobs/job-1')) return Response.json(job());
      return undefined;
    });
    const { router } = renderApp('/bulk', { ...CONFIG, routes: ROUTES });
    await user.type(
      screen.getByLabelText(/USDOT numbers or MC\/MX\/FF dockets/),
      '568253, hello{Enter}MC-277621{Enter}usdot 568253',
    );
    await screen.findByText(/2 carriers to vet; 2 entries left out/, {}, WAIT);
    const left = screen.getByRole('list', { name: 'Left out' });
    // named by the line they stand on, as the box shows them
    expect(within(left).getByText('hello').parentElement?.textContent).toMatch(
      /line 1, invalid.*Not a USDOT number or docket/,
    );
    expect(within(left).getByText('usdot 568253').parentElement?.textContent).toMatch(
      /line 3, duplicate.*Repeats line 1 \(568253\)/,
    );

    await user.click(screen.getByRole('button', { name: 'Check cost' }));
    const estimate = await screen.findByRole('region', { name: 'Estimate' }, WAIT);
    expect(estimate.textContent).toContain('1 carrier (free)');
    expect(estimate.textContent).toContain('1 × $0.25 = $0.00 — not billed in sandbox');
    expect(estimate.textContent).toContain('at 5 profile calls a minute');
    expect(estimate.textContent).toContain('$90.00 left');
    const posts = () => calls.filter((call) => call.method === 'POST');
    expect(posts()).toEqual([
      {
        method: 'POST',
        url: '/api/local/bulk-jobs',
        // every entry, the ones left out too (the job keeps them), with its line
        body: {
          identifiers: ['568253', 'hello', 'MC-277621', 'usdot 568253'],
          rows: [1, 1, 2, 3],
          numbering: 'line',
          dry_run: true,
        },
      },
    ]);

    await user.click(within(estimate).getByRole('button', { name: 'Run 2 carriers' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/bulk/job-1'), WAIT);
    expect(posts()[1]?.body).toEqual({
      identifiers: ['568253', 'hello', 'MC-277621', 'usdot 568253'],
      rows: [1, 1, 2, 3],
      numbering: 'line',
    });
  });

  it('refuses a run over the budget with the figure, and shows the proxy’s refusal', async () => {
    const user = userEvent.setup();
    serve((call) => {
      if (call.method === 'GET') return Response.json({ jobs: [] });
      const body = call.body as { dry_run?: boolean };
      if (body.dry_run) {
        return Response.json({
          estimate: estimateAnswer({
            ...ESTIMATE,
            cost_usd: 0,
            metered_cost_usd: 50,
            left_usd: 20,
            within_budget: false,
          }),
        });
      }
      return undefined;
    });
    renderApp('/bulk', { ...CONFIG, routes: ROUTES });
    await user.type(screen.getByLabelText(/USDOT numbers/), '568253 2214589');
    await user.click(await screen.findByRole('button', { name: 'Check cost' }));
    const estimate = await screen.findByRole('region', { name: 'Estimate' }, WAIT);
    expect(within(estimate).getByRole('alert').textContent).toMatch(
      /would cost \$50\.00, more than the \$20\.00 left/,
    );
    expect(estimate.textContent).toContain('not billed in sandbox');
    expect(estimate.textContent).toContain('Metered at $50.00 against the monthly budget');
    expect(
      (within(estimate).getByRole('button', { name: 'Run 2 carriers' }) as HTMLButtonElement)
        .disabled,
    ).toBe(true);

    // a new list drops the old estimate
    await user.type(screen.getByLabelText(/USDOT numbers/), ' 1893346');
    expect(screen.queryByRole('region', { name: 'Estimate' })).toBeNull();
  });

  it('shows the proxy’s error when the dry run is refused', async () => {
    const user = userEvent.setup();
    serve((call) => {
      if (call.method === 'GET') return Response.json({ jobs: [] });
      return Response.json(
        {
          error: 'Monthly budget exceeded: $12.50 left',
          code: 'budget_exceeded',
          hint: 'Raise MONTHLY_BUDGET_USD',
        },
        { status: 402 },
      );
    });
    renderApp('/bulk', { ...CONFIG, routes: ROUTES });
    await user.type(screen.getByLabelText(/USDOT numbers/), '568253');
    await user.click(await screen.findByRole('button', { name: 'Check cost' }));
    const alert = await screen.findByRole('alert', {}, WAIT);
    expect(alert.textContent).toContain('Monthly budget exceeded: $12.50 left');
    expect(alert.textContent).toContain('Raise MONTHLY_BUDGET_USD');
  });

  it('takes a column of an uploaded file, guessing the column and the header', async () => {
    const user = userEvent.setup();
    serve((call) => (call.method === 'GET' ? Response.json({ jobs: [] }) : undefined));
    renderApp('/bulk', { ...CONFIG, routes: ROUTES });
    const csv = 'Carrier,USDOT\nHansen,568253\n\nAcme,2214589\n';
    await user.upload(
      screen.getByLabelText('Or upload a CSV or Excel (.xlsx) file'),
      new File([csv], 'book.csv', { type: 'text/csv' }),
    );
    const picker = await screen.findByRole('group', { name: /Which column of book.csv/ }, WAIT);
    const box = screen.getByLabelText(/USDOT numbers or MC/) as HTMLTextAreaElement;
    expect(box.value).toBe('568253\n2214589');
    expect((within(picker).getByRole('radio', { name: /USDOT/ }) as HTMLInputElement).checked).toBe(
      true,
    );
    await user.click(within(picker).getByRole('checkbox', { name: 'The first row is a header' }));
    expect(box.value).toBe('USDOT\n568253\n2214589');
    // named by its row in the file, not its line in the box
    expect(
      within(screen.getByRole('list', { name: 'Left out' })).getByText('USDOT').parentElement
        ?.textContent,
    ).toMatch(/row 1, invalid/);
    await user.click(within(picker).getByRole('radio', { name: /Column 1/ }));
    expect(box.value).toBe('Carrier\nHansen\nAcme');
    expect(screen.getByText(/0 carriers to vet; 3 entries left out/)).toBeDefined();
    await user.clear(box);
    await user.type(box, '568253{Enter}{Enter}568253');
    // typed into: the box's own lines count again
    expect(
      within(screen.getByRole('list', { name: 'Left out' })).getByText('568253').parentElement
        ?.textContent,
    ).toMatch(/line 3, duplicate.*Repeats line 1 \(568253\)/);
  });

  it('lists the recent jobs, each linking to its page', async () => {
    serve((call) =>
      call.method === 'GET' && call.url === '/api/local/bulk-jobs'
        ? Response.json({ jobs: [summaryAnswer(job())] })
        : undefined,
    );
    renderApp('/bulk', { ...CONFIG, routes: ROUTES });
    const table = await screen.findByRole('table', { name: /Bulk vetting jobs/ }, WAIT);
    const link = within(table).getByRole('link', { name: /4 carriers/ });
    expect(link.getAttribute('href')).toBe('/bulk/job-1');
    expect(table.textContent).toContain('Running');
  });
});

describe('a job’s page', () => {
  function serveJob(current: () => BulkJob) {
    return serve((call) => {
      if (call.url.startsWith('/api/local/bulk-jobs/job-1?')) return Response.json(current());
      // an action answers the job as it left it
      if (call.url.startsWith('/api/local/bulk-jobs/job-1/')) {
        return Response.json(summaryAnswer(current()));
      }
      return undefined;
    });
  }

  it('shows progress, failures with their reason, and the results', async () => {
    serveJob(() => job());
    renderApp('/bulk/job-1', { ...CONFIG, routes: ROUTES });
    const bar = await screen.findByRole('progressbar', { name: 'Carriers checked' }, WAIT);
    expect(bar.getAttribute('aria-valuenow')).toBe('3');
    expect(bar.getAttribute('aria-valuemax')).toBe('4');
    expect(screen.getByText('3 of 4 (75%)')).toBeDefined();
    expect(screen.getByText('5 a minute')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
    const failures = screen.getByRole('region', { name: 'Failures' });
    expect(failures.textContent).toContain('MC999999 (line 3): No carrier has docket MC999999.');
    const table = screen.getByRole('table', { name: 'Results of the job' });
    const link = within(table).getByRole('link', { name: 'OLD CARRIER' });
    expect(link.getAttribute('href')).toBe('/carriers/3187452/overview');
    expect(within(table).getAllByRole('row')).toHaveLength(5);
  });

  it('shows the entries left out with their row and reason, a carrier given twice once, BASICs by name', async () => {
    const user = userEvent.setup();
    const base = job();
    const [hansen, old] = base.items;
    serveJob(() => ({
      ...base,
      // three inputs: two carriers listed, one input merged into the first
      total: 3,
      merged: 1,
      estimate: {
        ...ESTIMATE,
        numbering: 'row',
        rejected: [
          {
            input: 'n/a',
            position: 5,
            reason: 'invalid',
            message: 'Not a USDOT number or docket.',
          },
        ],
      },
      items: [
        {
          ...hansen!,
          row: 3,
          inputs: [
            { identifier: '568253', row: 3 },
            { identifier: 'MC123456', row: 9 },
          ],
        },
        {
          ...old!,
          row: 34,
          result: { ...old!.result!, basic_alerts: ['unsafe_driving', 'vehicle_maintence'] },
        },
      ],
    }));
    renderApp('/bulk/job-1', { ...CONFIG, routes: ROUTES });
    const left = await screen.findByRole('region', { name: /Left out/ }, WAIT);
    expect(left.textContent).toContain('n/a (row 5, invalid): Not a USDOT number or docket.');
    expect(screen.getByText(/^2 carriers \(1 entry left out\)/)).toBeDefined();
    const table = screen.getByRole('table', { name: 'Results of the job' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelectorAll('td, th')[3]?.textContent)).toEqual([
      '3',
      '5',
      '34',
    ]);
    expect(rows[0]?.textContent).toContain('Inputs: 568253 (row 3), MC123456 (row 9)');
    expect(rows[1]?.textContent).toContain('Left out: Not a USDOT number or docket.');
    // progress in carriers: the merged input is not a carrier of its own
    expect(screen.getByRole('progressbar').getAttribute('aria-valuemax')).toBe('2');
    expect(rows[2]?.textContent).toContain('Unsafe Driving, Vehicle Maintenance');
    await user.selectOptions(screen.getByLabelText('Status'), 'left_out');
    expect(within(table).getAllByRole('row')).toHaveLength(2);
  });

  it('keeps filters and sort in the URL', async () => {
    const user = userEvent.setup();
    serveJob(() => job());
    const { router } = renderApp('/bulk/job-1?verdict=fail', { ...CONFIG, routes: ROUTES });
    const table = await screen.findByRole('table', { name: 'Results of the job' }, WAIT);
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect((screen.getByLabelText('Verdict') as HTMLSelectElement).value).toBe('fail');

    await user.selectOptions(screen.getByLabelText('Verdict'), '');
    await user.selectOptions(screen.getByLabelText('Status'), 'failed');
    await waitFor(() => expect(router.state.location.search).toBe('?status=failed'));
    expect(within(table).getAllByRole('row')).toHaveLength(2);

    await user.selectOptions(screen.getByLabelText('Status'), '');
    await user.click(within(table).getByRole('button', { name: /Carrier/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name'));
    const names = within(table)
      .getAllByRole('rowheader')
      .map((cell) => cell.textContent);
    await user.type(screen.getByRole('searchbox', { name: 'Identifier, DOT or name' }), 'old');
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&q=old'));
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    await user.clear(screen.getByRole('searchbox', { name: 'Identifier, DOT or name' }));
    // rows without a name sort last, showing the entry as given
    expect(names).toEqual(['HANSEN & ADKINS', 'OLD CARRIER', 'MC999999', '2214589']);
  });

  it('pauses, resumes, cancels after asking, and retries the failed', async () => {
    const user = userEvent.setup();
    let current = job();
    const calls = serveJob(() => current);
    renderApp('/bulk/job-1', { ...CONFIG, routes: ROUTES });
    const pause = await screen.findByRole('button', { name: 'Pause' }, WAIT);
    current = job({
      status: 'paused',
      eta_seconds: null,
      pause_reason: { code: 'upstream_unavailable', message: 'The data service is down.' },
    });
    await user.click(pause);
    expect((await screen.findByRole('alert', {}, WAIT)).textContent).toBe(
      'Paused: The data service is down.',
    );
    await user.click(await screen.findByRole('button', { name: 'Resume' }, WAIT));
    await user.click(screen.getByRole('button', { name: 'Cancel job' }));
    const ask = screen.getByRole('alertdialog');
    expect(document.activeElement).toBe(
      within(ask).getByRole('button', { name: 'Yes, cancel the job' }),
    );
    await user.click(within(ask).getByRole('button', { name: 'Yes, cancel the job' }));
    await user.click(screen.getByRole('button', { name: 'Retry 1 failed' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
        '/api/local/bulk-jobs/job-1/pause',
        '/api/local/bulk-jobs/job-1/resume',
        '/api/local/bulk-jobs/job-1/cancel',
        '/api/local/bulk-jobs/job-1/retry-failed',
      ]),
    );
  });

  it('polls while the job runs and stops once it is done', async () => {
    let current = job();
    const calls = serveJob(() => current);
    renderApp('/bulk/job-1', { ...CONFIG, routes: ROUTES });
    await screen.findByRole('progressbar', {}, WAIT);
    current = job({ status: 'done', done: 3, failed: 1, eta_seconds: null });
    await waitFor(() => expect(screen.getByTestId('job-status').textContent).toBe('Done'), WAIT);
    const reads = calls.length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(calls.length).toBe(reads);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('4');
  });

  it('says when the job does not exist', async () => {
    serve(() =>
      Response.json(
        {
          error: 'No bulk job job-9',
          code: 'unknown_job',
          hint: 'GET /api/local/bulk-jobs lists the jobs.',
        },
        { status: 404 },
      ),
    );
    renderApp('/bulk/job-9', { ...CONFIG, routes: ROUTES });
    const alert = await screen.findByRole('alert', {}, WAIT);
    expect(alert.textContent).toContain('No bulk job job-9');
  });
});

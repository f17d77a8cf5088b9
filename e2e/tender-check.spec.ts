/**
 * The tender check in the browser (issue 33; docs/tender-check.md): the sandbox's cases
 * (docs/sandbox-data.md#tender-check-cases) typed into the form give their designed answers with
 * the reasons that decide them and links to the evidence; a billed search runs only after the user
 * confirmed its cost (the sandbox's ledger says so); the form says what is wrong in words; the
 * answer, the form and the list are axe-clean in both themes and fit a 390 px phone; the check is
 * listed on the Tender checks page and on the carrier's profile.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { TENDER_CASES } from '../server-proxy/src/sandbox/data/tender-cases.ts';
import { CARGO_CLASS_LABELS } from '../src/lib/vetting/rules.ts';
import { TENDER_EQUIPMENT_LABELS, type TenderEquipment } from '../src/lib/tender/contract.ts';
import { API_HEADERS, expect, expectAxeCleanInBothThemes, test } from './fixtures.ts';
import { checkLayout } from './layout-check.ts';
import { sandbox, type LedgerSummary } from './sandbox.ts';

type Case = (typeof TENDER_CASES)[keyof typeof TENDER_CASES];
type Body = Case['body'] & {
  dot_number?: string;
  docket_number?: string;
  email?: string;
  phone?: string;
};

/** A population carrier no other spec opens: its profile and searches are not held. */
const UNHELD_DOT = '5003917';

const ANSWER_WORDS = { go: 'Go', call_back: 'Call back first', do_not_tender: 'Do not tender' };

async function fillOffer(page: Page, body: Body) {
  const form = page.getByRole('form', { name: 'The offer' });
  if (body.docket_number) {
    await form.getByLabel('Identified by').selectOption('docket');
    await form.getByRole('textbox', { name: /^Docket/ }).fill(body.docket_number);
  } else {
    await form.getByLabel('Identified by').selectOption('dot');
    await form.getByRole('textbox', { name: 'USDOT number' }).fill(body.dot_number ?? '');
  }
  if (body.phone) await form.getByRole('textbox', { name: 'Phone' }).fill(body.phone);
  if (body.email) await form.getByRole('textbox', { name: 'E-mail' }).fill(body.email);
  if (body.contact_name) {
    await form.getByRole('textbox', { name: 'Contact name (optional)' }).fill(body.contact_name);
  }
  const load = body.load;
  if (!load) return;
  if (load.cargo_value !== undefined) {
    await form.getByRole('textbox', { name: 'Cargo value (USD)' }).fill(String(load.cargo_value));
  }
  for (const cargo of load.cargo_classes ?? []) {
    await form
      .getByRole('checkbox', {
        name: CARGO_CLASS_LABELS[cargo as keyof typeof CARGO_CLASS_LABELS],
        exact: true,
      })
      .check();
  }
  if (load.equipment) {
    await form
      .getByLabel('Equipment', { exact: true })
      .selectOption({ label: TENDER_EQUIPMENT_LABELS[load.equipment as TenderEquipment] });
  }
  if (load.origin_state) await form.getByLabel('Origin state').selectOption(load.origin_state);
  if (load.destination_state) {
    await form.getByLabel('Destination state').selectOption(load.destination_state);
  }
  if (load.hazmat) await form.getByRole('checkbox', { name: 'Hazardous materials' }).check();
}

const answerOf = (page: Page) => page.locator('article[data-answer]');
const pendingRegion = (page: Page) => page.getByRole('region', { name: /^Not checked yet/ });
const confirmButton = (page: Page) => page.getByRole('button', { name: /^Run them, up to \$/ });

/** Submit the form; when searches are pending, confirm their cost; the final answer. */
async function runOffer(page: Page, body: Body) {
  await page.goto('/tender-check');
  await expect(page.getByRole('heading', { level: 1, name: 'Tender check' })).toBeVisible();
  await fillOffer(page, body);
  await page.getByRole('button', { name: 'Check this offer' }).click();
  await expect(answerOf(page)).toBeVisible({ timeout: 15_000 });
  if ((await pendingRegion(page).count()) > 0) {
    await confirmButton(page).click();
    await expect(pendingRegion(page)).toHaveCount(0, { timeout: 15_000 });
  }
  return answerOf(page);
}

function billedTotal(ledger: LedgerSummary): number {
  return ledger.keys.reduce(
    (sum, key) => sum + key.months.reduce((s, month) => s + month.total_usd, 0),
    0,
  );
}

for (const [id, sandboxCase] of Object.entries(TENDER_CASES)) {
  test(`${sandboxCase.title} (${id}): ${ANSWER_WORDS[sandboxCase.answer]}`, async ({ page }) => {
    const answer = await runOffer(page, sandboxCase.body as Body);
    await expect(answer).toHaveAttribute('data-answer', sandboxCase.answer);
    await expect(
      page.getByRole('heading', { level: 2, name: ANSWER_WORDS[sandboxCase.answer] }),
    ).toBeVisible();
    // the reasons the case is about say review or fail, in their group
    for (const rule of sandboxCase.signals) {
      await expect(answer.locator(`[data-rule="${rule}"]`)).toHaveAttribute(
        'data-outcome',
        /^(review|fail)$/,
      );
    }
    if (sandboxCase.answer === 'go') {
      await expect(answer.locator('[data-outcome="review"], [data-outcome="fail"]')).toHaveCount(0);
    } else {
      await expect(page.getByTestId('tender-call-back')).toContainText(/call back/i);
    }
    for (const group of ['Identity', 'Load fit', 'Verdict']) {
      await expect(answer.getByRole('region', { name: new RegExp(`^${group}`) })).toBeVisible();
    }
  });
}

test('the evidence links to where the profile shows it', async ({ page }) => {
  const answer = await runOffer(page, TENDER_CASES.email_changed.body);
  const changed = answer.locator('[data-rule="contact_changed"]');
  await expect(changed).toContainText('2026-11-13');
  const link = changed.getByRole('link', { name: 'show' }).first();
  await expect(link).toHaveAttribute('href', /^\/carriers\/2456781\/contact/);
  await link.click();
  await expect(page).toHaveURL(/\/carriers\/2456781\/contact/);
});

test('a billed search runs only after its cost was confirmed', async ({ page }) => {
  const before = billedTotal(await sandbox.ledger());
  await page.goto(`/tender-check?dot_number=${UNHELD_DOT}`);
  const form = page.getByRole('form', { name: 'The offer' });
  await expect(form.getByRole('textbox', { name: 'USDOT number' })).toHaveValue(UNHELD_DOT);
  await form.getByRole('textbox', { name: 'Phone' }).fill('(555) 201-3344');
  await page.getByRole('button', { name: 'Check this offer' }).click();
  await expect(answerOf(page)).toHaveAttribute('data-answer', 'call_back');
  await expect(pendingRegion(page)).toContainText('Nothing has been billed for them');
  // the sandbox billed nothing: the check used only what was held or free
  expect(billedTotal(await sandbox.ledger())).toBe(before);

  const label = (await confirmButton(page).textContent()) ?? '';
  const shown = Number(/\$(\d+\.\d{2})/.exec(label)?.[1]);
  expect(shown).toBeGreaterThan(0);
  await confirmButton(page).click();
  await expect(pendingRegion(page)).toHaveCount(0, { timeout: 15_000 });
  const after = billedTotal(await sandbox.ledger());
  expect(after).toBeGreaterThan(before);
  expect(after - before).toBeLessThanOrEqual(shown + 1e-9);

  // stored, listed on the Tender checks page filtered by the carrier, and on the profile
  await page.goto(`/tender-checks?dot_number=${UNHELD_DOT}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Tender checks' })).toBeVisible();
  await expect(page.getByText(/^2 checks on USDOT 5003917$/)).toBeVisible();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^tender-checks-5003917-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await file.path()) ?? '', 'utf8');
  const lines = csv.trim().split(/\r\n/);
  expect(lines[0]).toMatch(/^id,checked_at,user,dot_number,legal_name,answer,phone,email,cost_usd/);
  expect(lines).toHaveLength(3);
  expect(lines.slice(1).every((line) => line.includes(',5003917,'))).toBe(true);
  await page.goto(`/carriers/${UNHELD_DOT}/overview`);
  const history = page.getByTestId('tender-check-history');
  await expect(history).toContainText('Tender checks (2)');
});

test('the form says what is wrong, in words, and sends nothing', async ({ page }) => {
  let posted = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/local/tender-checks')) {
      posted += 1;
    }
  });
  await page.goto('/tender-check');
  await page.getByRole('button', { name: 'Check this offer' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Enter the USDOT number or the docket the offer names',
  );
  const form = page.getByRole('form', { name: 'The offer' });
  await form.getByRole('textbox', { name: 'USDOT number' }).fill('568253');
  await form.getByRole('textbox', { name: 'Phone' }).fill('12345');
  await form.getByRole('textbox', { name: 'Cargo value (USD)' }).fill('-5');
  await page.getByRole('button', { name: 'Check this offer' }).click();
  const phone = form.getByRole('textbox', { name: 'Phone' });
  await expect(phone).toHaveAttribute('aria-invalid', 'true');
  await expect(
    page.getByText('The phone must be a 10-digit US or Canadian phone number').first(),
  ).toBeVisible();
  await expect(page.getByText('The cargo value must not be negative').first()).toBeVisible();
  expect(posted).toBe(0);
  await expectAxeCleanInBothThemes(page);
});

test('the answer, the form and the list: axe-clean in both themes, and they fit 390 px', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await runOffer(page, TENDER_CASES.lookalike.body);
  await expect(answerOf(page)).toHaveAttribute('data-answer', 'do_not_tender');
  await expectAxeCleanInBothThemes(page);
  for (const theme of ['light', 'dark'] as const) {
    expect(await checkLayout(page, 390, theme), `answer at 390 px, ${theme}`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/tender-checks');
  await expect(page.getByRole('heading', { level: 1, name: 'Tender checks' })).toBeVisible();
  await expect(page.getByText(/^\d+ checks?$/)).toBeVisible();
  await expectAxeCleanInBothThemes(page);
  for (const theme of ['light', 'dark'] as const) {
    expect(await checkLayout(page, 390, theme), `list at 390 px, ${theme}`).toEqual([]);
  }
});

test('the profile’s Tender check opens the form with the carrier filled in', async ({ page }) => {
  await page.goto('/carriers/568253/overview');
  await page.locator('#main').getByRole('link', { name: 'Tender check', exact: true }).click();
  await expect(page).toHaveURL(/\/tender-check\?dot_number=568253$/);
  await expect(
    page.getByRole('form', { name: 'The offer' }).getByRole('textbox', { name: 'USDOT number' }),
  ).toHaveValue('568253');
});

test('a check attached to a decision is in its record and its print', async ({ page }) => {
  // a clean check on HANSEN (its searches allowed), then a decision recorded with it
  const made = await page.request.post('/api/local/tender-checks', {
    headers: API_HEADERS,
    data: { ...TENDER_CASES.clean.body, max_cost_usd: 10 },
  });
  expect(made.status()).toBe(201);
  const { id, answer } = (await made.json()) as { id: number; answer: string };
  expect(answer).toBe('go');

  await page.goto('/carriers/568253/overview');
  await page.getByRole('button', { name: 'Record a decision' }).click();
  const form = page.getByRole('form', { name: 'Record a decision' });
  await form.getByRole('radio', { name: 'Approved', exact: true }).check();
  await form
    .getByLabel('Tender check made before this decision (optional)')
    .selectOption(String(id));
  await form.getByRole('button', { name: 'Save decision' }).click();
  const recorded = page.getByRole('status').filter({ hasText: 'Decision recorded' });
  await expect(recorded).toBeVisible();
  await recorded.getByRole('link', { name: 'Print view' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Decision #\d+/ })).toBeVisible();
  const attachment = page.getByTestId('tender-attachment');
  await expect(attachment).toContainText(`tender check #${id}: Go, identity passed`);
  await page.emulateMedia({ media: 'print' });
  await expect(attachment).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  // and the check's list row names the decision it is attached to
  await page.goto(`/tender-checks?dot_number=568253`);
  await expect(page.getByRole('row').filter({ hasText: `#${id}` })).toContainText('in decision #');
});

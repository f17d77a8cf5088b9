/**
 * The Network tab's graph against the real proxy and embedded sandbox: the chameleon pair's
 * evidence, a costed expand that bills nothing before the confirm (sandbox ledger) and survives a
 * reload from the cache, and the heavy carrier's 520-carrier network drawn.
 */
import type { Page } from '@playwright/test';
import { expect, expectAxeCleanInBothThemes, test } from './fixtures.ts';
import { sandbox } from './sandbox.ts';

// An expanded carrier is read with `Cache-Control: only-if-cached`; one the proxy does not hold
// answers 504, which Chromium logs as a failed resource.
test.use({ expectedConsoleErrors: /status of 504/ });

async function profileCalls(): Promise<number> {
  const ledger = await sandbox.ledger();
  return ledger.keys
    .flatMap((key) => key.months)
    .flatMap((month) => month.lines)
    .filter((line) => line.kind === 'profile')
    .reduce((total, line) => total + line.calls, 0);
}

function graphOf(page: Page) {
  const region = page.getByRole('region', { name: 'Network graph' });
  return {
    region,
    canvas: region.getByTestId('network-graph'),
    carriers: region.getByRole('listbox', { name: /^Carriers in the graph/ }),
    panel: region.getByRole('region', { name: 'Selected in the graph' }),
  };
}

test('4418207 ↔ 3187452: the out-of-service node and the shared phone, address and VINs', async ({
  page,
}) => {
  await page.goto('/carriers/4418207/network');
  const graph = graphOf(page);
  await expect(graph.canvas).toHaveAttribute('data-graph-state', 'ready');
  const predecessor = graph.carriers.getByRole('option', { name: /DOT 3187452/ });
  await expect(predecessor).toContainText('RAPID ROUTE CARRIERS LLC');
  await expect(predecessor).toContainText('out of service');

  // by keyboard: the list is one tab stop; the arrows move the selection
  await graph.carriers.focus();
  await page.keyboard.press('End');
  await expect(predecessor).toHaveAttribute('aria-selected', 'true');
  await expect(graph.region.getByTestId('graph-announcement')).toContainText(
    'Selected DOT 3187452',
  );

  // each link of the node opens its evidence; the evidence leads back to the node
  const backToNode = () => graph.panel.getByRole('button', { name: /^Select DOT 3187452/ }).click();
  await graph.panel
    .getByRole('button', { name: /^Telephone: Phone …4471, with DOT 4418207/ })
    .click();
  await expect(graph.panel).toContainText('4698124471');
  await expect(graph.panel).toContainText('current since');
  await backToNode();
  await graph.panel
    .getByRole('button', { name: /^Physical address: .*, with DOT 4418207/ })
    .click();
  await expect(graph.panel).toContainText('8800 ELAM RD');
  await backToNode();
  await graph.panel
    .getByRole('button', { name: /^Equipment \(shared VINs\): 4 shared VINs, with DOT 4418207/ })
    .click();
  const vins = graph.panel.getByRole('table', { name: /^Shared VINs: 4/ });
  await expect(vins.getByRole('row', { name: /3AKJHHDR9NX060000/ })).toContainText(
    'FREIGHTLINER Cascadia 2022',
  );
  await expect(vins.getByRole('columnheader')).toContainText([
    'VIN',
    'Make, model, year',
    'Last inspection under DOT 3187452',
    'Last inspection under DOT 4418207',
  ]);
  await expectAxeCleanInBothThemes(page);
});

test('expanding a carrier shows its cost first, bills nothing before the confirm, survives reload', async ({
  page,
}) => {
  await page.goto('/carriers/5000079/network');
  const graph = graphOf(page);
  await expect(graph.canvas).toHaveAttribute('data-drawn-nodes', '3');
  const before = await profileCalls();

  await graph.carriers.getByRole('option', { name: /DOT 5000072/ }).click();
  const expand = graph.panel.getByRole('group', { name: 'Expand DOT 5000072' });
  // sandbox mode: free, with what a live key would pay
  await expect(expand).toContainText('Cost: free');
  await expect(expand).toContainText('would be billed $3.00');
  expect(await profileCalls()).toBe(before);

  await expand.getByRole('button', { name: 'Confirm: expand DOT 5000072 (free)' }).click();
  await expect(page).toHaveURL(/\?expand=5000072$/);
  await expect(graph.canvas).toHaveAttribute('data-drawn-nodes', '6');
  for (const dot of ['5000075', '5000076', '5000077'])
    await expect(
      graph.carriers.getByRole('option', { name: new RegExp(`DOT ${dot}`) }),
    ).toBeVisible();
  expect(await profileCalls()).toBe(before + 1);

  // reload: the expanded carrier comes back from the proxy's cache, with no service call
  await page.reload();
  await expect(graph.canvas).toHaveAttribute('data-drawn-nodes', '6');
  await expect(graph.carriers.getByRole('option', { name: /DOT 5000072/ })).toContainText(
    'expanded',
  );
  expect(await profileCalls()).toBe(before + 1);
});

test('the heavy carrier draws its 520-carrier network', async ({ page }) => {
  await page.goto('/carriers/3999999/network');
  const graph = graphOf(page);
  await expect(graph.canvas).toHaveAttribute('data-drawn-nodes', '521', { timeout: 30_000 });
  await expect(graph.carriers.getByRole('option')).toHaveCount(521);
});

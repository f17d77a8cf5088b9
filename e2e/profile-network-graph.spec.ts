/**
 * The Network tab's graph against the real proxy and embedded sandbox: the chameleon pair's
 * evidence, a costed expand that bills nothing before the confirm (sandbox ledger) and survives a
 * reload from the cache, the heavy carrier's 520-carrier network drawn, and the layout of both as
 * drawn: no carrier or label over another, every label inside the canvas, a small graph centred.
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

interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** What the canvas's test hook `drawnGraph()` reports (GraphCanvas.tsx): rendered pixels. */
interface DrawnGraph {
  width: number;
  height: number;
  zoom: number;
  nodes: { id: string; node: Box; labelled: Box }[];
}

async function drawnGraph(page: Page): Promise<DrawnGraph> {
  return await page
    .getByTestId('network-graph')
    .evaluate((element) => (element as HTMLElement & { drawnGraph(): DrawnGraph }).drawnGraph());
}

function overlap(a: Box, b: Box): boolean {
  return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2;
}

/** The pairs of carriers whose boxes (node and label) overlap: sorted by x, compared while near. */
function overlapping(drawn: DrawnGraph): string[] {
  const nodes = [...drawn.nodes].sort((a, b) => a.labelled.x1 - b.labelled.x1);
  const found: string[] = [];
  nodes.forEach((a, i) => {
    for (const b of nodes.slice(i + 1)) {
      if (b.labelled.x1 >= a.labelled.x2) break;
      if (overlap(a.labelled, b.labelled)) found.push(`${a.id}/${b.id}`);
    }
  });
  return found;
}

/** The carriers whose box (node and label) reaches outside the canvas. */
function outside(drawn: DrawnGraph): string[] {
  return drawn.nodes
    .filter(
      ({ labelled: box }) =>
        box.x1 < 0 || box.y1 < 0 || box.x2 > drawn.width || box.y2 > drawn.height,
    )
    .map((n) => n.id);
}

function unionOf(boxes: Box[]): Box {
  return {
    x1: Math.min(...boxes.map((b) => b.x1)),
    y1: Math.min(...boxes.map((b) => b.y1)),
    x2: Math.max(...boxes.map((b) => b.x2)),
    y2: Math.max(...boxes.map((b) => b.y2)),
  };
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
  // the second hop drawn clear of the first, every label inside the canvas
  const drawn = await drawnGraph(page);
  expect(overlapping(drawn)).toEqual([]);
  expect(outside(drawn)).toEqual([]);
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

test('a window narrowed from 1440 to 390 px takes the graph with it (no sideways page)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/carriers/4418207/network');
  const canvas = graphOf(page).canvas;
  await expect(canvas).toHaveAttribute('data-graph-state', 'ready');
  await page.setViewportSize({ width: 390, height: 844 });
  // the canvas follows its box; the page must not keep the wide canvas's width
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5_000 })
    .toBeLessThanOrEqual(390);
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = await canvas.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  // Cytoscape's own canvases follow the box, and the carriers are drawn again inside it
  await expect
    .poll(async () => (await drawnGraph(page)).width, { timeout: 5_000 })
    .toBeLessThanOrEqual(Math.ceil(box!.width));
  for (const layer of await canvas.locator('canvas').all()) {
    const drawnBox = await layer.boundingBox();
    expect(drawnBox!.x + drawnBox!.width).toBeLessThanOrEqual(390);
  }
  expect(outside(await drawnGraph(page))).toEqual([]);
});

for (const width of [390, 1440]) {
  test(`at ${width} px the chameleon pair is drawn apart, labelled in full, centred and not blown up`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/carriers/4418207/network');
    const canvas = graphOf(page).canvas;
    await expect(canvas).toHaveAttribute('data-drawn-nodes', '2');
    await expect(canvas).toHaveAttribute('data-graph-state', 'ready');
    const drawn = await drawnGraph(page);
    expect(drawn.nodes.map((n) => n.id).sort()).toEqual(['3187452', '4418207']);
    expect(overlapping(drawn)).toEqual([]);
    expect(outside(drawn)).toEqual([]);
    // the two carriers (with their labels) in the middle of the box, within 5 % of its size
    const union = unionOf(drawn.nodes.map((n) => n.labelled));
    expect(Math.abs((union.x1 + union.x2) / 2 - drawn.width / 2)).toBeLessThan(drawn.width * 0.05);
    expect(Math.abs((union.y1 + union.y2) / 2 - drawn.height / 2)).toBeLessThan(
      drawn.height * 0.05,
    );
    // the zoom is capped: the centre node (30 px and its 4 px ring) stays under 48 px wide
    for (const { node } of drawn.nodes) expect(node.x2 - node.x1).toBeLessThan(48);
    // and the box is sized to the drawing, not the 28rem (448 px) of a large network
    expect(drawn.height).toBeLessThanOrEqual(256);
  });

  test(`at ${width} px the 520-carrier network keeps its carriers apart and inside the canvas`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/carriers/3999999/network');
    const canvas = graphOf(page).canvas;
    await expect(canvas).toHaveAttribute('data-drawn-nodes', '521', { timeout: 30_000 });
    const drawn = await drawnGraph(page);
    expect(drawn.nodes).toHaveLength(521);
    expect(overlapping(drawn)).toEqual([]);
    expect(outside(drawn)).toEqual([]);
    // packed closely enough that each carrier is a visible dot, 5 px or more even at 390 px (the
    // circles of 36, 72, … carriers drew them 2.9 px there, 4.4 px at 1440)
    for (const { node } of drawn.nodes) expect(node.x2 - node.x1).toBeGreaterThanOrEqual(5);
    const union = unionOf(drawn.nodes.map((n) => n.labelled));
    expect(Math.abs((union.x1 + union.x2) / 2 - drawn.width / 2)).toBeLessThan(drawn.width * 0.05);
    expect(Math.abs((union.y1 + union.y2) / 2 - drawn.height / 2)).toBeLessThan(
      drawn.height * 0.05,
    );
  });
}

import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { formatCount, formatDate } from '../../../../../lib/format.ts';
import { CURATED_DOTS, sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import { lanesOf } from './model.ts';
import { InspectionsTab } from './Tab.tsx';

const ALL_DOTS = [...new Set([...CURATED_DOTS, '265752'])];

afterEach(cleanup);

function renderTab(dot: string) {
  const { raw, parsed } = sandboxProfile(dot);
  render(<InspectionsTab dot={dot} profile={parsed.value} raw={raw} issues={parsed.issues} />);
  return parsed.value;
}

function historyTable() {
  return screen.getByRole('table', { name: /^Inspections: / });
}

function bodyRows() {
  return within(historyTable())
    .getAllByRole('row')
    .filter((row) => row.hasAttribute('data-row-id'));
}

describe('InspectionsTab against every sandbox carrier', () => {
  it.each(ALL_DOTS)('DOT %s: totals, history table, map region and lanes', (dot) => {
    const profile = renderTab(dot);
    const totals = screen.getByRole('region', { name: 'Inspection totals' });
    expect(within(totals).getByText('Inspections').nextSibling?.textContent).toBe(
      formatCount(profile.inspections_total),
    );
    const history = profile.inspection_history ?? [];
    if (!history.length) {
      expect(screen.getByText(/sent no inspection history/)).toBeTruthy();
      expect(screen.queryByRole('region', { name: 'Map of inspection locations' })).toBeNull();
      return;
    }
    expect(historyTable().getAttribute('data-row-count')).toBe(String(history.length));
    expect(screen.getByRole('table', { name: `Inspections: ${formatCount(history.length)}` }));
    const newest = history
      .map((i) => i.insp_date ?? '')
      .sort()
      .at(-1);
    expect(bodyRows()[0]?.textContent).toContain(formatDate(newest));
    expect(screen.getByText(/Map of inspection locations|Loading map of inspection/)).toBeTruthy();
    const lanes = screen.getByRole('table', { name: 'Inspections per state' });
    const expected = lanesOf(profile).lanes.map((l) => `${l.state}${formatCount(l.inspections)}`);
    const shown = within(lanes)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(shown).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });
});

describe('InspectionsTab interactions (IRONCLAD 2214589)', () => {
  it('filters to out-of-service inspections and by state', async () => {
    const user = userEvent.setup();
    const profile = renderTab('2214589');
    const history = profile.inspection_history ?? [];
    const oos = history.filter((i) => (i.oos_total ?? 0) > 0);
    expect(oos.length).toBeGreaterThan(0);
    await user.click(screen.getByRole('checkbox', { name: 'Out-of-service only' }));
    expect(historyTable().getAttribute('data-row-count')).toBe(String(oos.length));
    expect(historyTable().querySelector('caption')?.textContent).toBe(
      `Inspections: ${formatCount(oos.length)} of ${formatCount(history.length)} match the filters`,
    );
    for (const row of bodyRows()) expect(row.textContent).toContain('Yes (');
    const state = history[0]?.report_state ?? '';
    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), state);
    const both = oos.filter((i) => i.report_state === state);
    expect(historyTable().getAttribute('data-row-count')).toBe(String(both.length));
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(historyTable().getAttribute('data-row-count')).toBe(String(history.length));
  });

  it('sorts by a column header and marks the sort for assistive technology', async () => {
    const user = userEvent.setup();
    const profile = renderTab('2214589');
    const header = screen.getByRole('columnheader', { name: /Violations/ });
    await user.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('descending');
    const most = Math.max(...(profile.inspection_history ?? []).map((i) => i.viol_total ?? 0));
    expect(bodyRows()[0]?.querySelectorAll('td')[4]?.textContent).toBe(formatCount(most));
    await user.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('ascending');
  });

  it('expands an inspection to its violations and units, and selects a row', async () => {
    const user = userEvent.setup();
    const profile = renderTab('2214589');
    const withViolations = [...(profile.inspection_history ?? [])]
      .sort((a, b) => (b.insp_date ?? '').localeCompare(a.insp_date ?? ''))
      .find((i) => i.violations?.length);
    const row = bodyRows().find((r) => r.getAttribute('data-row-id') === withViolations?._id);
    expect(row).toBeDefined();
    const expand = within(row as HTMLElement).getByRole('button', { name: /Violations and units/ });
    await user.click(expand);
    expect(expand.getAttribute('aria-expanded')).toBe('true');
    const violations = screen.getByRole('table', { name: /^Violations \(/ });
    expect(within(violations).getAllByRole('row')).toHaveLength(
      (withViolations?.violations?.length ?? 0) + 1,
    );
    expect(screen.getByRole('table', { name: /^Inspected units/ })).toBeTruthy();
    const select = within(row as HTMLElement).getByRole('button', { name: /show on map/ });
    await user.click(select);
    expect(select.getAttribute('aria-pressed')).toBe('true');
    expect(row?.getAttribute('data-selected')).toBe('true');
  });
});

describe('InspectionsTab for the heavy carrier 3999999', () => {
  // Generating and parsing the 13 MB sandbox profile alone takes seconds on a busy machine.
  it('renders only a window of its thousands of inspections', { timeout: 30_000 }, () => {
    const profile = renderTab('3999999');
    const count = profile.inspection_history?.length ?? 0;
    expect(count).toBeGreaterThanOrEqual(5000);
    expect(historyTable().getAttribute('data-row-count')).toBe(String(count));
    const rendered = bodyRows().length;
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(100);
  });
});

import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MonitoredProfile } from '../../../lib/service/index.ts';
import { changeId } from '../../../lib/monitoring/change-id.ts';
import { profileChanges, type TriageEntry } from '../../../lib/monitoring/inbox.ts';
import { FIRST_OVERSCAN, InboxTable, OVERSCAN } from './InboxTable.tsx';
import type { InboxRow } from './use-inbox.ts';

afterEach(cleanup);

function profile(n: number): MonitoredProfile {
  const dot = String(5_000_000 + n);
  return {
    profileId: `${dot}-MC${n}`,
    dot,
    docket: `MC${n}`,
    records: [
      {
        lastChangedDate: '2026-11-20',
        extra: {},
        changes: [
          { field: 'total_power_units', prior: n, current: n + 1, channel: 'fleet' },
          { field: 'phone', prior: '555-0100', current: `555-${n}`, channel: 'contact' },
        ],
      },
    ],
  };
}

function inboxRows(count: number): InboxRow[] {
  return Array.from({ length: count }, (_, n) => {
    const p = profile(n);
    const changes = profileChanges(p, changeId);
    return { profile: p, changes, allChanges: changes };
  });
}

function renderTable(rows: readonly InboxRow[], triage: ReadonlyMap<string, TriageEntry>) {
  const props = {
    rows,
    names: new Map([['5000000', 'FIRST CARRIER LLC']]),
    triage,
    lastVisit: undefined,
    onTriage: vi.fn(),
    saving: false,
    selected: new Set<string>(),
    onSelect: vi.fn(),
    onUnwatch: vi.fn(),
  };
  render(
    <MemoryRouter>
      <InboxTable {...props} />
    </MemoryRouter>,
  );
  return {
    props,
    table: screen.getByRole('table', { name: 'Watched carriers and their changes' }),
  };
}

/** The profile rows in the DOM (not the header, the spacers or the rows of nested tables). */
function profileRows(table: HTMLElement): HTMLElement[] {
  return within(table)
    .getAllByRole('row')
    .filter((row) => row.closest('table') === table)
    .filter((row) => row.querySelector(':scope > th[scope="row"]') !== null);
}

describe('InboxTable', () => {
  it('renders a window of a 500-row page and announces all of it', () => {
    const { table } = renderTable(inboxRows(500), new Map());
    expect(table.getAttribute('aria-rowcount')).toBe('501');
    const rows = profileRows(table);
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(rows.map((row) => row.getAttribute('aria-rowindex'))).toEqual(
      rows.map((_, i) => String(i + 2)),
    );
    expect(within(rows[0]!).getByText('FIRST CARRIER LLC')).toBeTruthy();
  });

  it('paints the first screenful with few extra rows, and adds the scrolling margin once idle', async () => {
    const { table } = renderTable(inboxRows(500), new Map());
    // without layout: the assumed 675 px box holds 15 rows of the 45 px estimate
    const visible = 15;
    expect(profileRows(table)).toHaveLength(visible + FIRST_OVERSCAN);
    await waitFor(() => expect(profileRows(table)).toHaveLength(visible + OVERSCAN));
  });

  it('links each DOT to the carrier profile', () => {
    const { table } = renderTable(inboxRows(2), new Map());
    const [first] = profileRows(table);
    const link = within(first!).getByRole('link', { name: '5000000' });
    expect(link.getAttribute('href')).toBe('/carriers/5000000/overview');
  });

  it('counts expanded detail rows in the row indexes and shows the triage controls', async () => {
    const user = userEvent.setup();
    const rows = inboxRows(12);
    const reviewed = rows[1]!.allChanges[0]!;
    const triage = new Map([[reviewed.id, { id: reviewed.id, state: 'reviewed' as const }]]);
    const { table, props } = renderTable(rows, triage);
    expect(within(profileRows(table)[1]!).getByText('1 new, 1 reviewed')).toBeTruthy();

    await user.click(within(table).getByRole('button', { name: 'Show changes of 5000000' }));
    expect(table.getAttribute('aria-rowcount')).toBe('14');
    const [first, second] = profileRows(table);
    expect(first?.getAttribute('aria-rowindex')).toBe('2');
    expect(second?.getAttribute('aria-rowindex')).toBe('4');
    const changes = within(table).getByRole('table', { name: 'Changes of 5000000-MC0' });
    expect(changes.closest('tr[aria-rowindex]')?.getAttribute('aria-rowindex')).toBe('3');

    const select = within(changes).getAllByRole('combobox')[0]!;
    await user.selectOptions(select, 'escalated');
    expect(props.onTriage).toHaveBeenCalledWith([rows[0]!.allChanges[0]], 'escalated', '');

    await user.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(table.getAttribute('aria-rowcount')).toBe('25');
    expect(screen.getByRole('button', { name: 'Collapse all' })).toBeTruthy();
  }, 15_000);

  it('reports selection and unwatch with the profile id', async () => {
    const user = userEvent.setup();
    const { table, props } = renderTable(inboxRows(3), new Map());
    await user.click(within(table).getByRole('checkbox', { name: 'Select 5000002-MC2' }));
    expect(props.onSelect).toHaveBeenCalledWith('5000002-MC2', true);
    await user.click(within(table).getByRole('button', { name: /^Unwatch\s*5000001-MC1$/ }));
    expect(props.onUnwatch).toHaveBeenCalledWith(['5000001-MC1']);
  });
});

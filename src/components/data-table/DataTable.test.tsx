import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  DataTable,
  compareCellValues,
  naturalKey,
  sortedOrder,
  type DataTableColumn,
  type DataTableSort,
} from './DataTable.tsx';

const downloads = vi.hoisted(() => [] as Array<{ text: string; name: string }>);
vi.mock('../../lib/download.ts', () => ({
  downloadCsv: (text: string, name: string) => downloads.push({ text, name }),
}));

afterEach(cleanup);

interface Row {
  id: string;
  name: string;
  count?: number;
}

const ROWS: Row[] = [
  { id: 'a', name: 'Beta', count: 10 },
  { id: 'b', name: 'alpha', count: 9 },
  { id: 'c', name: 'Gamma' },
  { id: 'd', name: 'delta', count: 100 },
];

const COLUMNS: DataTableColumn<Row>[] = [
  { id: 'name', header: 'Name', value: (r) => r.name, rowHeader: true },
  { id: 'count', header: 'Count', value: (r) => r.count, align: 'end' },
  {
    id: 'action',
    header: 'Action',
    sortable: false,
    value: () => undefined,
    cell: (r) => <button type="button">Act on {r.name}</button>,
  },
];

function bodyNames(): string[] {
  const [, body] = screen.getAllByRole('rowgroup');
  return within(body!)
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent ?? '');
}

describe('DataTable', () => {
  it('has a caption, column headers and row headers', () => {
    render(<DataTable caption="Things" columns={COLUMNS} data={ROWS} getRowId={(r) => r.id} />);
    expect(screen.getByRole('table', { name: 'Things' })).toBeDefined();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name↕',
      'Count↕',
      'Action',
    ]);
    expect(bodyNames()).toEqual(['Beta', 'alpha', 'Gamma', 'delta']);
  });

  it('sorts by a header, toggling direction, with aria-sort and missing values last', async () => {
    const user = userEvent.setup();
    render(<DataTable caption="Things" columns={COLUMNS} data={ROWS} getRowId={(r) => r.id} />);
    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: 'Action' }).hasAttribute('aria-sort')).toBe(
      false,
    );

    await user.click(within(nameHeader).getByRole('button'));
    expect(nameHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(bodyNames()).toEqual(['alpha', 'Beta', 'delta', 'Gamma']);

    await user.click(within(nameHeader).getByRole('button'));
    expect(nameHeader.getAttribute('aria-sort')).toBe('descending');
    expect(bodyNames()).toEqual(['Gamma', 'delta', 'Beta', 'alpha']);

    const countHeader = screen.getByRole('columnheader', { name: /Count/ });
    await user.click(within(countHeader).getByRole('button'));
    expect(countHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');
    expect(bodyNames()).toEqual(['alpha', 'Beta', 'delta', 'Gamma']);
  });

  it('activates rows by click, Enter and Space, but not through inner controls', async () => {
    const user = userEvent.setup();
    const onRowActivate = vi.fn();
    render(
      <DataTable
        caption="Things"
        columns={COLUMNS}
        data={ROWS}
        getRowId={(r) => r.id}
        onRowActivate={onRowActivate}
      />,
    );
    const row = screen.getByRole('row', { name: /Beta/ });
    await user.click(within(row).getByText('10'));
    expect(onRowActivate).toHaveBeenLastCalledWith(ROWS[0]);
    row.focus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(onRowActivate).toHaveBeenCalledTimes(3);
    await user.click(screen.getByRole('button', { name: 'Act on alpha' }));
    expect(onRowActivate).toHaveBeenCalledTimes(3);
  });

  it('shows the empty state', () => {
    render(
      <DataTable
        caption="None"
        columns={COLUMNS}
        data={[]}
        getRowId={(r) => r.id}
        empty="Nothing here"
      />,
    );
    expect(screen.getByText('Nothing here')).toBeDefined();
  });

  it('pages client-side over the sorted rows', async () => {
    const user = userEvent.setup();
    render(
      <DataTable
        caption="Paged"
        columns={COLUMNS}
        data={ROWS}
        getRowId={(r) => r.id}
        pageSize={3}
        initialSort={{ id: 'name' }}
      />,
    );
    expect(bodyNames()).toEqual(['alpha', 'Beta', 'delta']);
    expect(screen.getByText('Page 1 of 2')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(bodyNames()).toEqual(['Gamma']);
    expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', true);
  });

  it('drives a controlled pager', async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    render(
      <DataTable
        caption="Server"
        columns={COLUMNS}
        data={ROWS}
        getRowId={(r) => r.id}
        pager={{ page: 2, pageCount: 5, onPageChange }}
      />,
    );
    expect(screen.getByText('Page 2 of 5')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onPageChange).toHaveBeenCalledWith(1);
  });

  it('compares numbers numerically and text naturally', () => {
    expect(compareCellValues(9, 10)).toBeLessThan(0);
    expect(compareCellValues('MC9', 'MC10')).toBeLessThan(0);
    expect(compareCellValues('alpha', 'Beta')).toBeLessThan(0);
  });

  it('orders plain text by its natural key exactly as the collator does', () => {
    // a fixed pseudo-random walk over letters of both cases, digits (leading zeros too) and spaces
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = 'aAbBmMzZ 0 1 2 9 00 09 10';
    const text = () =>
      Array.from({ length: 1 + Math.floor(next() * 10) }, () =>
        alphabet.charAt(Math.floor(next() * alphabet.length)),
      ).join('');
    for (let i = 0; i < 20_000; i += 1) {
      const [a, b] = [text(), text()];
      const [keyA, keyB] = [naturalKey(a), naturalKey(b)];
      if (keyA === undefined || keyB === undefined) throw new Error('plain text without a key');
      const byKey = keyA < keyB ? -1 : keyA > keyB ? 1 : 0;
      expect([a, b, byKey]).toEqual([a, b, Math.sign(compareCellValues(a, b))]);
    }
    expect(naturalKey('HANSEN & ADKINS')).toBeUndefined();
    expect(naturalKey('MÉRIDA')).toBeUndefined();
    expect(sortedOrder(['MC10', 'mc9', 'Mc9 B', 'O’HARA', 'MC 1'], false)).toEqual([4, 1, 2, 0, 3]);
  });

  it('orders missing values last in both directions and keeps ties in their first order', () => {
    const values = ['b', undefined, 'a', 'B', 'c', undefined];
    // 'b' and 'B' tie (case does not count): index 0 before 3 whatever the direction
    expect(sortedOrder(values, false)).toEqual([2, 0, 3, 4, 1, 5]);
    expect(sortedOrder(values, true)).toEqual([4, 0, 3, 2, 1, 5]);
    expect(sortedOrder([10, 9, 100], false)).toEqual([1, 0, 2]);
  });

  it('starts again from the first page when the sort changes', async () => {
    const user = userEvent.setup();
    render(
      <DataTable
        caption="Paged"
        columns={COLUMNS}
        data={ROWS}
        getRowId={(r) => r.id}
        pageSize={3}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByText('Page 2 of 2')).toBeDefined();
    await user.click(screen.getByRole('button', { name: /^Name/ }));
    expect(screen.getByText('Page 1 of 2')).toBeDefined();
    expect(rowIds()).toEqual(['b', 'a', 'd']);
  });
});

/** The ids of the body rows, in order. */
function rowIds(): string[] {
  return [...document.querySelectorAll('tr[data-row-id]')].map(
    (row) => row.getAttribute('data-row-id') ?? '',
  );
}

describe('DataTable sorting (the former virtual table cases)', () => {
  interface Dated {
    id: string;
    date?: string;
    n?: number;
    level?: string;
  }
  const DATED: Dated[] = [
    { id: '1', date: '2026-03-01', n: 5, level: '10' },
    { id: '2', n: 10, level: '2' },
    { id: '3', date: '2025-12-31', n: 5, level: '1' },
    { id: '4', date: '2026-11-01' },
  ];
  const columns = (first: 'asc' | 'desc'): DataTableColumn<Dated>[] => [
    { id: 'date', header: 'Date', value: (r) => r.date, firstDirection: first, rowHeader: true },
    { id: 'n', header: 'N', value: (r) => r.n },
    { id: 'level', header: 'Level', value: (r) => r.level },
  ];

  it('sorts strings both ways with missing values last', async () => {
    const user = userEvent.setup();
    render(<DataTable caption="D" columns={columns('asc')} data={DATED} getRowId={(r) => r.id} />);
    await user.click(screen.getByRole('button', { name: /Date/ }));
    expect(rowIds()).toEqual(['3', '1', '4', '2']);
    await user.click(screen.getByRole('button', { name: /Date/ }));
    expect(rowIds()).toEqual(['4', '1', '3', '2']);
  });

  it('sorts numbers numerically and keeps ties in their original order', async () => {
    const user = userEvent.setup();
    render(<DataTable caption="D" columns={columns('asc')} data={DATED} getRowId={(r) => r.id} />);
    await user.click(screen.getByRole('button', { name: /^N/ }));
    expect(rowIds()).toEqual(['1', '3', '2', '4']);
    await user.click(screen.getByRole('button', { name: /^N/ }));
    expect(rowIds()).toEqual(['2', '1', '3', '4']);
  });

  it('compares numeric text naturally', async () => {
    const user = userEvent.setup();
    render(<DataTable caption="D" columns={columns('asc')} data={DATED} getRowId={(r) => r.id} />);
    await user.click(screen.getByRole('button', { name: /Level/ }));
    expect(rowIds()).toEqual(['3', '2', '1', '4']);
  });

  it('starts a column in its first direction and flips it on the next click', async () => {
    const user = userEvent.setup();
    render(<DataTable caption="D" columns={columns('desc')} data={DATED} getRowId={(r) => r.id} />);
    const header = screen.getByRole('columnheader', { name: /Date/ });
    await user.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('descending');
    await user.click(within(header).getByRole('button'));
    expect(header.getAttribute('aria-sort')).toBe('ascending');
  });

  it('leaves the sort to the caller when controlled', async () => {
    const user = userEvent.setup();
    const changes: Array<DataTableSort | undefined> = [];
    const { rerender } = render(
      <DataTable
        caption="D"
        columns={columns('asc')}
        data={DATED}
        getRowId={(r) => r.id}
        sort={{ id: 'n', desc: true }}
        onSortChange={(sort) => changes.push(sort)}
      />,
    );
    expect(rowIds()).toEqual(['2', '1', '3', '4']);
    await user.click(screen.getByRole('button', { name: /Date/ }));
    expect(changes).toEqual([{ id: 'date', desc: false }]);
    // nothing moves until the caller passes the new sort back
    expect(rowIds()).toEqual(['2', '1', '3', '4']);
    rerender(
      <DataTable
        caption="D"
        columns={columns('asc')}
        data={DATED}
        getRowId={(r) => r.id}
        sort={changes[0]}
        onSortChange={(sort) => changes.push(sort)}
      />,
    );
    expect(rowIds()).toEqual(['3', '1', '4', '2']);
  });

  it('renders small tables as plain rows in one row group', () => {
    render(<DataTable caption="D" columns={columns('asc')} data={DATED} getRowId={(r) => r.id} />);
    const table = screen.getByRole('table', { name: 'D' });
    expect(table.querySelectorAll('tbody')).toHaveLength(1);
    expect(table.querySelectorAll('tbody[data-index]')).toHaveLength(0);
  });
});

interface ManyRow {
  id: string;
  count: number;
}

const MANY: ManyRow[] = Array.from({ length: 300 }, (_, i) => ({
  id: `r${i}`,
  count: (i * 7) % 300,
}));
const MANY_COLUMNS: DataTableColumn<ManyRow>[] = [
  { id: 'id', header: 'Id', value: (row) => row.id, sortable: false, rowHeader: true },
  { id: 'count', header: 'Count', value: (row) => row.count },
];

function bodyRows(table: HTMLElement): HTMLElement[] {
  return [...table.querySelectorAll<HTMLElement>('tbody[data-index] > tr[data-row-id]')];
}

describe('DataTable with many rows (virtual)', () => {
  it('renders a window of the rows, sorts them and expands one', async () => {
    const user = userEvent.setup();
    render(
      <DataTable
        caption="Items"
        data={MANY}
        columns={MANY_COLUMNS}
        getRowId={(row) => row.id}
        renderDetail={(row) => <p>Detail of {row.id}</p>}
        expandLabel={(row) => `Details of ${row.id}`}
      />,
    );
    const table = screen.getByRole('table', { name: 'Items' });
    expect(table.getAttribute('data-row-count')).toBe('300');
    const shown = bodyRows(table);
    expect(shown.length).toBeGreaterThan(5);
    expect(shown.length).toBeLessThan(60);
    expect(shown[0]?.getAttribute('data-row-id')).toBe('r0');

    await user.click(within(table).getByRole('button', { name: /Count/ }));
    const counts = bodyRows(table).map((row) => Number(row.lastElementChild?.textContent));
    expect(counts.slice(0, 3)).toEqual([0, 1, 2]);

    const first = bodyRows(table)[0]!.getAttribute('data-row-id')!;
    await user.click(within(table).getByRole('button', { name: `Details of ${first}` }));
    expect(within(table).getByText(`Detail of ${first}`)).toBeTruthy();
  });
});

describe('DataTable CSV export', () => {
  it('saves every row, not only the rendered window, in the order the table is sorted by', async () => {
    downloads.length = 0;
    const user = userEvent.setup();
    render(
      <DataTable
        caption="Items"
        data={MANY}
        columns={MANY_COLUMNS}
        getRowId={(row) => row.id}
        csv={{
          noun: 'items',
          fileName: 'items.csv',
          columns: [
            { header: 'id', value: (row) => row.id },
            { header: 'count', value: (row) => row.count },
          ],
        }}
      />,
    );
    await user.click(screen.getByRole('button', { name: /Count/ }));
    await user.click(screen.getByRole('button', { name: 'Export 300 items as CSV' }));
    expect(downloads).toHaveLength(1);
    const lines = downloads[0]?.text.split('\r\n') ?? [];
    expect(downloads[0]?.name).toBe('items.csv');
    expect(lines).toHaveLength(301);
    expect(lines.slice(0, 3)).toEqual([
      'id,count',
      'r0,0',
      `r${MANY.findIndex((r) => r.count === 1)},1`,
    ]);
  });

  it('has no export button unless asked', () => {
    render(
      <DataTable caption="Items" data={MANY} columns={MANY_COLUMNS} getRowId={(row) => row.id} />,
    );
    expect(screen.queryByRole('button', { name: /as CSV/ })).toBeNull();
  });
});

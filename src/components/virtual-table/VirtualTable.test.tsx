import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualTable, type VirtualColumn } from './VirtualTable.tsx';

const downloads = vi.hoisted(() => [] as Array<{ text: string; name: string }>);
vi.mock('../../lib/download.ts', () => ({
  downloadCsv: (text: string, name: string) => downloads.push({ text, name }),
}));

afterEach(cleanup);

interface Row {
  id: string;
  count: number;
}

const ROWS: Row[] = Array.from({ length: 300 }, (_, i) => ({ id: `r${i}`, count: (i * 7) % 300 }));
const COLUMNS: VirtualColumn<Row>[] = [
  { id: 'id', header: 'Id', cell: (row) => row.id },
  { id: 'count', header: 'Count', cell: (row) => row.count, sortValue: (row) => row.count },
];

function bodyRows(table: HTMLElement): HTMLElement[] {
  return [...table.querySelectorAll<HTMLElement>('tbody[data-index] > tr[data-row-id]')];
}

describe('VirtualTable', () => {
  it('renders a window of the rows, sorts them and expands one', async () => {
    const user = userEvent.setup();
    render(
      <VirtualTable
        caption="Items"
        rows={ROWS}
        columns={COLUMNS}
        rowId={(row) => row.id}
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

describe('VirtualTable CSV export', () => {
  it('saves every row, not only the rendered window, in the order the table is sorted by', async () => {
    downloads.length = 0;
    const user = userEvent.setup();
    render(
      <VirtualTable
        caption="Items"
        rows={ROWS}
        columns={COLUMNS}
        rowId={(row) => row.id}
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
      `r${ROWS.findIndex((r) => r.count === 1)},1`,
    ]);
  });

  it('has no export button unless asked', () => {
    render(<VirtualTable caption="Items" rows={ROWS} columns={COLUMNS} rowId={(row) => row.id} />);
    expect(screen.queryByRole('button', { name: /as CSV/ })).toBeNull();
  });
});

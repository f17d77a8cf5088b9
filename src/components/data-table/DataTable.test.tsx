import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(cleanup);
import { DataTable, compareCellValues, type DataTableColumn } from './DataTable.tsx';

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
});

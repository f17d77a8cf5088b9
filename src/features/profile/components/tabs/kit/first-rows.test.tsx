/** `useFirstRowsFirst`: a page table's first rows in its first render, every row right after. */
import { renderHook, waitFor } from '@testing-library/react';
import { expect, it } from 'vitest';
import { FIRST_ROWS, useFirstRowsFirst } from './view-table.tsx';

const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

function renderRows(initial: readonly number[]) {
  const drawn: (readonly number[])[] = [];
  const hook = renderHook(
    ({ rows }: { rows: readonly number[] }) => {
      const shown = useFirstRowsFirst(rows);
      drawn.push(shown);
      return shown;
    },
    { initialProps: { rows: initial } },
  );
  return { drawn, ...hook };
}

it('draws the first rows of a page first, then all of them', async () => {
  const rows = page(0, 100);
  const { drawn, result } = renderRows(rows);
  expect(drawn[0]).toEqual(rows.slice(0, FIRST_ROWS));
  await waitFor(() => expect(result.current).toBe(rows));
});

it('draws a short page whole at once', () => {
  const rows = page(0, FIRST_ROWS);
  const { drawn } = renderRows(rows);
  expect(drawn[0]).toBe(rows);
});

it('shows each later page whole from its first render', async () => {
  const { drawn, result, rerender } = renderRows(page(0, 100));
  await waitFor(() => expect(result.current).toHaveLength(100));
  const next = page(100, 100);
  const before = drawn.length;
  rerender({ rows: next });
  expect(drawn.slice(before)).toEqual([next]);
});

import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-client.ts';
import { QueryState, type QueryLike } from './QueryState.tsx';

function query(over: Partial<QueryLike<string[]>>): QueryLike<string[]> {
  return {
    data: undefined,
    error: null,
    isError: false,
    isFetching: false,
    errorUpdatedAt: 0,
    refetch: vi.fn(),
    ...over,
  };
}

afterEach(cleanup);

const list = (data: string[]) => <p>{data.join(', ')}</p>;

describe('QueryState', () => {
  it('announces the loading, then shows the data', () => {
    const { rerender } = render(
      <QueryState query={query({})} what="the jobs">
        {list}
      </QueryState>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading the jobs…');
    rerender(
      <QueryState query={query({ data: ['a', 'b'] })} what="the jobs">
        {list}
      </QueryState>,
    );
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('a, b')).toBeTruthy();
  });

  it('shows a failure with its message and retries on request', async () => {
    const refetch = vi.fn();
    const error = new ApiError({ kind: 'http', status: 500, message: 'The jobs store failed' });
    render(
      <QueryState query={query({ isError: true, error, refetch })} what="the jobs">
        {list}
      </QueryState>,
    );
    expect(screen.getByRole('alert').textContent).toContain('the jobs');
    expect(screen.queryByText('a, b')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(refetch).toHaveBeenCalledOnce();
  });
});

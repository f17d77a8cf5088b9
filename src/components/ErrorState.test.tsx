import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/api-client.ts';
import { ErrorState, describeError } from './ErrorState.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function httpError(status: number, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) {
  return new ApiError({ kind: 'http', status, message: `answered ${status}`, ...extra });
}

function alertText(): string {
  return screen.getByRole('alert').textContent ?? '';
}

describe('ErrorState', () => {
  it('shows the proxy hint of a 400 next to the message, without a retry', () => {
    const onRetry = vi.fn();
    render(
      <ErrorState
        error={httpError(400, { hint: 'A DOT number has 1 to 8 digits.' })}
        onRetry={onRetry}
      />,
    );
    expect(alertText()).toContain('The request was not accepted');
    expect(alertText()).toContain('A DOT number has 1 to 8 digits.');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('calls a 401 and a rejected upstream key a key problem for the operator', () => {
    const { unmount } = render(<ErrorState error={httpError(401)} />);
    expect(alertText()).toContain('rejected the API key');
    expect(alertText()).toContain('tell the operator');
    unmount();
    render(<ErrorState error={httpError(502, { code: 'upstream_key_rejected' })} />);
    expect(alertText()).toContain('rejected the API key');
  });

  it("reads the proxy's role refusal (403 forbidden_role) as what it is, not a key problem", () => {
    render(
      <ErrorState
        error={httpError(403, {
          code: 'forbidden_role',
          message: 'This needs the admin role (you are an analyst)',
          hint: 'Ask an admin to give your account the admin role.',
        })}
      />,
    );
    expect(alertText()).toContain('Your role does not allow this');
    expect(alertText()).toContain('This needs the admin role (you are an analyst)');
    expect(alertText()).toContain('Ask an admin to give your account the admin role.');
    expect(alertText()).not.toContain('API key');
  });

  it('tells a spent budget from a payment problem on 402', () => {
    expect(describeError(httpError(402, { code: 'budget_exceeded' })).title).toBe(
      'The spending budget is used up',
    );
    expect(describeError(httpError(402)).title).toBe('Payment required');
  });

  it('shows 404 as not found and offers no retry', () => {
    render(<ErrorState error={httpError(404)} onRetry={() => undefined} />);
    expect(alertText()).toContain('Not found');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers a retry for 5xx and network failures', async () => {
    const onRetry = vi.fn();
    const { unmount } = render(<ErrorState error={httpError(503)} onRetry={onRetry} />);
    expect(alertText()).toContain('The data service is unavailable');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    unmount();
    render(
      <ErrorState
        error={new ApiError({ kind: 'network', status: 0, message: 'Could not reach the server.' })}
        onRetry={onRetry}
      />,
    );
    expect(alertText()).toContain('Cannot reach the server — retrying');
    expect(alertText()).toContain('loads again by itself');
    await userEvent.click(screen.getByRole('button', { name: 'Try now' }));
    expect(onRetry).toHaveBeenCalledTimes(2);
  });

  it('calls a connection that dropped mid-answer what it is, not "cannot reach"', () => {
    const dropped = new ApiError({
      kind: 'network',
      status: 200,
      message: 'The connection dropped.',
    });
    expect(describeError(dropped).title).toBe('The connection dropped');
  });

  it('counts a 429 down from Retry-After and retries once at zero', () => {
    vi.useFakeTimers();
    const onRetry = vi.fn();
    render(<ErrorState error={httpError(429, { retryAfter: 3 })} onRetry={onRetry} />);
    expect(alertText()).toContain('Rate limited');
    expect(alertText()).toContain('Trying again automatically in 3 s.');
    act(() => vi.advanceTimersByTime(1_000));
    expect(alertText()).toContain('in 2 s.');
    act(() => vi.advanceTimersByTime(1_000));
    expect(alertText()).toContain('in 1 s.');
    expect(onRetry).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1_000));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(alertText()).not.toContain('Trying again automatically');
    act(() => vi.advanceTimersByTime(10_000));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it("counts down the proxy's open circuit (503 upstream_unavailable) and retries at zero", () => {
    vi.useFakeTimers();
    const onRetry = vi.fn();
    render(
      <ErrorState
        error={httpError(503, { code: 'upstream_unavailable', retryAfter: 2 })}
        onRetry={onRetry}
      />,
    );
    expect(alertText()).toContain('The data service is unavailable');
    expect(alertText()).toContain('Trying again automatically in 2 s.');
    act(() => vi.advanceTimersByTime(1_000));
    expect(onRetry).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1_000));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['coordination_unavailable', 'cannot reach its shared coordination service'],
    ['storage_unavailable', 'cannot reach its database'],
  ])(
    "names the dashboard's own outage (503 %s), not the data service's, and retries when told",
    (code, title) => {
      vi.useFakeTimers();
      const onRetry = vi.fn();
      render(
        <ErrorState
          error={httpError(503, {
            code,
            retryAfter: 1,
            hint: 'Retry after the time in Retry-After.',
          })}
          onRetry={onRetry}
        />,
      );
      expect(alertText()).toContain(title);
      expect(alertText()).not.toContain('The data service is unavailable');
      expect(alertText()).toContain('Retry after the time in Retry-After.');
      expect(alertText()).toContain('Trying again automatically in 1 s.');
      act(() => vi.advanceTimersByTime(1_000));
      expect(onRetry).toHaveBeenCalledTimes(1);
    },
  );

  it('shows no countdown for an ordinary 503', () => {
    render(<ErrorState error={httpError(503, { retryAfter: 2 })} onRetry={() => undefined} />);
    expect(alertText()).not.toContain('Trying again automatically');
  });

  it('lets the user retry a 429 before the countdown ends', async () => {
    const onRetry = vi.fn();
    render(<ErrorState error={httpError(429, { retryAfter: 60 })} onRetry={onRetry} />);
    await userEvent.click(screen.getByRole('button', { name: 'Try now' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('says a retry is under way instead of offering another', () => {
    render(<ErrorState error={httpError(503)} onRetry={() => undefined} retrying />);
    expect(screen.getByRole('status').textContent).toBe('Trying again…');
    expect(screen.queryByRole('button')).toBeNull();
  });
});

import { cleanup, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageReloader } from '../lib/chunk-reload.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';

const RAW = 'Failed to fetch dynamically imported module: http://127.0.0.1/assets/SafetyTab-x.js';

let reload: ReturnType<typeof vi.fn<() => void>>;
const original = pageReloader.reload;
beforeEach(() => {
  window.sessionStorage.clear();
  reload = vi.fn<() => void>();
  pageReloader.reload = reload;
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  pageReloader.reload = original;
  vi.restoreAllMocks();
});

function renderLazyTab() {
  const Tab = lazy(() => Promise.reject(new TypeError(RAW)));
  render(
    <ErrorBoundary label="The Safety tab">
      <Suspense fallback={<p>loading</p>}>
        <Tab />
      </Suspense>
    </ErrorBoundary>,
  );
}

describe('ErrorBoundary and a tab whose code cannot be downloaded', () => {
  it('reloads the page once and says what happened in plain words', async () => {
    renderLazyTab();
    const alert = await screen.findByRole('alert');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(alert.textContent).toContain('The Safety tab could not be downloaded.');
    expect(alert.textContent).toContain('Reload the page to continue.');
    expect(alert.textContent).not.toContain('Failed to fetch dynamically imported module');
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeTruthy();
  });

  it('does not reload again right after a reload (no loop)', async () => {
    renderLazyTab();
    await screen.findByRole('alert');
    cleanup();
    renderLazyTab();
    await screen.findByRole('alert');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('keeps showing other render errors with their message and "Try again"', () => {
    function Boom(): never {
      throw new Error('unreadable field');
    }
    render(
      <ErrorBoundary label="The verdict">
        <Boom />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('unreadable field');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });

  it('renders the fallback instead of a message when given one', () => {
    function Boom(): never {
      throw new Error('badge broke');
    }
    render(
      <ErrorBoundary label="The badge" fallback={<span>quiet</span>}>
        <Boom />
      </ErrorBoundary>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('quiet')).toBeTruthy();
  });
});

import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTypingDebounce } from './use-typing-debounce.ts';

const DELAY = 30;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function setup(known: readonly string[] = []) {
  const isKnown = (value: string) => known.includes(value);
  return renderHook(() => useTypingDebounce(DELAY, isKnown));
}

function type(hook: ReturnType<typeof setup>, value: string, afterMs: number) {
  act(() => {
    vi.advanceTimersByTime(afterMs);
    hook.result.current[1](value);
  });
}

describe('useTypingDebounce', () => {
  it('passes a keystroke after a pause on at once', () => {
    const hook = setup();
    type(hook, 'ha', 1_000);
    expect(hook.result.current[0]).toBe('ha');
    type(hook, 'han', 150);
    expect(hook.result.current[0]).toBe('han');
  });

  it('passes only the last keystroke of a fast burst on, once the burst is over', () => {
    const hook = setup();
    type(hook, 'h', 1_000);
    type(hook, 'ha', 5);
    type(hook, 'han', 5);
    type(hook, 'hans', 5);
    expect(hook.result.current[0]).toBe('h');
    act(() => vi.advanceTimersByTime(DELAY - 1));
    expect(hook.result.current[0]).toBe('h');
    act(() => vi.advanceTimersByTime(1));
    expect(hook.result.current[0]).toBe('hans');
  });

  it('passes an already answered value on at once, even inside a burst', () => {
    const hook = setup(['han']);
    type(hook, 'hans', 1_000);
    type(hook, 'han', 5);
    expect(hook.result.current[0]).toBe('han');
    act(() => vi.advanceTimersByTime(DELAY));
    expect(hook.result.current[0]).toBe('han');
  });

  it('drops a pending value when the component goes away', () => {
    const hook = setup();
    type(hook, 'h', 1_000);
    type(hook, 'ha', 5);
    hook.unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});

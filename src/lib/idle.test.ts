import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterPaint, whenIdle } from './idle.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('whenIdle', () => {
  it('runs the task after a short delay where the browser cannot say when it idles', () => {
    vi.useFakeTimers();
    const task = vi.fn();
    whenIdle(task);
    vi.advanceTimersByTime(199);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('never runs a cancelled task (the delay fallback)', () => {
    vi.useFakeTimers();
    const task = vi.fn();
    const cancel = whenIdle(task);
    cancel();
    vi.advanceTimersByTime(10_000);
    expect(task).not.toHaveBeenCalled();
  });

  it('asks requestIdleCallback with a deadline, and cancels through cancelIdleCallback', () => {
    const pending = new Map<number, () => void>();
    let next = 0;
    const request = vi.fn((callback: () => void, _options?: { timeout: number }) => {
      next += 1;
      pending.set(next, callback);
      return next;
    });
    vi.stubGlobal('requestIdleCallback', request);
    vi.stubGlobal('cancelIdleCallback', (handle: number) => pending.delete(handle));
    const kept = vi.fn();
    const dropped = vi.fn();
    whenIdle(kept);
    whenIdle(dropped)();
    expect(request.mock.calls.map((call) => call[1])).toEqual([
      { timeout: 2000 },
      { timeout: 2000 },
    ]);
    for (const callback of pending.values()) callback();
    expect(kept).toHaveBeenCalledTimes(1);
    expect(dropped).not.toHaveBeenCalled();
  });
});

describe('afterPaint', () => {
  it('runs the task in a task after the next animation frame, not in the frame', () => {
    vi.useFakeTimers();
    const frames: (() => void)[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', vi.fn());
    const task = vi.fn();
    afterPaint(task);
    vi.advanceTimersByTime(100);
    expect(task).not.toHaveBeenCalled();
    expect(frames).toHaveLength(1);
    frames[0]?.();
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('never runs a task cancelled before or after its frame', () => {
    vi.useFakeTimers();
    const frames = new Map<number, () => void>();
    let next = 0;
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => {
      next += 1;
      frames.set(next, callback);
      return next;
    });
    vi.stubGlobal('cancelAnimationFrame', (handle: number) => frames.delete(handle));
    const early = vi.fn();
    const late = vi.fn();
    afterPaint(early)();
    const cancelLate = afterPaint(late);
    for (const callback of frames.values()) callback();
    cancelLate();
    vi.advanceTimersByTime(1_000);
    expect(early).not.toHaveBeenCalled();
    expect(late).not.toHaveBeenCalled();
  });
});

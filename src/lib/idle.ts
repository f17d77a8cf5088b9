/** Idle-time work: what can wait until the browser has painted and has nothing else to do. */

/** At the latest this long after being asked, the task runs even if the browser never idles. */
const IDLE_TIMEOUT_MS = 2_000;
/** Where `requestIdleCallback` is missing (Safari before 18, jsdom): a short delay instead. */
const FALLBACK_DELAY_MS = 200;

/**
 * Runs `task` once the browser is idle (or after a short delay where it cannot say). Returns a
 * function that cancels it: a component asking from an effect cancels in the effect's cleanup, so
 * nothing runs for a component that has gone (or, in tests, after the page's window has).
 */
export function whenIdle(task: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = window.setTimeout(task, FALLBACK_DELAY_MS);
  return () => window.clearTimeout(timer);
}

/**
 * Runs `task` right after the browser has painted the current changes (the next animation frame,
 * then a task): for work the page needs soon but not in the frame being drawn. Where there are no
 * animation frames (jsdom), after a zero delay. Returns a function that cancels it.
 */
export function afterPaint(task: () => void): () => void {
  let timer: number | undefined;
  if (typeof window.requestAnimationFrame !== 'function') {
    timer = window.setTimeout(task, 0);
    return () => window.clearTimeout(timer);
  }
  const frame = window.requestAnimationFrame(() => {
    timer = window.setTimeout(task, 0);
  });
  return () => {
    window.cancelAnimationFrame(frame);
    if (timer !== undefined) window.clearTimeout(timer);
  };
}

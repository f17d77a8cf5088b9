import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The value to ask the service about while someone types, and the setter for each keystroke.
 *
 * A keystroke that follows a pause of at least `delayMs` is passed on at once (leading edge): at
 * human typing speed (a key every 100–300 ms) a trailing debounce would send the same request, only
 * `delayMs` later. Inside a burst of faster keystrokes (a fast typist, key repeat) only the last one
 * is passed on, `delayMs` after it (trailing edge). A value `isKnown` says is answered already (a
 * cached prefix, e.g. after a backspace) is passed on at once: it costs no request.
 */
export function useTypingDebounce(
  delayMs: number,
  isKnown: (value: string) => boolean,
): [settled: string, onType: (value: string) => void] {
  const [settled, setSettled] = useState('');
  const lastKeyAt = useRef(Number.NEGATIVE_INFINITY);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const onType = useCallback(
    (value: string) => {
      const now = performance.now();
      const inBurst = now - lastKeyAt.current < delayMs;
      lastKeyAt.current = now;
      clearTimeout(timer.current);
      if (!inBurst || isKnown(value)) setSettled(value);
      else timer.current = setTimeout(() => setSettled(value), delayMs);
    },
    [delayMs, isKnown],
  );
  return [settled, onType];
}

/**
 * jsdom has no `matchMedia`. This installs one whose `prefers-color-scheme: dark` answer the test
 * controls, and which notifies listeners when the test flips it.
 */
export function installColorSchemeMedia(initiallyDark: boolean) {
  let dark = initiallyDark;
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const original = window.matchMedia;

  window.matchMedia = (query: string): MediaQueryList => {
    const isDarkQuery = query.includes('prefers-color-scheme: dark');
    return {
      media: query,
      get matches() {
        return isDarkQuery && dark;
      },
      onchange: null,
      addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) =>
        listeners.add(listener),
      removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) =>
        listeners.delete(listener),
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    } as MediaQueryList;
  };

  return {
    setDark(next: boolean) {
      dark = next;
      for (const listener of listeners) listener({ matches: next } as MediaQueryListEvent);
    },
    restore() {
      window.matchMedia = original;
    },
  };
}

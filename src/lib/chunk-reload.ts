/**
 * A lazily loaded part of the app (a route, a profile tab, the navigation badge) whose code cannot be
 * downloaded: the connection dropped, or a new build replaced the file names while the page was
 * open. Reloading the page fetches the current files, so the first failure reloads once; a second
 * failure shortly after (sessionStorage remembers the reload, so it never loops) shows a readable
 * message instead of the browser's "Failed to fetch dynamically imported module …".
 */

const RELOADED_AT_KEY = 'carrier-desk.chunk-reload-at';
/** A failure within this long after the last automatic reload is shown, not reloaded again. */
const RELOAD_GUARD_MS = 60_000;

/** What the user reads when a part of the app could not be downloaded. */
export const CHUNK_LOAD_ADVICE =
  'The connection may have dropped, or a new version of carrier-desk was installed. Reload the page to continue.';

/** The browsers' wordings for a failed `import()` of a script or a module preload (Vite). */
const CHUNK_FAILURES = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
  /Loading (CSS )?chunk \S+ failed/i,
];

/** A part of the app's code could not be downloaded, after the one automatic reload. */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  constructor(cause: unknown) {
    super(`A part of the app could not be downloaded. ${CHUNK_LOAD_ADVICE}`, { cause });
  }
}

export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkLoadError) return true;
  if (!(error instanceof Error)) return false;
  return CHUNK_FAILURES.some((pattern) => pattern.test(error.message));
}

/** How the page is reloaded; replaced in unit tests (jsdom cannot navigate). */
export const pageReloader = { reload: (): void => window.location.reload() };

/**
 * Reloads the page for a failed chunk, unless it already did so in the last minute or session
 * storage is unavailable (then it cannot know, and does not risk a loop). True when reloading.
 */
export function reloadOnceForChunk(now: number = Date.now()): boolean {
  try {
    const last = Number(window.sessionStorage.getItem(RELOADED_AT_KEY) ?? Number.NaN);
    if (Number.isFinite(last) && now - last >= 0 && now - last < RELOAD_GUARD_MS) return false;
    window.sessionStorage.setItem(RELOADED_AT_KEY, String(now));
  } catch {
    return false;
  }
  pageReloader.reload();
  return true;
}

/**
 * `import()` for lazy routes and components: a chunk that cannot be downloaded reloads the page
 * once (the promise then stays pending while the page goes away), otherwise it rejects with a
 * `ChunkLoadError` whose message a person can act on. Other errors pass through.
 */
export async function importOrReload<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isChunkLoadError(error)) throw error;
    if (reloadOnceForChunk()) return new Promise<T>(() => undefined);
    throw new ChunkLoadError(error);
  }
}

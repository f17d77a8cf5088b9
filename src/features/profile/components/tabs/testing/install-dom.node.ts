/**
 * Test setup for tab tests that need both the real sandbox dataset and a DOM. The dataset must load
 * under Node's module transform (the web transform rewrites its `new URL(..., import.meta.url)`),
 * so these files run in the node environment and install vitest's jsdom globals here. Import this
 * module first: React DOM decides at import time whether a DOM exists.
 */
import { afterAll } from 'vitest';
import { builtinEnvironments } from 'vitest/runtime';

const dom = await builtinEnvironments.jsdom.setup(globalThis, {
  jsdom: { url: 'http://localhost:3000/' },
});
afterAll(() => dom.teardown(globalThis));

/**
 * zod compiles its object parsers with `new Function` when the page allows it, and probes that by
 * trying once. Our CSP forbids eval, so the probe is reported as a CSP violation (Lighthouse's
 * "Issues" audit, the browser console). Jitless mode skips both the probe and the compilation.
 * Imported first by `main.tsx`: the setting is read when a schema is built, and every schema lives
 * in a chunk that loads later.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });

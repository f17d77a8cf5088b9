/**
 * The sandbox as the proxy sees it: the one entry the proxy (and its tests) may import from
 * server-proxy/src/sandbox. Everything else in the sandbox is its own business; what both servers
 * share lives in the service contract (src/lib/service) or the server kit (server-proxy/src/http).
 * ESLint enforces the boundary (eslint.config.js).
 */
export { buildSandboxApp, type SandboxApp } from './app.ts';

/** For the proxy's tests: the DOT of population row `row` (to find carriers of a given shape). */
export { dotOfRow } from './data/population-identity.ts';

/** For the proxy's tests (and the bench): the tender-check cases and their designed answers. */
export { TENDER_CASES } from './data/tender-cases.ts';

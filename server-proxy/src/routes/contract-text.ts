/**
 * The contract check (http/contract-route.ts) for the answers a route sends as JSON text it made
 * itself: the monitoring view's and the profile views' bodies (sent as text, a large one compressed
 * off the event loop), and the refusals of the service they pass on as they came. The hook that
 * checks the answers a contract route returns never sees text, nor a compressed body.
 */
import type { RouteContract } from '../../../src/lib/api/route-contract.ts';
import { assertAnswer, contractCheckOn } from '../http/contract-route.ts';

/** Whether this process checks answers against their contracts (tests), read once. */
let checking: boolean | undefined;

/** Under the contract check: `text` (JSON) checked against `contract` for `status`, or a throw. */
export function checkText(contract: RouteContract, status: number, text: string): void {
  checking ??= contractCheckOn();
  if (checking) assertAnswer(contract, status, JSON.parse(text) as unknown);
}

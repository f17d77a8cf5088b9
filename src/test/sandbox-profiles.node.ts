/**
 * Sandbox carriers for SPA unit tests: the real sandbox dataset (curated carriers, the live-shape
 * carrier 265752, the heavy carrier on demand) run through the shared parser, exactly as a view gets
 * them from the proxy. Only `*.node.test.ts(x)` files import this (they typecheck with Node types).
 */
import { createDataset } from '../../server-proxy/src/sandbox/data/index.ts';
import { parseProfile, type Parsed, type Profile } from '../lib/service/index.ts';

const dataset = createDataset({ seed: 1, population: 0 });

export const CURATED_DOTS: readonly string[] = dataset.curatedDots;

/** The wire profile of a sandbox carrier and its parsed form; throws for an unknown DOT. */
export function sandboxProfile(dot: string): { raw: unknown; parsed: Parsed<Profile> } {
  const raw = dataset.getProfile(dot);
  if (!raw) throw new Error(`no sandbox carrier with DOT ${dot}`);
  return { raw, parsed: parseProfile(raw) };
}

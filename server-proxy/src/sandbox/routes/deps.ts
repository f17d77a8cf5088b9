import type { MonitoringModule, SandboxContext } from '../context.ts';
import type { WireProfile } from '../data/types.ts';

/** What the service routes need: the context and the monitoring module (for overrides). */
export interface ServiceDeps {
  ctx: SandboxContext;
  monitoring: MonitoringModule;
}

/** Own enumerable fields of a profile (wire profiles are plain objects). */
function fieldCount(profile: WireProfile): number {
  let n = 0;
  for (const key in profile) if (Object.hasOwn(profile, key)) n += 1;
  return n;
}

/** Same fields with the same values (by identity), hence the same JSON. */
function sameFields(merged: WireProfile, generated: WireProfile): boolean {
  for (const key in generated) {
    if (!Object.hasOwn(generated, key)) continue;
    if (!Object.hasOwn(merged, key) || merged[key] !== generated[key]) return false;
  }
  return fieldCount(merged) === fieldCount(generated);
}

/**
 * The profile of `dot` as served right now: generated data with monitoring overrides merged. When
 * no override changes anything, the dataset's own object is returned, so its serialised JSON can be
 * reused (`profileJson`).
 */
export function servedProfile(deps: ServiceDeps, dot: string): WireProfile | undefined {
  const profile = deps.ctx.dataset.getProfile(dot);
  if (!profile) return undefined;
  const merged = deps.monitoring.applyOverrides(dot, profile);
  return merged === profile || sameFields(merged, profile) ? profile : merged;
}

const ENVELOPE_HEAD = '{"items":[';
const ENVELOPE_TAIL = '],"total_count":1}';

/**
 * The one-item page of each profile object served so far, as JSON text, kept as long as the object
 * lives: the dataset holds its curated and heavy profiles and a small LRU of population profiles, so
 * a repeat lookup (and every lookup of the 13 MB heavy profile) is neither serialised nor
 * concatenated again; the same flat string is sent each time.
 */
const onePage = new WeakMap<WireProfile, string>();

function onePageJson(profile: WireProfile): string {
  let json = onePage.get(profile);
  if (json === undefined) {
    json = `${ENVELOPE_HEAD}${JSON.stringify(profile)}${ENVELOPE_TAIL}`;
    onePage.set(profile, json);
  }
  return json;
}

/** `JSON.stringify(profile)`, cut (without a copy) from its cached one-item page. */
export function profileJson(profile: WireProfile): string {
  const page = onePageJson(profile);
  return page.slice(ENVELOPE_HEAD.length, page.length - ENVELOPE_TAIL.length);
}

/** Exactly `JSON.stringify({ items, total_count })`, from the items' cached JSON. */
export function envelopeJson(items: readonly WireProfile[], totalCount: number): string {
  const [only] = items;
  if (only !== undefined && items.length === 1 && totalCount === 1) return onePageJson(only);
  return `${ENVELOPE_HEAD}${items.map(profileJson).join(',')}],"total_count":${totalCount}}`;
}

/** Active USDOT registration and not out of service. */
export function isOperating(profile: WireProfile): boolean {
  const status = String(profile.usdot_status ?? '').toUpperCase();
  const oos = profile.out_of_service_flag;
  return status === 'ACTIVE' && oos !== true && oos !== 'true' && oos !== 'Y';
}

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

const ENVELOPE_HEAD = Buffer.from('{"items":[');
const ENVELOPE_TAIL = Buffer.from('],"total_count":1}');

/**
 * The one-item page of each profile object served so far, as UTF-8 bytes, kept as long as the
 * object lives: the dataset holds its curated and heavy profiles and a small LRU of population
 * profiles, so a repeat lookup (and every lookup of the 13 MB heavy profile) is neither serialised
 * nor encoded again: the same bytes are written each time. Bytes, not text: a string body is
 * encoded into a new buffer on every send, 13.5 MB of garbage per heavy lookup.
 */
const onePage = new WeakMap<WireProfile, Buffer>();

function onePageBytes(profile: WireProfile): Buffer {
  let bytes = onePage.get(profile);
  if (bytes === undefined) {
    // Encoded straight into a buffer of the page's size: encoding first and then concatenating
    // held two 13.5 MB copies of the heavy profile at once.
    const json = JSON.stringify(profile);
    const size = Buffer.byteLength(json);
    bytes = Buffer.allocUnsafeSlow(ENVELOPE_HEAD.length + size + ENVELOPE_TAIL.length);
    ENVELOPE_HEAD.copy(bytes, 0);
    bytes.write(json, ENVELOPE_HEAD.length, 'utf8');
    ENVELOPE_TAIL.copy(bytes, ENVELOPE_HEAD.length + size);
    onePage.set(profile, bytes);
  }
  return bytes;
}

/** `JSON.stringify(profile)` as UTF-8, a view (no copy) into its cached one-item page. */
export function profileJson(profile: WireProfile): Buffer {
  const page = onePageBytes(profile);
  return page.subarray(ENVELOPE_HEAD.length, page.length - ENVELOPE_TAIL.length);
}

/** Exactly `JSON.stringify({ items, total_count })` as UTF-8, from the items' cached bytes. */
export function envelopeJson(items: readonly WireProfile[], totalCount: number): Buffer {
  const [only] = items;
  if (only !== undefined && items.length === 1 && totalCount === 1) return onePageBytes(only);
  const parts: Buffer[] = [ENVELOPE_HEAD];
  items.forEach((item, index) => {
    if (index > 0) parts.push(COMMA);
    parts.push(profileJson(item));
  });
  parts.push(Buffer.from(`],"total_count":${totalCount}}`));
  return Buffer.concat(parts);
}

const COMMA = Buffer.from(',');

/** Active USDOT registration and not out of service. */
export function isOperating(profile: WireProfile): boolean {
  const status = String(profile.usdot_status ?? '').toUpperCase();
  const oos = profile.out_of_service_flag;
  return status === 'ACTIVE' && oos !== true && oos !== 'true' && oos !== 'Y';
}

/**
 * Test helpers: the live-shape fixtures as fresh JSON values, and a converter to the shape the spec
 * describes (envelope, objects instead of one-element arrays, spec spellings, omitted empties).
 */
import autocomplete from '../../../fixtures/live-shapes/autocomplete.json';
import error404 from '../../../fixtures/live-shapes/error_404.json';
import monitoringAdd207 from '../../../fixtures/live-shapes/monitoring_add_207.json';
import monitoringList from '../../../fixtures/live-shapes/monitoring_list.json';
import profile from '../../../fixtures/live-shapes/profile_265752.json';
import profileLite from '../../../fixtures/live-shapes/profile_lite_265752.json';
import { hasContent, isPlainObject } from './kinds.ts';

const FIXTURES = {
  autocomplete,
  error_404: error404,
  monitoring_add_207: monitoringAdd207,
  monitoring_list: monitoringList,
  profile_265752: profile,
  profile_lite_265752: profileLite,
};

export type FixtureName = keyof typeof FIXTURES;
export const FIXTURE_NAMES = Object.keys(FIXTURES) as FixtureName[];

/** A deep copy, so tests can never change the shared module value. */
export function fixture(name: FixtureName): unknown {
  return structuredClone(FIXTURES[name]) as unknown;
}

export function fixtureObject(name: FixtureName): Record<string, unknown> {
  const value = fixture(name);
  if (!isPlainObject(value)) throw new Error(`${name} is not an object`);
  return value;
}

/** Drop empty strings, nulls and empty arrays/objects, as the spec's "omitted" rule would. */
function omitEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter(hasContent).map(omitEmpty);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => hasContent(v))
      .map(([k, v]) => [k, omitEmpty(v)]),
  );
}

/** The live full profile rewritten into the spec's form, inside `{items, total_count}`. */
export function specShapedProfileResponse(): Record<string, unknown> {
  const live = fixtureObject('profile_265752');
  const { bo3_address_city: city, risk_factors: risks, geo_points: geo, ...rest } = live;
  const spec = omitEmpty({
    ...rest,
    boc3_address_city: city,
    risk_factors: Array.isArray(risks) ? risks[0] : risks,
    geo_points: Array.isArray(geo) ? geo[0] : geo,
  });
  return { items: [spec], total_count: 1 };
}

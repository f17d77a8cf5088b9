/** Seeded generators for the parts of a carrier model: addresses, equipment, inspections, crashes. */
import { VIOLATION_TYPES, type Basic, type ViolationType } from './basics.ts';
import { daysAgo } from './calendar.ts';
import type {
  Address,
  Crash,
  Inspection,
  InspectionViolation,
  Policy,
  PolicyType,
  Unit,
} from './model.ts';
import { REGIONS, postalCode, regionByCode, type City, type Region } from './places.ts';
import type { Rng } from './prng.ts';
import { buildVin, plateOf, vehicleModel } from './vehicles.ts';
import { STREET_NAMES, STREET_TYPES } from './words.ts';

/** A point within about 2 km of a city centre. */
function near(rng: Rng, city: City): { lat: number; lon: number } {
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  return {
    lat: round(city.lat + (rng.next() - 0.5) * 0.03),
    lon: round(city.lon + (rng.next() - 0.5) * 0.03),
  };
}

function streetLine(rng: Rng): string {
  return `${rng.int(100, 19999)} ${rng.pick(STREET_NAMES)} ${rng.pick(STREET_TYPES)}`;
}

export function makeAddress(rng: Rng, region: Region, city?: City, street?: string): Address {
  const place = city ?? rng.pick(region.cities);
  return {
    street: street ?? streetLine(rng),
    city: place.name,
    state: region.code,
    zip: postalCode(region, place, rng.int(0, 9999)),
    country: region.country,
    ...near(rng, place),
  };
}

/** `STREET, CITY, ST ZIP` as the service prints it. */
export function addressLine(a: Address): string {
  return `${a.street}, ${a.city}, ${a.state} ${a.zip}`;
}

/** A ten-digit phone number with an area code of the region (or a given one). */
export function phoneIn(rng: Rng, areaCode: string): string {
  return `${areaCode}${rng.int(200, 999)}${rng.digits(4)}`;
}

export interface UnitPlan {
  count: number;
  models: readonly string[];
  /** unit code of the first unit; unit i gets code base + i */
  codeBase: number;
  plateState: string;
  unitNumber: (index: number) => string;
}

export function makeUnits(rng: Rng, plan: UnitPlan): Unit[] {
  return Array.from({ length: plan.count }, (_, i) => {
    const prefix = rng.pick(plan.models);
    const modelYear = rng.int(2012, 2026);
    const code = plan.codeBase + i;
    return {
      vin: buildVin(prefix, modelYear, code),
      model: vehicleModel(prefix),
      modelYear,
      plate: plateOf(code),
      plateState: plan.plateState,
      unitNumber: plan.unitNumber(i),
      sharedWith: [],
    };
  });
}

export interface InspectionPlan {
  count: number;
  /** inspections fall within this many days before the snapshot */
  spanDays: number;
  units: readonly Unit[];
  /** region codes the carrier runs through; the first one is home and weighs most */
  lanes: readonly string[];
  /** mean violations per inspection */
  violationRate: number;
  /** relative weight per BASIC when drawing violations */
  basicWeights: Partial<Record<Basic, number>>;
  hazmatShare: number;
  /** multiplier on each violation type's out-of-service rate */
  oosFactor: number;
  /** first inspection gets this report-number sequence (keeps numbers unique per carrier) */
  reportBase: number;
}

function drawViolationType(rng: Rng, weights: Partial<Record<Basic, number>>, hazmat: boolean) {
  const types = VIOLATION_TYPES.filter(
    (t) => (weights[t.basic] ?? 0) > 0 && (hazmat || t.basic !== 'hazardous_materials'),
  );
  if (types.length === 0) return undefined;
  return rng.weighted(
    types,
    types.map((t) => weights[t.basic] ?? 0),
  );
}

function inspectionLevel(rng: Rng, hazmat: boolean): Inspection['level'] {
  if (hazmat) return rng.pick([1, 1, 2, 3] as const);
  return rng.weighted([1, 2, 3, 5, 6] as const, [35, 30, 28, 6, 1]);
}

function allowsBasic(level: Inspection['level'], type: ViolationType): boolean {
  if (type.unit === 'D') return level !== 5;
  return level !== 3;
}

function pickInspectedUnits(rng: Rng, units: readonly Unit[]): Unit[] {
  const power = units.filter((u) => u.model.kind === 'POWER UNIT');
  const trailers = units.filter((u) => u.model.kind === 'TRAILER');
  if (power.length === 0) return [];
  const picked = [rng.pick(power)];
  if (trailers.length > 0 && picked[0]?.model.primaryCategory === 'TRACTOR') {
    picked.push(rng.pick(trailers));
  }
  return picked;
}

function drawViolations(
  rng: Rng,
  plan: InspectionPlan,
  level: Inspection['level'],
  hazmat: boolean,
  unitCount: number,
): InspectionViolation[] {
  const out: InspectionViolation[] = [];
  let budget = plan.violationRate;
  while (budget > 0 && rng.chance(Math.min(budget, 0.95))) {
    budget -= 1;
    const type = drawViolationType(rng, plan.basicWeights, hazmat);
    if (!type || !allowsBasic(level, type)) continue;
    const unitIndex = type.unit === '2' && unitCount > 1 ? 1 : 0;
    out.push({ type, oos: rng.chance(Math.min(1, type.oosRate * plan.oosFactor)), unitIndex });
  }
  return out;
}

function laneRegion(rng: Rng, lanes: readonly string[]): Region {
  const code = rng.chance(0.45) ? lanes[0] : rng.pick(lanes);
  return regionByCode(code ?? 'TX');
}

export function makeInspections(rng: Rng, plan: InspectionPlan): Inspection[] {
  const out: Inspection[] = [];
  for (let i = 0; i < plan.count; i += 1) {
    const region = laneRegion(rng, plan.lanes);
    const city = rng.pick(region.cities);
    const hazmat = rng.chance(plan.hazmatShare);
    const level = inspectionLevel(rng, hazmat);
    const units = pickInspectedUnits(rng, plan.units);
    out.push({
      reportNumber: `${region.code}${String(plan.reportBase + i).padStart(8, '0')}`,
      state: region.code,
      city: city.name,
      date: daysAgo(rng.int(1, plan.spanDays)),
      startMinute: rng.int(6 * 60, 21 * 60),
      durationMinutes: rng.int(15, 75),
      level,
      ...near(rng, city),
      fixedSite: rng.chance(0.4),
      hazmat,
      grossWeight: rng.int(24_000, 80_000),
      units,
      violations: drawViolations(rng, plan, level, hazmat, units.length),
    });
  }
  return out.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}

export interface CrashPlan {
  count: number;
  spanDays: number;
  units: readonly Unit[];
  lanes: readonly string[];
  /** probability that a crash has fatalities */
  fatalShare: number;
  reportBase: number;
  /** the first `forcedFatal` crashes are fatal regardless of the draw */
  forcedFatal?: number;
}

export function makeCrashes(rng: Rng, plan: CrashPlan): Crash[] {
  const power = plan.units.filter((u) => u.model.kind === 'POWER UNIT');
  const out: Crash[] = [];
  for (let i = 0; i < plan.count && power.length > 0; i += 1) {
    const region = laneRegion(rng, plan.lanes);
    const city = rng.pick(region.cities);
    const fatal = i < (plan.forcedFatal ?? 0) || rng.chance(plan.fatalShare);
    const fatalities = fatal ? rng.int(1, 2) : 0;
    const injuries = rng.chance(0.45) ? rng.int(1, 3) : 0;
    out.push({
      reportNumber: `${region.code}${String(plan.reportBase + i).padStart(10, '0')}`,
      state: region.code,
      city: city.name,
      date: daysAgo(rng.int(3, plan.spanDays)),
      time: `${String(rng.int(0, 23)).padStart(2, '0')}${String(rng.int(0, 59)).padStart(2, '0')}`,
      ...near(rng, city),
      location: `I-${rng.pick([10, 20, 35, 40, 70, 75, 80, 81, 90, 95])} MP ${rng.int(1, 400)}`,
      fatalities,
      injuries,
      towAway: fatal || injuries > 0 || rng.chance(0.7),
      vehicles: rng.int(1, 4),
      unit: rng.pick(power),
      hazmatReleased: false,
      weather: rng.weighted([1, 2, 3, 4], [80, 10, 5, 5]),
      light: rng.weighted([1, 2, 3], [70, 20, 10]),
      surface: rng.weighted([1, 2, 3], [80, 15, 5]),
    });
  }
  return out.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
}

const FORM_CODES: Record<PolicyType, string> = { BIPD: '91X', CARGO: '34', SURETY: '84' };

/** A policy; pass `cancel` to end it (a future date makes a pending cancellation). */
export function policy(
  rng: Rng,
  type: PolicyType,
  insurer: string,
  amount: number,
  effective: string,
  cancel?: Policy['cancel'],
): Policy {
  return {
    type,
    formCode: FORM_CODES[type],
    insurer,
    number: `${insurer.slice(0, 2)}${rng.digits(8)}`,
    effective,
    amount,
    underlying: 0,
    ...(cancel ? { cancel } : {}),
  };
}

/** Region codes near a home region, for lanes (same country first). */
export function lanesFrom(rng: Rng, home: string, extra: number): string[] {
  const region = regionByCode(home);
  const others = REGIONS.filter((r) => r.code !== home && r.country === region.country);
  const lanes = [home];
  for (let i = 0; i < extra; i += 1) lanes.push(rng.pick(others).code);
  return [...new Set(lanes)];
}

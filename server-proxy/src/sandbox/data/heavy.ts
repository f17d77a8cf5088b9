/**
 * The heavy carrier (DOT 3999999) used by benchmarks: thousands of inspections, crashes and
 * equipment records and network lists of hundreds of DOTs. Built on first request and cached.
 */
import { daysAgo } from './calendar.ts';
import { DEFAULT_WEIGHTS, equipmentLink, makeRecords } from './carrier-kit.ts';
import { makeAddress, policy } from './generate.ts';
import type { CarrierModel } from './model.ts';
import { cityOf, regionByCode } from './places.ts';
import { dotOfRow, populationIdentity } from './population-identity.ts';
import { Rng } from './prng.ts';
import { TRACTORS, VAN_TRAILERS } from './vehicles.ts';

export const HEAVY_DOT = '3999999';
export const HEAVY_CODE_BASE = 24_000_000;
export const HEAVY_POWER = 1_800;
export const HEAVY_TRAILERS = 800;
const NETWORK_SIZE = 520;

/** Identity values of the heavy carrier, known without building it (for search and autocomplete). */
export const HEAVY_IDENTITY = {
  dot: HEAVY_DOT,
  docket: 'MC1999999',
  legalName: 'TRANSCONTINENTAL BENCHMARK FREIGHT INC',
  dbaName: 'TBF NATIONAL',
  ein: '204418890',
  phone: '8165550100',
  email: 'safety@tbfnational.com',
  street: '1 BENCHMARK PKWY',
  state: 'MO',
  city: 'KANSAS CITY',
} as const;

/** Heavy unit i has company unit number 10000 + i (above every population unit number). */
function heavyUnitNumber(i: number): string {
  return String(10_000 + i);
}

function networkDots(populationSize: number): string[] {
  const real = populationSize >= NETWORK_SIZE;
  return Array.from({ length: NETWORK_SIZE }, (_, i) => (real ? dotOfRow(i) : String(6_500_000 + i)));
}

export function heavyModel(seed: number, populationSize: number): CarrierModel {
  const rng = new Rng(0x4ea7, 1);
  const region = regionByCode(HEAVY_IDENTITY.state);
  const physical = makeAddress(rng, region, cityOf('MO', HEAVY_IDENTITY.city), HEAVY_IDENTITY.street);
  const records = makeRecords(rng, {
    codeBase: HEAVY_CODE_BASE,
    plateState: 'MO',
    lanes: ['MO', 'KS', 'TX', 'IL', 'OH', 'PA', 'CA', 'GA', 'TN', 'IN', 'AZ', 'NE', 'CO', 'OK'],
    power: HEAVY_POWER,
    trailers: HEAVY_TRAILERS,
    powerModels: TRACTORS,
    trailerModels: VAN_TRAILERS,
    powerUnitNumber: heavyUnitNumber,
    trailerUnitNumber: (j) => heavyUnitNumber(HEAVY_POWER + j),
    inspections: 5_200,
    spanDays: 720,
    violationRate: 0.7,
    weights: DEFAULT_WEIGHTS,
    crashes: 1_100,
    fatalShare: 0.02,
  });
  const dots = networkDots(populationSize);
  const units = records.units.map((u, i) => (i < dots.length ? { ...u, sharedWith: [dots[i] ?? ''] } : u));
  const unitByVin = new Map(units.map((u) => [u.vin, u]));
  for (const i of records.inspections) i.units = i.units.map((u) => unitByVin.get(u.vin) ?? u);
  const real = populationSize >= NETWORK_SIZE;
  return {
    dot: HEAVY_DOT,
    docket: { prefix: 'MC', number: HEAVY_IDENTITY.docket.slice(2) },
    ein: HEAVY_IDENTITY.ein,
    legalName: HEAVY_IDENTITY.legalName,
    dbaName: HEAVY_IDENTITY.dbaName,
    entityType: 'Carrier',
    operation: 'interstate',
    organization: 'CORPORATION',
    operationClasses: ['authorized_for_hire'],
    passenger: false,
    hazmat: false,
    smartway: true,
    usdotStatus: 'Active',
    outOfService: false,
    addedDate: '1988-04-11',
    authority: { grants: [{ kind: 'common', action: 'Granted', served: '1988-07-01' }] },
    required: { bipd: 750_000, cargo: 0, bond: 0 },
    policies: [policy(rng, 'BIPD', 'OLD REPUBLIC INSURANCE COMPANY', 5_000_000, daysAgo(200))],
    rating: { desc: 'Satisfactory', date: '2018-03-02' },
    review: { type: 'Compliance Review', date: '2018-03-02' },
    risk: { level: 'Medium', probability: 0.2 },
    percentiles: { unsafe_driving: 0.48, hours_of_service: 0.36, vehicle_maintence: 0.52, driver_fitness: 0.22, crash_indicator: 0.61 },
    fleet: {
      powerUnits: 9_400,
      drivers: 10_200,
      cdlDrivers: 10_100,
      trucks: 9_400,
      trailers: 24_000,
      buses: 0,
      ownedTractors: 8_000,
      ownedTrailers: 22_000,
      termLeasedTractors: 1_400,
      termLeasedTrailers: 2_000,
      tripLeasedDrivers: 40,
      mileage: 940_000_000,
      mcs150Date: daysAgo(120),
      localShare: 0.1,
    },
    cargo: ['general_freight', 'refrigerated_foods', 'paper_products', 'intermodal_containers'],
    phone: HEAVY_IDENTITY.phone,
    fax: '8165550101',
    email: HEAVY_IDENTITY.email,
    contactPrimary: 'EDWARD KING',
    contactSecondary: 'NICOLE GREEN',
    physical,
    contactSince: '2015-01-01',
    boc3: { company: 'CT CORPORATION SYSTEM', attn: 'SERVICE OF PROCESS', address: makeAddress(rng, regionByCode('NY')) },
    past: [],
    units,
    inspections: records.inspections,
    crashes: records.crashes,
    network: { equipment: dots },
    equipmentLinks: dots.map((dot, i) => {
      const other = real ? populationIdentity(seed, i) : undefined;
      return equipmentLink(
        {
          dot,
          legalName: other?.legalName ?? `NETWORK CARRIER ${i + 1} LLC`,
          entityType: 'Carrier',
          usdotStatus: 'Active',
          outOfService: false,
          operation: 'interstate',
          hazmat: false,
        },
        units.slice(i, i + 1),
      );
    }),
    loads: { total: 610_000, ltl: 42_000, deadheads: 51_000, first: daysAgo(365), last: daysAgo(1) },
    basicHistoryMonths: 24,
  };
}

/**
 * The ten curated carriers (the sandbox's fixtures). Each is a short description turned into a full
 * model by `curatedCarrier`; every count, alert and aggregate is derived later by `buildProfile`.
 * They do not depend on the dataset seed. DOT 265752 is served from the live-shape fixture as-is.
 */
import { daysAgo } from './calendar.ts';
import { DEFAULT_WEIGHTS, equipmentLink, linkNetwork, makeRecords, sharedCopies, type RecordPlan } from './carrier-kit.ts';
import { makeAddress, policy } from './generate.ts';
import type { Address, AuthorityModel, Boc3, CarrierModel, Fleet, PastValue, Policy } from './model.ts';
import { cityOf, regionByCode } from './places.ts';
import { Rng } from './prng.ts';
import { TRACTORS, VAN_TRAILERS } from './vehicles.ts';

export const LIVE_SHAPE_DOT = '265752';
/** Unit codes of curated carrier i start at CURATED_CODE_BASE + i * 20,000. */
const CURATED_CODE_BASE = 20_000_000;

type Place = [state: string, city: string, street: string];

interface CuratedSpec {
  index: number;
  model: Omit<
    CarrierModel,
    'physical' | 'mailing' | 'units' | 'inspections' | 'crashes' | 'fleet' | 'policies' | 'boc3' | 'past' | 'network' | 'equipmentLinks' | 'basicHistoryMonths' | 'contactSince'
  > & { contactSince?: string };
  physical: Place;
  mailing?: Place;
  fleet?: Partial<Fleet> & { powerUnits: number; drivers: number };
  policies: (rng: Rng) => Policy[];
  records?: Omit<RecordPlan, 'codeBase' | 'plateState' | 'lanes'> & { lanes?: string[] };
  past?: PastValue[];
  boc3?: boolean;
}

function place(rng: Rng, [state, city, street]: Place): Address {
  return makeAddress(rng, regionByCode(state), cityOf(state, city), street);
}

function boc3For(rng: Rng, home: Address): Boc3 {
  return {
    company: 'NATIONWIDE PROCESS AGENTS LLC',
    attn: 'COMPLIANCE DEPARTMENT',
    address: makeAddress(rng, regionByCode(home.country === 'CA' ? 'NY' : home.state)),
  };
}

function fleetOf(spec: CuratedSpec): Fleet | undefined {
  const f = spec.fleet;
  if (!f) return undefined;
  const trailers = f.trailers ?? Math.round(f.powerUnits * 1.2);
  return {
    cdlDrivers: Math.round(f.drivers * 0.96),
    trucks: f.powerUnits - (f.buses ?? 0),
    trailers,
    buses: 0,
    ownedTractors: Math.round(f.powerUnits * 0.8),
    ownedTrailers: Math.round(trailers * 0.9),
    termLeasedTractors: f.powerUnits - Math.round(f.powerUnits * 0.8),
    termLeasedTrailers: trailers - Math.round(trailers * 0.9),
    tripLeasedDrivers: 0,
    mileage: f.powerUnits * 95_000,
    mcs150Date: daysAgo(200),
    localShare: 0.2,
    ...f,
  };
}

function curatedCarrier(spec: CuratedSpec): CarrierModel {
  const rng = new Rng(0xc0ffee, spec.index);
  const physical = place(rng, spec.physical);
  const mailing = spec.mailing ? place(rng, spec.mailing) : undefined;
  const plan = spec.records;
  const records = plan
    ? makeRecords(rng, {
        ...plan,
        lanes: plan.lanes ?? [physical.state],
        codeBase: CURATED_CODE_BASE + spec.index * 20_000,
        plateState: physical.state,
      })
    : { units: [], inspections: [], crashes: [] };
  return {
    contactSince: spec.model.addedDate,
    ...spec.model,
    physical,
    mailing,
    fleet: fleetOf(spec),
    policies: spec.policies(rng),
    boc3: spec.boc3 === false ? undefined : boc3For(rng, physical),
    past: spec.past ?? [],
    ...records,
    network: {},
    equipmentLinks: [],
    basicHistoryMonths: 12,
  };
}

const forHire = ['authorized_for_hire'] as CarrierModel['operationClasses'];

function grants(kind: 'common' | 'contract' | 'broker', served: string, revoked?: string): AuthorityModel['grants'] {
  return [
    {
      kind,
      action: 'Granted',
      served,
      ...(revoked ? { dispensation: { action: 'Revoked' as const, served: revoked } } : {}),
    },
  ];
}

function past(key: PastValue['key'], value: string, start: number, end: number): PastValue {
  return { key, value, start: daysAgo(start), end: daysAgo(end) };
}

const hansen = (): CarrierModel =>
  curatedCarrier({
    index: 0,
    model: {
      dot: '568253',
      docket: { prefix: 'MC', number: '277621' },
      ein: '953364174',
      legalName: 'HANSEN & ADKINS AUTO TRANSPORT INC',
      dbaName: 'HANSEN & ADKINS',
      entityType: 'Carrier',
      operation: 'interstate',
      organization: 'CORPORATION',
      operationClasses: forHire,
      passenger: false,
      hazmat: false,
      smartway: true,
      usdotStatus: 'Active',
      outOfService: false,
      addedDate: '1995-03-14',
      authority: { grants: [...grants('common', '1996-02-20'), ...grants('contract', '1996-02-20')] },
      required: { bipd: 1_000_000, cargo: 0, bond: 0 },
      rating: { desc: 'Satisfactory', date: '2019-06-11' },
      review: { type: 'Compliance Review', date: '2019-06-11' },
      risk: { level: 'Low', probability: 0.06 },
      issValue: 45,
      percentiles: { unsafe_driving: 0.31, hours_of_service: 0.22, vehicle_maintence: 0.44, crash_indicator: 0.38 },
      cargo: ['motor_vehicles', 'driveaway_towaway'],
      phone: '5626027220',
      fax: '5626027299',
      cell: '5628813045',
      email: 'safety@hansenadkins.com',
      contactPrimary: 'DOUGLAS ADKINS',
      contactSecondary: 'LAURA HANSEN',
      loads: { total: 41_800, ltl: 0, deadheads: 3_900, first: daysAgo(364), last: daysAgo(2) },
    },
    physical: ['CA', 'ONTARIO', '1500 AUTO CENTER DR'],
    mailing: ['CA', 'LOS ANGELES', 'PO BOX 2280'],
    fleet: { powerUnits: 897, drivers: 897, trailers: 905, mileage: 86_000_000, localShare: 0.15 },
    policies: (rng) => [
      policy(rng, 'BIPD', 'GREAT WEST CASUALTY COMPANY', 1_000_000, '2025-01-01'),
      policy(rng, 'CARGO', 'GREAT WEST CASUALTY COMPANY', 250_000, '2025-01-01'),
      policy(rng, 'BIPD', 'CANAL INSURANCE COMPANY', 1_000_000, '2021-01-01', { method: 'REPLACED', date: '2025-01-01' }),
    ],
    records: {
      lanes: ['CA', 'AZ', 'NV', 'TX', 'NM', 'OR'],
      power: 36,
      trailers: 24,
      powerModels: ['1XPBD49X', '1XKYD49X'],
      trailerModels: ['5CVCX753'],
      inspections: 64,
      spanDays: 720,
      violationRate: 0.5,
      weights: DEFAULT_WEIGHTS,
      crashes: 6,
    },
    past: [
      past('legal_name', 'HANSEN AUTO TRANSPORT INC', 11_000, 5_400),
      past('email_address', 'dispatch@hansenauto.net', 4_000, 900),
      past('telephone_number', '5625550142', 9_000, 2_100),
    ],
  });

function chameleonPair(): [CarrierModel, CarrierModel] {
  const predecessor = curatedCarrier({
    index: 3,
    model: {
      dot: '3187452',
      docket: { prefix: 'MC', number: '1098831' },
      ein: '824417730',
      legalName: 'RAPID ROUTE CARRIERS LLC',
      entityType: 'Carrier',
      operation: 'interstate',
      organization: 'LIMITED LIABILITY COMPANY',
      operationClasses: forHire,
      passenger: false,
      hazmat: false,
      usdotStatus: 'Inactive',
      outOfService: true,
      addedDate: daysAgo(2_450),
      authority: { grants: grants('common', daysAgo(2_380), daysAgo(240)) },
      required: { bipd: 750_000, cargo: 0, bond: 0 },
      rating: { desc: 'Unsatisfactory', date: daysAgo(300) },
      review: { type: 'Compliance Review', date: daysAgo(305) },
      risk: { level: 'Very High', probability: 0.81 },
      percentiles: { vehicle_maintence: 0.91, hours_of_service: 0.78, unsafe_driving: 0.58 },
      acuteCritical: ['hours_of_service'],
      cargo: ['general_freight', 'building_materials'],
      phone: '4698124471',
      email: 'rapidroutellc@gmail.com',
      contactPrimary: 'VIKTOR SOKOLOV',
      loads: { total: 2_100, ltl: 120, deadheads: 410, first: daysAgo(700), last: daysAgo(260) },
    },
    physical: ['TX', 'DALLAS', '8800 ELAM RD'],
    fleet: { powerUnits: 14, drivers: 16, trailers: 18, mcs150Date: daysAgo(640) },
    policies: (rng) => [
      policy(rng, 'BIPD', 'CANAL INSURANCE COMPANY', 750_000, daysAgo(2_300), { method: 'CANCELLED', date: daysAgo(270) }),
      policy(rng, 'CARGO', 'CANAL INSURANCE COMPANY', 100_000, daysAgo(2_300), { method: 'CANCELLED', date: daysAgo(270) }),
    ],
    records: {
      lanes: ['TX', 'OK', 'LA', 'AR'],
      power: 8,
      trailers: 8,
      powerModels: TRACTORS,
      trailerModels: VAN_TRAILERS,
      inspections: 38,
      spanDays: 700,
      violationRate: 1.6,
      weights: { vehicle_maintence: 6, hours_of_service: 4, unsafe_driving: 2 },
      oosFactor: 1.8,
      crashes: 3,
    },
    past: [
      past('physical_address', '2400 LOGISTICS WAY, GARLAND, TX 75040', 2_450, 900),
      // its old dispatch line: the tender check's "phone registered to another DOT in the past"
      // (docs/sandbox-data.md, tender-check cases); ended over a year ago, so its phone is stable
      past('telephone_number', '4695550163', 2_450, 400),
    ],
  });
  const shared = predecessor.units.filter((u, i) => i % 4 === 0).slice(0, 4);
  const newEntrant = curatedCarrier({
    index: 2,
    model: {
      dot: '4418207',
      docket: { prefix: 'MC', number: '1612093' },
      ein: '881205537',
      legalName: 'SWIFTPATH EXPRESS LLC',
      entityType: 'Carrier',
      operation: 'interstate',
      organization: 'LIMITED LIABILITY COMPANY',
      operationClasses: forHire,
      passenger: false,
      hazmat: false,
      usdotStatus: 'Active',
      outOfService: false,
      addedDate: daysAgo(212),
      contactSince: daysAgo(212),
      authority: { grants: grants('common', daysAgo(160)), pending: ['contract'] },
      required: { bipd: 750_000, cargo: 0, bond: 0 },
      rating: { desc: 'Not Rated' },
      risk: { level: 'High', probability: 0.46 },
      percentiles: {},
      cargo: ['general_freight'],
      phone: predecessor.phone,
      email: 'dispatch@swiftpathexpress.com',
      contactPrimary: 'VIKTOR SOKOLOV',
      loads: { total: 310, ltl: 20, deadheads: 90, first: daysAgo(150), last: daysAgo(3) },
    },
    physical: ['TX', 'DALLAS', '8800 ELAM RD'],
    fleet: { powerUnits: 6, drivers: 6, trailers: 6, mcs150Date: daysAgo(212) },
    policies: (rng) => [policy(rng, 'BIPD', 'NORTHLAND INSURANCE COMPANY', 750_000, daysAgo(170))],
    records: {
      lanes: ['TX', 'OK', 'LA'],
      power: 2,
      trailers: 2,
      powerModels: TRACTORS,
      trailerModels: VAN_TRAILERS,
      inspections: 5,
      spanDays: 150,
      violationRate: 0.8,
      weights: DEFAULT_WEIGHTS,
      crashes: 1,
      extraUnits: sharedCopies(shared, predecessor.dot),
    },
    past: [
      past('telephone_number', '9725550187', 212, 21),
      past('email_address', 'swiftpath.dispatch@outlook.com', 212, 14),
    ],
  });
  newEntrant.physical = predecessor.physical;
  const sharedAtPredecessor = sharedCopies(shared, newEntrant.dot);
  predecessor.units = predecessor.units.map((u) => sharedAtPredecessor.find((s) => s.vin === u.vin) ?? u);
  for (const i of predecessor.inspections) {
    i.units = i.units.map((u) => sharedAtPredecessor.find((s) => s.vin === u.vin) ?? u);
  }
  linkNetwork(newEntrant, predecessor, ['telephone_number', 'physical_address', 'equipment']);
  newEntrant.equipmentLinks = [equipmentLink(predecessor, sharedAtPredecessor)];
  predecessor.equipmentLinks = [equipmentLink(newEntrant, newEntrant.units.filter((u) => u.sharedWith.length > 0))];
  return [newEntrant, predecessor];
}

const overThresholds = (): CarrierModel =>
  curatedCarrier({
    index: 4,
    model: {
      dot: '2214589',
      docket: { prefix: 'MC', number: '745120' },
      ein: '472268410',
      duns: '081447213',
      legalName: 'IRONCLAD FREIGHT SYSTEMS INC',
      dbaName: 'IRONCLAD XPRESS',
      entityType: 'Carrier',
      operation: 'interstate',
      organization: 'CORPORATION',
      operationClasses: forHire,
      passenger: false,
      hazmat: false,
      usdotStatus: 'Active',
      outOfService: false,
      addedDate: '2011-08-02',
      authority: { grants: [...grants('common', '2011-10-18'), ...grants('broker', '2016-04-05')], review: ['common'] },
      required: { bipd: 750_000, cargo: 0, bond: 75_000 },
      rating: { desc: 'Conditional', date: daysAgo(140) },
      review: { type: 'Compliance Review', date: daysAgo(150) },
      risk: { level: 'Very High', probability: 0.72 },
      percentiles: { unsafe_driving: 0.84, hours_of_service: 0.77, vehicle_maintence: 0.69, crash_indicator: 0.71, driver_fitness: 0.4 },
      acuteCritical: ['unsafe_driving'],
      cargo: ['general_freight', 'refrigerated_foods', 'fresh_produce'],
      phone: '4045572210',
      fax: '4045572211',
      email: 'compliance@ironcladfreight.com',
      contactPrimary: 'MARCUS WHITE',
      contactSecondary: 'DENISE CARTER',
      loads: { total: 18_400, ltl: 900, deadheads: 2_700, first: daysAgo(365), last: daysAgo(1) },
    },
    physical: ['GA', 'ATLANTA', '4700 FULTON INDUSTRIAL BLVD'],
    fleet: { powerUnits: 212, drivers: 240, mileage: 23_500_000 },
    policies: (rng) => [
      policy(rng, 'BIPD', 'CAROLINA CASUALTY INSURANCE COMPANY', 1_000_000, daysAgo(300)),
      policy(rng, 'CARGO', 'CAROLINA CASUALTY INSURANCE COMPANY', 100_000, daysAgo(300)),
      policy(rng, 'SURETY', 'ROYAL BONDING AGENCY', 75_000, '2016-04-01'),
      policy(rng, 'BIPD', 'PROGRESSIVE COMMERCIAL', 750_000, daysAgo(1_400), { method: 'CANCELLED', date: daysAgo(301) }),
    ],
    records: {
      lanes: ['GA', 'FL', 'TN', 'NC', 'SC', 'AL', 'TX'],
      power: 30,
      trailers: 30,
      powerModels: TRACTORS,
      trailerModels: ['1UYVS253', '1GRAA062'],
      inspections: 140,
      spanDays: 720,
      violationRate: 1.5,
      weights: { unsafe_driving: 6, hours_of_service: 5, vehicle_maintence: 4, driver_fitness: 1 },
      oosFactor: 1.5,
      crashes: 14,
      fatalShare: 0.05,
      forcedFatal: 2,
    },
    past: [past('legal_name', 'IRONCLAD TRUCKING LLC', 5_500, 2_900)],
  });

const broker = (): CarrierModel =>
  curatedCarrier({
    index: 5,
    model: {
      dot: '2987310',
      docket: { prefix: 'MC', number: '918274' },
      ein: '462219084',
      legalName: 'CLEARPATH LOGISTICS BROKERAGE LLC',
      dbaName: 'CLEARPATH FREIGHT',
      entityType: 'Broker',
      operation: 'interstate',
      organization: 'LIMITED LIABILITY COMPANY',
      operationClasses: [],
      passenger: false,
      hazmat: false,
      usdotStatus: 'Active',
      outOfService: false,
      addedDate: '2017-01-09',
      authority: { grants: grants('broker', '2017-03-02') },
      required: { bipd: 0, cargo: 0, bond: 75_000 },
      rating: { desc: 'Not Rated' },
      percentiles: {},
      cargo: [],
      phone: '6155524400',
      email: 'carriers@clearpathlogistics.com',
      contactPrimary: 'ANGELA PATEL',
      contactSecondary: 'RYAN BROOKS',
      loads: { total: 9_600, ltl: 2_200, deadheads: 0, first: daysAgo(365), last: daysAgo(1) },
    },
    physical: ['TN', 'NASHVILLE', '210 COMMERCE ST'],
    mailing: ['TX', 'HOUSTON', '5200 CLINTON DR'],
    fleet: { powerUnits: 0, drivers: 0, trailers: 0, mileage: 0, cdlDrivers: 0 },
    policies: (rng) => [
      policy(rng, 'SURETY', 'PRIME SURETY BONDS INC', 75_000, '2017-02-20'),
    ],
  });

const intrastatePrivate = (): CarrierModel =>
  curatedCarrier({
    index: 6,
    model: {
      dot: '1455872',
      legalName: 'VALLEY FRESH DAIRY COOPERATIVE',
      entityType: 'Carrier',
      operation: 'intrastate',
      organization: 'CORPORATION',
      operationClasses: ['private_property'],
      passenger: false,
      hazmat: false,
      usdotStatus: 'Active',
      outOfService: false,
      addedDate: '2005-05-17',
      authority: { grants: [] },
      required: { bipd: 0, cargo: 0, bond: 0 },
      rating: { desc: 'Not Rated' },
      percentiles: { vehicle_maintence: 0.35 },
      cargo: ['refrigerated_foods', 'beverages'],
      phone: '6082714410',
      email: 'fleet@valleyfreshdairy.com',
      contactPrimary: 'PETER JENSEN',
      contactSecondary: 'KAREN OLSEN',
    },
    physical: ['WI', 'MADISON', '3300 DAIRY DR'],
    fleet: { powerUnits: 18, drivers: 22, trailers: 20, mileage: 1_100_000, localShare: 0.9 },
    policies: (rng) => [policy(rng, 'BIPD', 'SENTRY SELECT INSURANCE COMPANY', 1_000_000, daysAgo(500))],
    records: {
      lanes: ['WI'],
      power: 10,
      trailers: 8,
      powerModels: ['1FVACWFB', '1FUJHHDR'],
      trailerModels: ['1UYVS253'],
      inspections: 12,
      spanDays: 720,
      violationRate: 0.4,
      weights: DEFAULT_WEIGHTS,
      crashes: 1,
    },
    boc3: false,
  });

const passengerCarrier = (): CarrierModel =>
  curatedCarrier({
    index: 7,
    model: {
      dot: '1893346',
      docket: { prefix: 'MC', number: '654388' },
      ein: '364417052',
      legalName: 'LAKESHORE COACH LINES INC',
      entityType: 'Carrier',
      operation: 'interstate',
      organization: 'CORPORATION',
      operationClasses: forHire,
      passenger: true,
      hazmat: false,
      usdotStatus: 'Active',
      outOfService: false,
      addedDate: '2008-09-22',
      authority: { grants: grants('common', '2009-01-15') },
      required: { bipd: 5_000_000, cargo: 0, bond: 0 },
      rating: { desc: 'Satisfactory', date: '2022-04-06' },
      review: { type: 'Compliance Review', date: '2022-04-06' },
      risk: { level: 'Medium', probability: 0.21 },
      percentiles: { unsafe_driving: 0.56, hours_of_service: 0.34, vehicle_maintence: 0.61, driver_fitness: 0.2 },
      cargo: ['passengers'],
      phone: '3124473300',
      email: 'charters@lakeshorecoach.com',
      contactPrimary: 'MARIA NOVAK',
      contactSecondary: 'JOHN KOWALSKI',
    },
    physical: ['IL', 'CHICAGO', '2450 S ARCHER AVE'],
    fleet: { powerUnits: 42, drivers: 55, trailers: 0, buses: 42, trucks: 0, mileage: 3_900_000 },
    policies: (rng) => [policy(rng, 'BIPD', 'ZURICH AMERICAN INSURANCE COMPANY', 5_000_000, daysAgo(420))],
    records: {
      lanes: ['IL', 'WI', 'IN', 'MI', 'OH', 'MN'],
      power: 20,
      trailers: 0,
      powerModels: ['1M8PDMPA', '2PCH3349'],
      trailerModels: [],
      powerUnitNumber: (i) => `C${201 + i}`,
      inspections: 48,
      spanDays: 720,
      violationRate: 0.7,
      weights: { unsafe_driving: 4, hours_of_service: 2, vehicle_maintence: 5, driver_fitness: 1 },
      crashes: 3,
    },
  });

const hazmatTanker = (): CarrierModel =>
  curatedCarrier({
    index: 8,
    model: {
      dot: '1120987',
      docket: { prefix: 'MC', number: '412255' },
      ein: '760934418',
      duns: '614402281',
      legalName: 'GULF COAST TANK LINES INC',
      entityType: 'Carrier',
      operation: 'interstate',
      organization: 'CORPORATION',
      operationClasses: forHire,
      passenger: false,
      hazmat: true,
      phmsa: true,
      usdotStatus: 'Active',
      outOfService: false,
      addedDate: '2002-11-04',
      authority: { grants: [...grants('common', '2003-02-10'), ...grants('contract', '2003-02-10')] },
      required: { bipd: 5_000_000, cargo: 0, bond: 0 },
      rating: { desc: 'Satisfactory', date: '2021-09-14' },
      review: { type: 'Compliance Review', date: '2021-09-14' },
      risk: { level: 'Medium', probability: 0.18 },
      percentiles: { vehicle_maintence: 0.77, hazardous_materials: 0.42, unsafe_driving: 0.3, hours_of_service: 0.28 },
      cargo: ['liquids_gases', 'chemicals', 'oilfield_equipment'],
      phone: '7136724100',
      fax: '7136724101',
      email: 'dispatch@gulfcoasttank.com',
      contactPrimary: 'LUIS RAMIREZ',
      contactSecondary: 'SARAH MITCHELL',
      loads: { total: 12_100, ltl: 0, deadheads: 4_800, first: daysAgo(365), last: daysAgo(1) },
    },
    physical: ['TX', 'HOUSTON', '9100 CLINTON DR'],
    mailing: ['TX', 'HOUSTON', '5200 CLINTON DR'],
    fleet: { powerUnits: 120, drivers: 131, trailers: 150, mileage: 11_800_000 },
    policies: (rng) => [
      policy(rng, 'BIPD', 'NATIONAL INDEMNITY COMPANY', 5_000_000, daysAgo(330)),
      policy(rng, 'CARGO', 'NATIONAL INDEMNITY COMPANY', 100_000, daysAgo(330)),
    ],
    records: {
      lanes: ['TX', 'LA', 'OK', 'MS', 'AL'],
      power: 24,
      trailers: 24,
      powerModels: ['1NKZX4EX', '1XPBD49X'],
      trailerModels: ['1H9AT406'],
      inspections: 90,
      spanDays: 720,
      violationRate: 0.9,
      weights: { vehicle_maintence: 6, hazardous_materials: 3, hours_of_service: 2, unsafe_driving: 1 },
      hazmatShare: 0.75,
      crashes: 4,
    },
  });

const canadian = (): CarrierModel =>
  curatedCarrier({
    index: 9,
    model: {
      dot: '2456781',
      docket: { prefix: 'MC', number: '823456' },
      extraDockets: ['FF012844'],
      ein: '981245576',
      legalName: 'TRILLIUM CROSS-BORDER TRANSPORT LTD',
      dbaName: 'TRILLIUM TRANSPORT',
      entityType: 'Carrier,Freight Forwarder',
      operation: 'interstate',
      organization: 'CORPORATION',
      operationClasses: forHire,
      passenger: false,
      hazmat: false,
      smartway: true,
      usdotStatus: 'Active',
      outOfService: false,
      addedDate: '2013-06-27',
      authority: { grants: [...grants('common', '2013-09-30'), ...grants('broker', '2018-02-12')] },
      required: { bipd: 750_000, cargo: 0, bond: 75_000 },
      rating: { desc: 'Satisfactory', date: '2020-10-08' },
      review: { type: 'Compliance Review', date: '2020-10-08' },
      risk: { level: 'Medium', probability: 0.24 },
      percentiles: { unsafe_driving: 0.41, hours_of_service: 0.52, vehicle_maintence: 0.57 },
      cargo: ['general_freight', 'paper_products', 'machinery_large_objects'],
      phone: '9054471200',
      email: 'ops@trilliumtransport.ca',
      contactPrimary: 'GURPREET SANDHU',
      contactSecondary: 'MARIE TREMBLAY',
      loads: { total: 7_300, ltl: 1_500, deadheads: 800, first: daysAgo(365), last: daysAgo(4) },
    },
    physical: ['ON', 'MISSISSAUGA', '6500 TRANSCANADA WAY'],
    fleet: { powerUnits: 75, drivers: 82, mileage: 8_400_000 },
    policies: (rng) => [
      policy(rng, 'BIPD', 'ZURICH AMERICAN INSURANCE COMPANY', 1_000_000, daysAgo(340), { method: 'CANCELLED', date: daysAgo(-25) }),
      policy(rng, 'CARGO', 'ZURICH AMERICAN INSURANCE COMPANY', 100_000, daysAgo(340)),
      policy(rng, 'SURETY', 'TRANSPORTATION SURETY BOND CO', 75_000, '2018-02-01'),
    ],
    records: {
      lanes: ['MI', 'OH', 'NY', 'PA', 'IL', 'IN'],
      power: 20,
      trailers: 20,
      powerModels: ['4V4NC9EH', '1FUJHHDR'],
      trailerModels: ['1GRAA062', '13N14830'],
      inspections: 56,
      spanDays: 720,
      violationRate: 0.6,
      weights: DEFAULT_WEIGHTS,
      crashes: 2,
    },
    past: [
      past('email_address', 'dispatch@trilliumxb.com', 3_000, 700),
      // the tender check's "e-mail changed three days ago" (docs/sandbox-data.md)
      past('email_address', 'dispatch@trilliumtransport.ca', 699, 3),
    ],
  });

/** The curated models (all but the live-shape carrier), in scenario order with a gap at slot 2. */
export function curatedModels(): CarrierModel[] {
  const [newEntrant, predecessor] = chameleonPair();
  const brokerModel = broker();
  const tanker = hazmatTanker();
  brokerModel.mailing = tanker.mailing;
  linkNetwork(brokerModel, tanker, ['mailing_address']);
  return [hansen(), newEntrant, predecessor, overThresholds(), brokerModel, intrastatePrivate(), passengerCarrier(), tanker, canadian()];
}

/** DOTs of the ten curated carriers in scenario order (live-shape carrier second). */
export const CURATED_DOTS = [
  '568253',
  LIVE_SHAPE_DOT,
  '4418207',
  '3187452',
  '2214589',
  '2987310',
  '1455872',
  '1893346',
  '1120987',
  '2456781',
] as const;


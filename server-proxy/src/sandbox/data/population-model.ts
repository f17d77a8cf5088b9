/** Full model of a population carrier, built lazily from (seed, row). */
import { type Basic } from './basics.ts';
import { daysAgo } from './calendar.ts';
import { DEFAULT_WEIGHTS, equipmentLink, makeRecords } from './carrier-kit.ts';
import { lanesFrom, makeAddress, policy } from './generate.ts';
import type { CarrierModel, EquipmentLink, NetworkKind, PastValue, Unit } from './model.ts';
import {
  blockRoot,
  dotOfRow,
  networkRows,
  populationIdentity,
  sharesWithRoot,
  type PopulationIdentity,
} from './population-identity.ts';
import { Rng, hash } from './prng.ts';
import { TRACTORS, VAN_TRAILERS } from './vehicles.ts';
import { FIRST_NAMES, INSURERS, PROCESS_AGENTS, SURETIES, SURNAMES } from './words.ts';

export const UNITS_PER_ROW = 16;

export interface UnitCounts {
  power: number;
  trailers: number;
}

/** Own equipment slots of a row (brokers have none); at most 8 + 6 < UNITS_PER_ROW. */
export function unitCounts(seed: number, row: number, kind: PopulationIdentity['kind']): UnitCounts {
  if (kind === 'broker') return { power: 0, trailers: 0 };
  const h = hash(seed, row, 0x07a1);
  const power = 1 + (h % 8);
  return { power, trailers: kind === 'intrastate' ? 0 : (h >>> 8) % 7 };
}

/** First company unit number of a row; power unit i is base + i, trailer j is base + 50 + j. */
export function unitBase(seed: number, row: number): number {
  return 100 * (1 + (hash(seed, row, 55) % 90));
}

/** Units of the block root that sharing members also run (the first two power units). */
export const SHARED_UNIT_SLOTS = 2;

function ownUnits(seed: number, id: PopulationIdentity): Unit[] {
  const counts = unitCounts(seed, id.row, id.kind);
  const base = unitBase(seed, id.row);
  const rng = new Rng(seed, id.row, 0x0417);
  return makeRecords(rng, {
    codeBase: id.row * UNITS_PER_ROW,
    plateState: id.region.code,
    lanes: [id.region.code],
    power: counts.power,
    trailers: counts.trailers,
    powerModels: TRACTORS,
    trailerModels: VAN_TRAILERS,
    powerUnitNumber: (i) => String(base + i),
    trailerUnitNumber: (j) => String(base + 50 + j),
    inspections: 0,
    spanDays: 1,
    violationRate: 0,
    weights: {},
    crashes: 0,
  }).units;
}

/** The row's equipment: its own units plus the root's shared slots when it shares equipment. */
export function populationUnits(seed: number, row: number, size: number): Unit[] {
  const id = populationIdentity(seed, row);
  const own = ownUnits(seed, id);
  const sharers = networkRows(seed, row, 'equipment', size).map(dotOfRow);
  const root = blockRoot(row);
  if (row === root) {
    return own.map((u, i) => (i < SHARED_UNIT_SLOTS && u.model.kind === 'POWER UNIT' ? { ...u, sharedWith: sharers } : u));
  }
  if (!sharesWithRoot(seed, row, 'equipment')) return own;
  const rootUnits = ownUnits(seed, populationIdentity(seed, root))
    .filter((u, i) => i < SHARED_UNIT_SLOTS && u.model.kind === 'POWER UNIT')
    .map((u) => ({ ...u, sharedWith: sharers }));
  return [...own, ...rootUnits];
}

function entityType(kind: PopulationIdentity['kind']): string {
  if (kind === 'broker') return 'Broker';
  return kind === 'broker_carrier' ? 'Broker,Carrier' : 'Carrier';
}

function pastValues(id: PopulationIdentity, added: string, rng: Rng): PastValue[] {
  const out: PastValue[] = [];
  const change = daysAgo(rng.int(30, 900));
  const push = (key: PastValue['key'], value: string | undefined) => {
    if (value !== undefined && added < change) out.push({ key, value, start: added, end: change });
  };
  push('legal_name', id.past.name);
  push('telephone_number', id.past.phone);
  push('email_address', id.past.email);
  push('physical_address', id.past.address);
  return out;
}

function percentilesFor(rng: Rng, quality: number): Partial<Record<Basic, number>> {
  const draw = () => Math.round(Math.min(0.99, Math.max(0.01, quality + (rng.next() - 0.5) * 0.5)) * 100) / 100;
  return {
    unsafe_driving: draw(),
    hours_of_service: draw(),
    vehicle_maintence: draw(),
    driver_fitness: draw(),
    crash_indicator: draw(),
  };
}

function network(seed: number, row: number, size: number): Partial<Record<NetworkKind, string[]>> {
  const dots = (key: Parameters<typeof networkRows>[2]) => networkRows(seed, row, key, size).map(dotOfRow);
  return {
    telephone_number: dots('phone'),
    physical_address: dots('address'),
    email: dots('email'),
    ein: dots('ein'),
    equipment: dots('equipment'),
  };
}

function links(seed: number, units: Unit[], equipment: string[]): EquipmentLink[] {
  return equipment.map((dot) => {
    const other = populationIdentity(seed, Number(dot) - Number(dotOfRow(0)));
    const vins = units.filter((u) => u.sharedWith.includes(dot));
    return equipmentLink(
      {
        dot,
        docket: other.docketPrefix ? { prefix: other.docketPrefix, number: other.docketNumber ?? '' } : undefined,
        legalName: other.legalName,
        entityType: entityType(other.kind),
        usdotStatus: 'Active',
        outOfService: false,
        operation: other.kind === 'intrastate' ? 'intrastate' : 'interstate',
        hazmat: false,
      },
      vins,
    );
  });
}

export function populationModel(seed: number, row: number, size: number): CarrierModel {
  const id = populationIdentity(seed, row);
  const rng = new Rng(seed, row, 0x30de1);
  const units = populationUnits(seed, row, size);
  const power = units.filter((u) => u.model.kind === 'POWER UNIT').length;
  const fleetSize = id.kind === 'broker' ? 0 : power * rng.int(1, 6);
  const addedDays = rng.int(120, 9000);
  const added = daysAgo(addedDays);
  const revoked = rng.chance(0.06) ? daysAgo(rng.int(20, Math.max(21, addedDays - 60))) : undefined;
  const quality = rng.next() * 0.8;
  const interstate = id.kind !== 'intrastate';
  const authorityKinds: ('common' | 'broker')[] =
    id.kind === 'broker' ? ['broker'] : id.kind === 'broker_carrier' ? ['common', 'broker'] : interstate ? ['common'] : [];
  const grantDay = daysAgo(Math.max(10, addedDays - rng.int(10, 90)));
  const records = makeRecords(rng, {
    codeBase: row * UNITS_PER_ROW,
    plateState: id.region.code,
    lanes: lanesFrom(rng, id.region.code, interstate ? 3 : 0),
    power: 0,
    trailers: 0,
    powerModels: TRACTORS,
    trailerModels: VAN_TRAILERS,
    extraUnits: units,
    inspections: id.kind === 'broker' ? 0 : Math.min(40, power * rng.int(0, 5)),
    spanDays: 720,
    violationRate: 0.3 + quality * 1.5,
    weights: DEFAULT_WEIGHTS,
    crashes: power > 3 ? rng.int(0, 3) : 0,
  });
  const bipd = interstate && id.kind !== 'broker' ? 750_000 : 0;
  const policies = [
    ...(bipd > 0
      ? [policy(rng, 'BIPD', rng.pick(INSURERS), rng.pick([750_000, 1_000_000]), grantDay, revoked ? { method: 'CANCELLED', date: revoked } : undefined)]
      : []),
    ...(authorityKinds.includes('broker') ? [policy(rng, 'SURETY', rng.pick(SURETIES), 75_000, grantDay)] : []),
  ];
  const contact = `${rng.pick(FIRST_NAMES)} ${rng.pick(SURNAMES)}`;
  const risk = interstate && id.kind !== 'broker' ? quality + (revoked ? 0.3 : 0) : undefined;
  const model: CarrierModel = {
    dot: id.dot,
    docket: id.docketPrefix ? { prefix: id.docketPrefix, number: id.docketNumber ?? '' } : undefined,
    ein: id.ein,
    legalName: id.legalName,
    dbaName: id.dbaName,
    entityType: entityType(id.kind),
    operation: interstate ? 'interstate' : 'intrastate',
    organization: /LLC$/.test(id.legalName) ? 'LIMITED LIABILITY COMPANY' : 'CORPORATION',
    operationClasses: id.kind === 'broker' ? [] : interstate ? ['authorized_for_hire'] : ['private_property'],
    passenger: false,
    hazmat: false,
    usdotStatus: revoked ? 'Inactive' : 'Active',
    outOfService: false,
    addedDate: added,
    authority: {
      grants: authorityKinds.map((kind) => ({
        kind,
        action: 'Granted' as const,
        served: grantDay,
        ...(revoked ? { dispensation: { action: 'Revoked' as const, served: revoked } } : {}),
      })),
    },
    required: { bipd, cargo: 0, bond: authorityKinds.includes('broker') ? 75_000 : 0 },
    policies,
    rating: { desc: rng.chance(0.2) ? 'Satisfactory' : 'Not Rated' },
    risk:
      risk === undefined
        ? undefined
        : { level: risk < 0.25 ? 'Low' : risk < 0.45 ? 'Medium' : risk < 0.65 ? 'High' : 'Very High', probability: Math.round(Math.min(0.99, risk) * 1000) / 1000 },
    percentiles: percentilesFor(rng, quality),
    fleet:
      id.kind === 'broker'
        ? undefined
        : {
            powerUnits: fleetSize,
            drivers: fleetSize + rng.int(0, 3),
            cdlDrivers: fleetSize,
            trucks: fleetSize,
            trailers: Math.round(fleetSize * 1.3),
            buses: 0,
            ownedTractors: fleetSize,
            ownedTrailers: Math.round(fleetSize * 1.3),
            termLeasedTractors: 0,
            termLeasedTrailers: 0,
            tripLeasedDrivers: 0,
            mileage: fleetSize * rng.int(40_000, 120_000),
            mcs150Date: daysAgo(rng.int(10, Math.min(addedDays, 900))),
            localShare: interstate ? 0.2 : 0.9,
          },
    cargo: id.kind === 'broker' ? [] : rng.chance(0.5) ? ['general_freight'] : ['general_freight', 'building_materials'],
    phone: id.phone,
    email: id.email,
    contactPrimary: contact,
    physical: id.address,
    contactSince: added,
    boc3: interstate ? { company: rng.pick(PROCESS_AGENTS), attn: 'PROCESS AGENT', address: makeAddress(rng, id.region) } : undefined,
    past: pastValues(id, added, rng),
    units,
    inspections: records.inspections,
    crashes: records.crashes,
    network: network(seed, row, size),
    equipmentLinks: [],
    loads: undefined,
    basicHistoryMonths: 6,
  };
  model.equipmentLinks = links(seed, units, model.network.equipment ?? []);
  return model;
}

/** Shared building blocks for curated and generated carriers: records from a plan, linking. */
import type { Basic } from './basics.ts';
import { makeCrashes, makeInspections, makeUnits } from './generate.ts';
import type { CarrierModel, Crash, EquipmentLink, Inspection, NetworkKind, Unit } from './model.ts';
import type { Rng } from './prng.ts';

export interface RecordPlan {
  /** unit code of the carrier's first unit */
  codeBase: number;
  plateState: string;
  lanes: string[];
  power: number;
  trailers: number;
  powerModels: readonly string[];
  trailerModels: readonly string[];
  powerUnitNumber?: (i: number) => string;
  trailerUnitNumber?: (i: number) => string;
  inspections: number;
  spanDays: number;
  violationRate: number;
  weights: Partial<Record<Basic, number>>;
  hazmatShare?: number;
  oosFactor?: number;
  crashes: number;
  crashSpanDays?: number;
  fatalShare?: number;
  forcedFatal?: number;
  /** extra units (e.g. shared with another carrier) that inspections may also involve */
  extraUnits?: Unit[];
}

export interface Records {
  units: Unit[];
  inspections: Inspection[];
  crashes: Crash[];
}

export const DEFAULT_WEIGHTS: Partial<Record<Basic, number>> = {
  unsafe_driving: 3,
  hours_of_service: 3,
  vehicle_maintence: 6,
  driver_fitness: 1,
  controlled_substance: 0.1,
};

export function makeRecords(rng: Rng, plan: RecordPlan): Records {
  const power = makeUnits(rng, {
    count: plan.power,
    models: plan.powerModels,
    codeBase: plan.codeBase,
    plateState: plan.plateState,
    unitNumber: plan.powerUnitNumber ?? ((i) => String(101 + i)),
  });
  const trailers = makeUnits(rng, {
    count: plan.trailers,
    models: plan.trailerModels,
    codeBase: plan.codeBase + plan.power,
    plateState: plan.plateState,
    unitNumber: plan.trailerUnitNumber ?? ((i) => `T${501 + i}`),
  });
  const units = [...power, ...trailers, ...(plan.extraUnits ?? [])];
  const reportBase = plan.codeBase % 90_000_000;
  return {
    units,
    inspections: makeInspections(rng, {
      count: plan.inspections,
      spanDays: plan.spanDays,
      units,
      lanes: plan.lanes,
      violationRate: plan.violationRate,
      basicWeights: plan.weights,
      hazmatShare: plan.hazmatShare ?? 0,
      oosFactor: plan.oosFactor ?? 1,
      reportBase,
    }),
    crashes: makeCrashes(rng, {
      count: plan.crashes,
      spanDays: plan.crashSpanDays ?? plan.spanDays,
      units,
      lanes: plan.lanes,
      fatalShare: plan.fatalShare ?? 0.03,
      forcedFatal: plan.forcedFatal,
      reportBase,
    }),
  };
}

/** Copies of `units` recorded as also used by `otherDot`. */
export function sharedCopies(units: readonly Unit[], otherDot: string): Unit[] {
  return units.map((u) => ({ ...u, sharedWith: [...u.sharedWith, otherDot] }));
}

export type LinkedCarrier = Pick<
  CarrierModel,
  'dot' | 'docket' | 'legalName' | 'entityType' | 'usdotStatus' | 'outOfService' | 'operation' | 'hazmat'
>;

/** The equipment-network entry describing `other` as seen from a carrier sharing `vins` with it. */
export function equipmentLink(other: LinkedCarrier, vins: Unit[]): EquipmentLink {
  return {
    dot: other.dot,
    dockets: other.docket ? `${other.docket.prefix}${other.docket.number}` : undefined,
    legalName: other.legalName,
    entityType: other.entityType,
    usdotStatus: other.usdotStatus,
    outOfService: other.outOfService,
    operation: other.operation,
    hazmat: other.hazmat,
    sharedVins: vins,
  };
}

/** Record that `a` and `b` share the identifiers of `kinds` (both network lists point across). */
export function linkNetwork(a: CarrierModel, b: CarrierModel, kinds: NetworkKind[]): void {
  for (const kind of kinds) {
    a.network[kind] = [...new Set([...(a.network[kind] ?? []), b.dot])];
    b.network[kind] = [...new Set([...(b.network[kind] ?? []), a.dot])];
  }
}

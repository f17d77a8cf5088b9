/**
 * Facts derived once from a carrier model and shared by the wire families: authority status per
 * kind, insurance on file, inspection/violation tallies, alerts. Keeping them in one place is what
 * makes counters, alerts and risk factors agree with the arrays.
 */
import {
  BASICS,
  interventionThreshold,
  isDriverBasic,
  type Basic,
  type CarrierClass,
} from './basics.ts';
import { SNAPSHOT_DATE, ageInDays } from './calendar.ts';
import type { AuthorityKind, CarrierModel, Inspection, Policy, PolicyType } from './model.ts';
import { maxDate } from './wire-helpers.ts';

export const NATIONAL_OOS = { vehicle: 0.2226, driver: 0.0667, hazmat: 0.0444 };
export const AUTHORITY_KINDS: readonly AuthorityKind[] = ['common', 'contract', 'broker'];

interface AuthorityState {
  status: 'Active' | 'Inactive' | 'None';
  firstServed?: string;
  lastServed?: string;
  lastRevoked?: string;
}

interface InspectionTally {
  total: number;
  driver: number;
  vehicle: number;
  hazmat: number;
  driverOos: number;
  vehicleOos: number;
  hazmatOos: number;
}

export interface Derived {
  carrierClass: CarrierClass;
  forHire: boolean;
  /** tri-state indicators apply (interstate for-hire carriers, brokers, forwarders) */
  regulated: boolean;
  authority: Record<AuthorityKind, AuthorityState>;
  revocations: string[];
  onFile: Record<PolicyType, number>;
  activePolicies: Policy[];
  pendingCancel?: string;
  cancelled: string[];
  tally: InspectionTally;
  percentiles: Partial<Record<Basic, number>>;
  alerts: Basic[];
  severeRecent: boolean;
  lastInspection?: string;
  inspectedStates: Set<string>;
}

export function isDriverInspection(i: Inspection): boolean {
  return i.level !== 5;
}

export function isVehicleInspection(i: Inspection): boolean {
  return i.level !== 3;
}

/** SMS time weight of an event: 3 within 6 months, 2 within a year, 1 within 2 years, else 0. */
export function timeWeight(date: string, asOf = SNAPSHOT_DATE): number {
  const age = ageInDays(date) - ageInDays(asOf);
  if (age < 0) return 0;
  if (age <= 182) return 3;
  if (age <= 365) return 2;
  if (age <= 730) return 1;
  return 0;
}

function authorityState(model: CarrierModel, kind: AuthorityKind): AuthorityState {
  const grants = model.authority.grants
    .filter((g) => g.kind === kind)
    .sort((a, b) => (a.served < b.served ? -1 : 1));
  const last = grants.at(-1);
  if (!last) return { status: 'None' };
  const revoked = grants.flatMap((g) =>
    g.dispensation?.action === 'Revoked' ? [g.dispensation.served] : [],
  );
  const ended = last.dispensation !== undefined && last.dispensation.served <= SNAPSHOT_DATE;
  return {
    status: ended ? 'Inactive' : 'Active',
    firstServed: grants[0]?.served,
    lastServed: last.served,
    lastRevoked: maxDate(revoked),
  };
}

function isActivePolicy(p: Policy): boolean {
  return p.effective <= SNAPSHOT_DATE && (!p.cancel || p.cancel.date > SNAPSHOT_DATE);
}

function tallyInspections(inspections: readonly Inspection[]): InspectionTally {
  const t: InspectionTally = {
    total: inspections.length,
    driver: 0,
    vehicle: 0,
    hazmat: 0,
    driverOos: 0,
    vehicleOos: 0,
    hazmatOos: 0,
  };
  for (const i of inspections) {
    const oos = (pred: (b: Basic) => boolean) =>
      i.violations.some((v) => v.oos && pred(v.type.basic));
    if (isDriverInspection(i)) {
      t.driver += 1;
      if (oos((b) => isDriverBasic(b))) t.driverOos += 1;
    }
    if (isVehicleInspection(i)) {
      t.vehicle += 1;
      if (oos((b) => b === 'vehicle_maintence')) t.vehicleOos += 1;
    }
    if (i.hazmat) {
      t.hazmat += 1;
      if (oos((b) => b === 'hazardous_materials')) t.hazmatOos += 1;
    }
  }
  return t;
}

/** A percentile is only published when the BASIC has data (SMS data sufficiency, simplified). */
function sufficientPercentiles(model: CarrierModel): Partial<Record<Basic, number>> {
  const out: Partial<Record<Basic, number>> = {};
  for (const basic of BASICS) {
    const value = model.percentiles[basic];
    if (value === undefined) continue;
    const hasData =
      basic === 'crash_indicator'
        ? model.crashes.filter((c) => timeWeight(c.date) > 0).length >= 2
        : model.inspections.some(
            (i) => timeWeight(i.date) > 0 && i.violations.some((v) => v.type.basic === basic),
          );
    if (hasData) out[basic] = value;
  }
  return out;
}

function carrierClassOf(model: CarrierModel): CarrierClass {
  if (model.passenger) return 'passenger';
  return model.hazmat ? 'hazmat' : 'general';
}

export function derive(model: CarrierModel): Derived {
  const carrierClass = carrierClassOf(model);
  const forHire = model.operationClasses.includes('authorized_for_hire');
  const authority = {
    common: authorityState(model, 'common'),
    contract: authorityState(model, 'contract'),
    broker: authorityState(model, 'broker'),
  };
  const activePolicies = model.policies.filter(isActivePolicy);
  const onFile = { BIPD: 0, CARGO: 0, SURETY: 0 };
  for (const p of activePolicies) onFile[p.type] = Math.max(onFile[p.type], p.amount);
  const percentiles = sufficientPercentiles(model);
  const alerts = BASICS.filter(
    (b) => (percentiles[b] ?? -1) >= interventionThreshold(carrierClass, b),
  );
  return {
    carrierClass,
    forHire,
    regulated: model.operation === 'interstate' && (forHire || !model.entityType.startsWith('Carrier')),
    authority,
    revocations: model.authority.grants.flatMap((g) =>
      g.dispensation?.action === 'Revoked' ? [g.dispensation.served] : [],
    ),
    onFile,
    activePolicies,
    pendingCancel: maxDate(activePolicies.flatMap((p) => (p.cancel ? [p.cancel.date] : []))),
    cancelled: model.policies.flatMap((p) =>
      p.cancel && p.cancel.date <= SNAPSHOT_DATE ? [p.cancel.date] : [],
    ),
    tally: tallyInspections(model.inspections),
    percentiles,
    alerts,
    severeRecent: model.inspections.some(
      (i) => timeWeight(i.date) > 0 && i.violations.some((v) => v.type.severity >= 7),
    ),
    lastInspection: maxDate(model.inspections.map((i) => i.date)),
    inspectedStates: new Set(model.inspections.map((i) => i.state)),
  };
}


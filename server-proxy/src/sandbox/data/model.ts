/**
 * The internal description of a carrier that every generator (curated, population, heavy) produces
 * and `buildProfile` turns into the wire profile. Only primary facts live here; every count, alert,
 * aggregate and flag of the wire profile is derived from them, so the two can never disagree.
 */
import type { Basic, ViolationType } from './basics.ts';
import type { VehicleModel } from './vehicles.ts';

export interface Address {
  street: string;
  city: string;
  state: string;
  zip: string;
  country: 'US' | 'CA';
  lat: number;
  lon: number;
}

export type AuthorityKind = 'common' | 'contract' | 'broker';

interface AuthorityGrant {
  kind: AuthorityKind;
  action: 'Granted' | 'Reinstated';
  served: string;
  dispensation?: { action: 'Revoked' | 'Dismissed' | 'Discontinued'; served: string };
}

export interface AuthorityModel {
  grants: AuthorityGrant[];
  pending?: AuthorityKind[];
  review?: AuthorityKind[];
  /** kinds with a revocation proceeding under way */
  revocation?: AuthorityKind[];
}

export type PolicyType = 'BIPD' | 'CARGO' | 'SURETY';

export interface Policy {
  type: PolicyType;
  formCode: string;
  insurer: string;
  number: string;
  effective: string;
  amount: number;
  underlying?: number;
  cancel?: { method: 'CANCELLED' | 'REPLACED' | 'NOT RENEWED'; date: string };
}

export interface Unit {
  vin: string;
  model: VehicleModel;
  modelYear: number;
  plate: string;
  plateState: string;
  unitNumber: string;
  /** other DOTs this VIN was also inspected under */
  sharedWith: string[];
}

export interface InspectionViolation {
  type: ViolationType;
  oos: boolean;
  /** index into the inspection's units (0 = power unit, 1 = trailer) for vehicle violations */
  unitIndex: number;
}

export interface Inspection {
  reportNumber: string;
  state: string;
  city: string;
  date: string;
  startMinute: number;
  durationMinutes: number;
  level: 1 | 2 | 3 | 4 | 5 | 6;
  lat: number;
  lon: number;
  fixedSite: boolean;
  hazmat: boolean;
  grossWeight: number;
  units: Unit[];
  violations: InspectionViolation[];
}

export interface Crash {
  reportNumber: string;
  state: string;
  city: string;
  date: string;
  time: string;
  lat: number;
  lon: number;
  location: string;
  fatalities: number;
  injuries: number;
  towAway: boolean;
  vehicles: number;
  unit: Unit;
  hazmatReleased: boolean;
  weather: number;
  light: number;
  surface: number;
}

export type NetworkKind =
  | 'physical_address'
  | 'mailing_address'
  | 'telephone_number'
  | 'cellphone_number'
  | 'fax_number'
  | 'email'
  | 'ein'
  | 'duns'
  | 'equipment';

export interface EquipmentLink {
  dot: string;
  dockets?: string;
  legalName: string;
  entityType: string;
  usdotStatus: string;
  outOfService: boolean;
  operation: string;
  hazmat: boolean;
  sharedVins: Unit[];
}

export type ContactKey =
  | 'legal_name'
  | 'dba_name'
  | 'telephone_number'
  | 'fax_number'
  | 'cellphone_number'
  | 'email_address'
  | 'physical_address'
  | 'mailing_address'
  | 'company_contact_primary';

/** A value that was on the record before and has been replaced. */
export interface PastValue {
  key: ContactKey;
  value: string;
  start: string;
  end: string;
}

type RiskLevel = 'Low' | 'Medium' | 'High' | 'Very High';

export type OperationClass =
  | 'authorized_for_hire'
  | 'exempt_for_hire'
  | 'private_property'
  | 'private_pass_business'
  | 'private_pass_non_business'
  | 'migrant'
  | 'us_mail'
  | 'federal_govt'
  | 'state_govt'
  | 'local_govt'
  | 'indian_nation';

export interface Fleet {
  powerUnits: number;
  drivers: number;
  cdlDrivers: number;
  trucks: number;
  trailers: number;
  buses: number;
  ownedTractors: number;
  ownedTrailers: number;
  termLeasedTractors: number;
  termLeasedTrailers: number;
  tripLeasedDrivers: number;
  mileage: number;
  mcs150Date: string;
  /** share of drivers operating within 100 miles */
  localShare: number;
}

interface Loads {
  total: number;
  ltl: number;
  deadheads: number;
  first: string;
  last: string;
}

export interface Boc3 {
  company: string;
  attn: string;
  address: Address;
}

export interface CarrierModel {
  dot: string;
  docket?: { prefix: 'MC' | 'MX' | 'FF'; number: string };
  /** further dockets listed in `icc_dockets` (e.g. an FF next to the MC) */
  extraDockets?: string[];
  ein?: string;
  duns?: string;
  legalName: string;
  dbaName?: string;
  entityType: string;
  operation: 'interstate' | 'intrastate';
  organization: string;
  operationClasses: OperationClass[];
  passenger: boolean;
  hazmat: boolean;
  householdGoods?: boolean;
  smartway?: boolean;
  carbtru?: boolean;
  phmsa?: boolean;
  usdotStatus: string;
  outOfService: boolean;
  addedDate: string;
  authority: AuthorityModel;
  required: { bipd: number; cargo: number; bond: number };
  policies: Policy[];
  rating: { desc: 'Satisfactory' | 'Conditional' | 'Unsatisfactory' | 'Not Rated'; date?: string };
  review?: { type: string; date: string };
  /** vendor risk score; absent for intrastate, private and non-carrier entities */
  risk?: { level: RiskLevel; probability: number };
  /** fixed inspection-selection score (else derived from the BASICs) */
  issValue?: number;
  percentiles: Partial<Record<Basic, number>>;
  acuteCritical?: Basic[];
  fleet?: Fleet;
  cargo: string[];
  otherCargoDesc?: string;
  phone: string;
  fax?: string;
  cell?: string;
  email?: string;
  contactPrimary?: string;
  contactSecondary?: string;
  physical: Address;
  mailing?: Address;
  undeliverableMailing?: boolean;
  /** date the current contact values started (unless a past value says otherwise) */
  contactSince: string;
  boc3?: Boc3;
  past: PastValue[];
  units: Unit[];
  inspections: Inspection[];
  crashes: Crash[];
  network: Partial<Record<NetworkKind, string[]>>;
  equipmentLinks: EquipmentLink[];
  loads?: Loads;
  /** months of `basic_history` snapshots */
  basicHistoryMonths: number;
}

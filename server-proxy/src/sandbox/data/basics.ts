/** The seven BASICs (spec spelling), their thresholds, and a catalogue of roadside violations. */

export {
  BASIC_CATEGORIES as BASICS,
  BASIC_LABELS,
  HISTORY_BASICS,
  VIOLATION_CATEGORIES as VIOLATION_BASICS,
  interventionThreshold,
  type BasicCategory as Basic,
  type CarrierClass,
} from '../../../../src/lib/service/basics.ts';
import type { BasicCategory as Basic } from '../../../../src/lib/service/basics.ts';

/** Whether a BASIC's violations are found in driver inspections (else vehicle/hazmat ones). */
export function isDriverBasic(basic: Basic): boolean {
  return (
    basic === 'unsafe_driving' ||
    basic === 'hours_of_service' ||
    basic === 'controlled_substance' ||
    basic === 'driver_fitness'
  );
}

type ViolationUnit = 'D' | '1' | '2';

export interface ViolationType {
  code: string;
  basic: Exclude<Basic, 'crash_indicator'>;
  group: string;
  desc: string;
  severity: number;
  unit: ViolationUnit;
  /** probability that a violation of this kind puts the driver/vehicle out of service */
  oosRate: number;
}

function v(
  code: string,
  basic: ViolationType['basic'],
  group: string,
  severity: number,
  unitCode: ViolationUnit,
  oosRate: number,
  desc: string,
): ViolationType {
  return { code, basic, group, desc, severity, unit: unitCode, oosRate };
}

export const VIOLATION_TYPES: readonly ViolationType[] = [
  v('392.2-SLLS2', 'unsafe_driving', 'Speeding 2', 4, 'D', 0, 'State/Local Laws - Speeding 6-10 miles per hour over the speed limit'),
  v('392.2-SLLS3', 'unsafe_driving', 'Speeding 3', 7, 'D', 0, 'State/Local Laws - Speeding 11-14 miles per hour over the speed limit'),
  v('392.16', 'unsafe_driving', 'Seat Belt', 7, 'D', 0, 'Failing to use seat belt while operating a CMV'),
  v('392.80(a)', 'unsafe_driving', 'Dangerous Driving', 10, 'D', 0, 'Driving a CMV while texting'),
  v('392.2FC', 'unsafe_driving', 'Dangerous Driving', 5, 'D', 0, 'Following too close'),
  v('395.8(e)', 'hours_of_service', 'False Log', 7, 'D', 0.5, "False report of driver's record of duty status"),
  v('395.3(a)(2)', 'hours_of_service', 'Hours', 7, 'D', 0.6, 'Requiring or permitting driver to drive beyond 14 hour period'),
  v('395.8(a)', 'hours_of_service', 'Incomplete/Wrong Log', 5, 'D', 0.3, 'No record of duty status'),
  v('395.8(f)(1)', 'hours_of_service', 'Incomplete/Wrong Log', 2, 'D', 0, "Driver's record of duty status not current"),
  v('393.9', 'vehicle_maintence', 'Lighting', 6, '1', 0.1, 'Inoperable required lamp'),
  v('393.75(c)', 'vehicle_maintence', 'Tires', 8, '1', 0.4, 'Tire-other tread depth less than 2/32 of inch'),
  v('393.47(e)', 'vehicle_maintence', 'Brakes, All Others', 4, '1', 0.2, 'Clamp or Roto-Chamber type brake(s) out of adjustment'),
  v('396.3(a)(1)', 'vehicle_maintence', 'Inspection Reports', 4, '2', 0.2, 'Inspection, repair and maintenance of parts and accessories'),
  v('393.45(d)', 'vehicle_maintence', 'Brakes, All Others', 4, '2', 0.3, 'Brake connections with leaks or constrictions'),
  v('393.207(c)', 'vehicle_maintence', 'Suspension', 7, '2', 0.5, 'Leaf spring assembly defective/missing'),
  v('392.4(a)', 'controlled_substance', 'Drugs', 10, 'D', 1, 'Driver uses or is in possession of drugs'),
  v('392.5(a)(2)', 'controlled_substance', 'Alcohol', 10, 'D', 1, 'Possession/use/under influence of alcohol less than 4 hours prior to duty'),
  v('391.41(a)-FPM', 'driver_fitness', 'Medical Certificate', 1, 'D', 0, "Driver not in possession of medical certificate"),
  v('383.23(a)(2)', 'driver_fitness', 'License-related: High', 8, 'D', 1, 'Operating a CMV without a valid CDL'),
  v('391.11(b)(2)', 'driver_fitness', 'General Driver Qualification', 4, 'D', 1, 'Non-English speaking driver'),
  v('177.817(a)', 'hazardous_materials', 'Documentation', 5, '1', 0.2, 'Carrier failing to have a shipping paper for a hazardous material'),
  v('172.516(c)(6)', 'hazardous_materials', 'Placards', 3, '1', 0, 'Placard damaged, deteriorated or obscured'),
  v('180.407(a)', 'hazardous_materials', 'Cargo Tank', 5, '2', 0.5, 'Cargo tank not tested or inspected as required'),
  v('177.834(i)(3)', 'hazardous_materials', 'Loading/Unloading', 4, '1', 0.3, 'Cargo tank unattended during unloading'),
];

export const VIOLATION_GROUP_IDS: Record<string, number> = Object.fromEntries(
  [...new Set(VIOLATION_TYPES.map((t) => t.group))].map((g, i) => [g, i + 1]),
);

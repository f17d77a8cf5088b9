/**
 * The seven BASICs of FMCSA's SMS as the service spells them (`vehicle_maintence`), with their labels
 * and the carrier-type default intervention thresholds (product-notes). A profile's own
 * `intervention_threshold_<c>` wins over these defaults when present.
 */

export const BASIC_CATEGORIES = [
  'unsafe_driving',
  'hours_of_service',
  'vehicle_maintence',
  'controlled_substance',
  'driver_fitness',
  'hazardous_materials',
  'crash_indicator',
] as const;
export type BasicCategory = (typeof BASIC_CATEGORIES)[number];

/** The six BASICs with violations and an acute/critical indicator (all but crash_indicator). */
export const VIOLATION_CATEGORIES = [
  'unsafe_driving',
  'hours_of_service',
  'vehicle_maintence',
  'controlled_substance',
  'driver_fitness',
  'hazardous_materials',
] as const satisfies readonly BasicCategory[];

/** The five BASICs that `basic_history` snapshots carry. */
export const HISTORY_BASICS = [
  'unsafe_driving',
  'hours_of_service',
  'driver_fitness',
  'controlled_substance',
  'vehicle_maintence',
] as const satisfies readonly BasicCategory[];

export const BASIC_LABELS: Record<BasicCategory, string> = {
  unsafe_driving: 'Unsafe Driving',
  hours_of_service: 'Hours-of-Service Compliance',
  vehicle_maintence: 'Vehicle Maintenance',
  controlled_substance: 'Controlled Substances/Alcohol',
  driver_fitness: 'Driver Fitness',
  hazardous_materials: 'Hazardous Materials Compliance',
  crash_indicator: 'Crash Indicator',
};

/** BASICs whose percentile the service computes itself rather than FMCSA publishing it. */
export const SERVICE_COMPUTED_BASICS: readonly BasicCategory[] = [
  'crash_indicator',
  'hazardous_materials',
];

export type CarrierClass = 'general' | 'passenger' | 'hazmat';

const DEFAULT_THRESHOLDS: Record<CarrierClass, Record<BasicCategory, number>> = {
  general: {
    unsafe_driving: 0.65,
    hours_of_service: 0.65,
    crash_indicator: 0.65,
    vehicle_maintence: 0.8,
    controlled_substance: 0.8,
    driver_fitness: 0.8,
    hazardous_materials: 0.8,
  },
  passenger: {
    unsafe_driving: 0.5,
    hours_of_service: 0.5,
    crash_indicator: 0.5,
    vehicle_maintence: 0.65,
    controlled_substance: 0.65,
    driver_fitness: 0.65,
    hazardous_materials: 0.8,
  },
  hazmat: {
    unsafe_driving: 0.6,
    hours_of_service: 0.6,
    crash_indicator: 0.6,
    vehicle_maintence: 0.75,
    controlled_substance: 0.75,
    driver_fitness: 0.75,
    hazardous_materials: 0.8,
  },
};

/** FMCSA SMS default intervention threshold (0-1) of a BASIC for a carrier class. */
export function interventionThreshold(carrierClass: CarrierClass, basic: BasicCategory): number {
  return DEFAULT_THRESHOLDS[carrierClass][basic];
}

/**
 * A carrier's BASIC percentiles against their intervention thresholds and its out-of-service
 * rates against the national averages, as rows: the profile's Safety tab and the Compare page
 * draw the same numbers from here (pure; no feature imports another).
 */
import {
  BASIC_CATEGORIES,
  BASIC_LABELS,
  SERVICE_COMPUTED_BASICS,
  interventionThreshold,
  type BasicCategory,
  type CarrierClass,
} from '../service/basics.ts';
import type { Profile } from '../service/profile.ts';

/** Passenger carriers first (FMCSA applies the lower thresholds), then hazmat, else general. */
export function carrierClassOf(profile: Profile): CarrierClass {
  if (
    profile.passenger === true ||
    profile.operation_class_private_pass_business === true ||
    profile.operation_class_private_pass_non_business === true
  ) {
    return 'passenger';
  }
  if (profile.hazardous_material === true || profile.phmsa_flag === true) return 'hazmat';
  return 'general';
}

export interface BasicRow {
  category: BasicCategory;
  label: string;
  /** 0–1; undefined when data sufficiency is not met */
  percentile: number | undefined;
  threshold: number;
  /** where the threshold came from: the profile's own field or the carrier-class default */
  thresholdSource: 'profile' | 'default';
  measure: number | undefined;
  alert: boolean;
  roadsideAlert: boolean;
  /** acute/critical violation indicator (crash_indicator has none) */
  acuteCritical: boolean;
  insufficientData: boolean;
  serviceComputed: boolean;
}

function thresholdOf(profile: Profile, carrierClass: CarrierClass, category: BasicCategory) {
  const own = profile[`intervention_threshold_${category}`];
  return own === undefined
    ? {
        threshold: interventionThreshold(carrierClass, category),
        thresholdSource: 'default' as const,
      }
    : { threshold: own, thresholdSource: 'profile' as const };
}

function acuteCriticalOf(profile: Profile, category: BasicCategory): boolean {
  return category === 'crash_indicator'
    ? false
    : profile[`basic_ac_indicator_${category}`] === true;
}

/** One row per BASIC, in the service's category order. */
export function buildBasicRows(profile: Profile): BasicRow[] {
  const carrierClass = carrierClassOf(profile);
  return BASIC_CATEGORIES.map((category) => {
    const percentile = profile[`basic_percentile_${category}`];
    return {
      category,
      label: BASIC_LABELS[category],
      percentile,
      ...thresholdOf(profile, carrierClass, category),
      measure: profile[`basic_measure_${category}`],
      alert: profile[`basic_alert_${category}`] === true,
      roadsideAlert: profile[`basic_roadside_alert_${category}`] === true,
      acuteCritical: acuteCriticalOf(profile, category),
      insufficientData: percentile === undefined,
      serviceComputed: SERVICE_COMPUTED_BASICS.includes(category),
    };
  });
}

/** The words for a row's markers (never colour alone). */
export function basicMarkers(row: BasicRow): string[] {
  const markers: string[] = [];
  if (row.alert) markers.push('Alert');
  if (row.roadsideAlert) markers.push('Roadside alert');
  if (row.acuteCritical) markers.push('Acute/critical');
  return markers;
}

const OOS_KINDS = ['driver', 'vehicle', 'hazmat'] as const;
type OosKind = (typeof OOS_KINDS)[number];

export interface OosRow {
  kind: OosKind;
  label: string;
  inspections: number | undefined;
  outOfService: number | undefined;
  carrierRate: number | undefined;
  nationalRate: number | undefined;
  alert: boolean;
}

const OOS_LABELS: Record<OosKind, string> = {
  driver: 'Driver',
  vehicle: 'Vehicle',
  hazmat: 'Hazmat',
};

export function buildOosRows(profile: Profile): OosRow[] {
  return OOS_KINDS.map((kind) => ({
    kind,
    label: OOS_LABELS[kind],
    inspections: profile[`inspections_${kind}`],
    outOfService: profile[`inspections_${kind}_out_of_service`],
    carrierRate: profile[`inspections_${kind}_out_of_service_pct`],
    nationalRate: profile[`natl_avg_oos_${kind}`],
    alert: profile[`oos_alert_${kind}`] === true,
  }));
}

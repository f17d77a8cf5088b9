/** The Overview's key figures: registration, fleet, inspections and crashes, as facts. */
import type { Fact } from '../../../../../components/Facts.tsx';
import { MISSING, formatCount, formatDate, formatPercent } from '../../../../../lib/format.ts';
import type { Profile } from '../../../../../lib/service/index.ts';

/** The USDOT number's age and registration: the evidence of the new-entrant rule. */
export function registrationFigures(profile: Profile): Fact[] {
  return [
    { term: 'USDOT number added', value: formatDate(profile.added_date) },
    {
      term: 'USDOT number age',
      value: typeof profile.dot_age === 'number' ? `${formatCount(profile.dot_age)} days` : MISSING,
    },
    { term: 'MCS-150 filed', value: formatDate(profile.mcs150_date) },
    { term: 'MCS-150 mileage', value: formatCount(profile.mcs150_mileage) },
  ];
}

export function fleetFigures(profile: Profile): Fact[] {
  return [
    { term: 'Power units', value: formatCount(profile.total_power_units) },
    { term: 'Drivers', value: formatCount(profile.total_drivers) },
    { term: 'Trailers', value: formatCount(profile.total_trailers) },
  ];
}

export function inspectionFigures(profile: Profile): Fact[] {
  return [
    { term: 'Inspections', value: formatCount(profile.inspections_total) },
    { term: 'Last inspection', value: formatDate(profile.last_inspection_date) },
    { term: 'Violations', value: formatCount(profile.violations_total) },
    {
      term: 'Vehicle out-of-service rate',
      value: `${formatPercent(profile.inspections_vehicle_out_of_service_pct)} (national ${formatPercent(profile.natl_avg_oos_vehicle)})`,
    },
    {
      term: 'Driver out-of-service rate',
      value: `${formatPercent(profile.inspections_driver_out_of_service_pct)} (national ${formatPercent(profile.natl_avg_oos_driver)})`,
    },
    { term: 'States inspected in', value: formatCount(profile.inspected_states) },
  ];
}

export function crashFigures(profile: Profile): Fact[] {
  return [
    { term: 'Crashes', value: formatCount(profile.crashes_total) },
    { term: 'Fatalities', value: formatCount(profile.crash_fatalities) },
    { term: 'Injuries', value: formatCount(profile.crash_injuries) },
    { term: 'Tow-away crashes', value: formatCount(profile.crashes_tow_away) },
    { term: 'Last crash', value: formatDate(profile.last_crash_date) },
  ];
}

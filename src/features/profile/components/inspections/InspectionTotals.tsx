import { DefinitionList, type Definition } from '../../../../components/DefinitionList.tsx';
import { formatCount, formatDate, formatPercent } from '../../../../lib/format.ts';
import type { Profile } from '../../../../lib/service/index.ts';

function oos(count: number | undefined, pct: number | undefined, national: number | undefined) {
  return `${formatCount(count)} (${formatPercent(pct)}; national ${formatPercent(national)})`;
}

/** The service's inspection counters (24 months), which may exceed the history it sends. */
function inspectionTotals(p: Profile): Definition[] {
  return [
    { term: 'Inspections', value: formatCount(p.inspections_total) },
    { term: 'Driver inspections', value: formatCount(p.inspections_driver) },
    { term: 'Vehicle inspections', value: formatCount(p.inspections_vehicle) },
    { term: 'Hazmat inspections', value: formatCount(p.inspections_hazmat) },
    {
      term: 'Driver out of service',
      value: oos(
        p.inspections_driver_out_of_service,
        p.inspections_driver_out_of_service_pct,
        p.natl_avg_oos_driver,
      ),
    },
    {
      term: 'Vehicle out of service',
      value: oos(
        p.inspections_vehicle_out_of_service,
        p.inspections_vehicle_out_of_service_pct,
        p.natl_avg_oos_vehicle,
      ),
    },
    {
      term: 'Hazmat out of service',
      value: oos(
        p.inspections_hazmat_out_of_service,
        p.inspections_hazmat_out_of_service_pct,
        p.natl_avg_oos_hazmat,
      ),
    },
    { term: 'States inspected in', value: formatCount(p.inspected_states) },
    { term: 'Last inspection', value: formatDate(p.last_inspection_date) },
  ];
}

export function InspectionTotals({ profile }: { profile: Profile }) {
  return <DefinitionList items={inspectionTotals(profile)} />;
}

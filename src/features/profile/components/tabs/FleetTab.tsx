import { csvFileName } from '../../../../components/data-table/csv.ts';
import {
  formatCount,
  formatDate,
  formatFlag,
  formatPercent,
  MISSING,
} from '../../../../lib/format.ts';
import type { Profile } from '../../../../lib/service/index.ts';
import { EquipmentHistoryTable, EquipmentSummaryTables } from '../fleet/EquipmentTables.tsx';
import {
  cargoCarried,
  cargoFlags,
  carrierFlags,
  driverMatrix,
  hasLoads,
  operationClasses,
  unitMatrix,
} from '../fleet/fleet-model.ts';
import { LoadsSection } from '../fleet/LoadsSection.tsx';
import { Checklist, Empty, Facts, Section, TableFrame, TD, TH } from '../fleet/ui.tsx';
import type { ProfileTabProps } from './types.ts';

function CountTable({
  caption,
  headers,
  rows,
}: {
  caption: string;
  headers: readonly string[];
  rows: readonly { label: string; cells: readonly (number | undefined)[] }[];
}) {
  return (
    <TableFrame caption={caption}>
      <thead>
        <tr>
          {headers.map((h, i) => (
            <th key={h} scope="col" className={i ? `${TH} text-right` : TH}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row" className={`${TD} font-normal`}>
              {row.label}
            </th>
            {row.cells.map((cell, i) => (
              <td key={i} className={`${TD} text-right`}>
                {formatCount(cell)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </TableFrame>
  );
}

function FleetSection({ profile: p }: { profile: Profile }) {
  return (
    <Section id="fleet-counts" title="Fleet and drivers">
      <Facts
        label="Fleet totals"
        facts={[
          { label: 'Power units', value: formatCount(p.total_power_units) },
          { label: 'Drivers', value: formatCount(p.total_drivers) },
          { label: 'CDL drivers', value: formatCount(p.total_drivers_cdl) },
          { label: 'Avg. trip-leased drivers', value: formatCount(p.avg_trip_leased_drivers) },
        ]}
      />
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <CountTable
          caption="Vehicles owned and term-leased"
          headers={['Vehicles', 'Total', 'Owned', 'Term-leased']}
          rows={unitMatrix(p).map((r) => ({
            label: r.label,
            cells: [r.total, r.owned, r.termLeased],
          }))}
        />
        <CountTable
          caption="Drivers by operation and radius"
          headers={['Drivers', 'Within 100 mi', 'Beyond 100 mi', 'Total']}
          rows={driverMatrix(p).map((r) => ({
            label: r.scope,
            cells: [r.within, r.beyond, r.total],
          }))}
        />
      </div>
    </Section>
  );
}

function RegistrationSection({ profile: p }: { profile: Profile }) {
  const radius = p.radius_of_operation;
  const facts = [
    { label: 'MCS-150 date', value: formatDate(p.mcs150_date) },
    { label: 'MCS-150 year', value: p.mcs150_year === undefined ? MISSING : String(p.mcs150_year) },
    { label: 'MCS-150 mileage', value: formatCount(p.mcs150_mileage) },
    { label: 'Biennial update due', value: formatDate(p.biennial_due_date) },
    { label: 'Biennial update overdue', value: formatFlag(p.biennial_overdue_flag) },
    { label: 'Ownership profile', value: p.ownership_profile?.replace(/_/g, ' ') ?? MISSING },
  ];
  if (radius) {
    facts.push(
      { label: 'Reported operation', value: radius.reported_operation_type ?? MISSING },
      {
        label: 'Drivers within 100 mi (reported)',
        value: formatPercent(radius.reported_pct_drivers_within_100mi),
      },
      {
        label: 'Radius mismatch',
        value: radius.mismatch_reasons?.length
          ? radius.mismatch_reasons.join('; ')
          : 'None reported',
      },
    );
  }
  return (
    <Section id="fleet-mcs150" title="MCS-150 registration">
      <Facts label="MCS-150 registration" facts={facts} />
    </Section>
  );
}

function OperationSection({ profile: p }: { profile: Profile }) {
  return (
    <Section
      id="fleet-operation"
      title="Operation classes"
      description={
        p.operation_classification_desc
          ? `Classified as: ${p.operation_classification_desc}`
          : undefined
      }
    >
      <Checklist label="Operation classes" items={operationClasses(p)} />
      <h4 className="mt-4 mb-2 text-sm font-semibold">Carrier type and programs</h4>
      <Checklist label="Carrier type and programs" items={carrierFlags(p)} />
    </Section>
  );
}

function CargoSection({ profile: p }: { profile: Profile }) {
  const flags = cargoFlags(p);
  const carried = cargoCarried(p);
  return (
    <Section
      id="fleet-cargo"
      title="Cargo carried"
      description={`As declared: ${p.cargo_carried ?? MISSING}${p.other_cargo_desc ? ` — other: ${p.other_cargo_desc}` : ''}`}
    >
      {carried.length ? <p className="mb-2 text-sm">Flagged: {carried.join(', ')}.</p> : null}
      {flags.length ? (
        <Checklist label="Cargo types" items={flags} />
      ) : (
        <Empty>No cargo flags reported.</Empty>
      )}
    </Section>
  );
}

/** Fleet & equipment tab: counts, MCS-150, operation classes, cargo, equipment and loads. */
export function FleetTab({ dot, profile }: ProfileTabProps) {
  const vehicles = profile.equipment_history ?? [];
  return (
    <div className="space-y-6">
      <FleetSection profile={profile} />
      <RegistrationSection profile={profile} />
      <OperationSection profile={profile} />
      <CargoSection profile={profile} />
      <Section id="fleet-equipment-summary" title="Equipment summary">
        <EquipmentSummaryTables summary={profile.equipment_summary} />
      </Section>
      <Section
        id="fleet-equipment-history"
        title="Equipment history"
        description="Vehicles seen under this DOT; multi-DOT means the VIN also ran under other carriers."
      >
        <EquipmentHistoryTable vehicles={vehicles} csvFileName={csvFileName(`equipment-${dot}`)} />
      </Section>
      {hasLoads(profile) ? <LoadsSection profile={profile} /> : null}
    </div>
  );
}

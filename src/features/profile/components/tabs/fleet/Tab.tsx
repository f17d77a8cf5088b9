import { csvFileName } from '../../../../../components/data-table/csv.ts';
import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import {
  formatCount,
  formatDate,
  formatFlag,
  formatPercent,
  MISSING,
} from '../../../../../lib/format.ts';
import type { Profile } from '../../../../../lib/service/index.ts';
import {
  EquipmentHistoryTable,
  EquipmentSummaryTables,
  ServerEquipmentHistoryTable,
} from './EquipmentTables.tsx';
import {
  cargoCarried,
  cargoFlags,
  carrierFlags,
  driverMatrix,
  hasLoads,
  operationClasses,
  unitMatrix,
} from './model.ts';
import { LoadsSection } from './LoadsSection.tsx';
import type { ProfileTabProps } from '../types.ts';
import { Facts } from '../../../../../components/Facts.tsx';
import { Section } from '../kit/Section.tsx';
import { Checklist, Empty } from '../kit/parts.tsx';

interface CountRow {
  label: string;
  cells: readonly (number | undefined)[];
}

function CountTable({
  caption,
  headers,
  rows,
}: {
  caption: string;
  headers: readonly string[];
  rows: readonly CountRow[];
}) {
  const [first = '', ...numbers] = headers;
  const columns: DataTableColumn<CountRow>[] = [
    { id: 'label', header: first, rowHeader: true, value: (row) => row.label },
    ...numbers.map((header, i) => ({
      id: `n${i}`,
      header,
      align: 'end' as const,
      value: (row: CountRow) => formatCount(row.cells[i]),
    })),
  ];
  return (
    <DataTable
      caption={caption}
      captionHidden
      sortable={false}
      columns={columns}
      data={rows}
      getRowId={(row) => row.label}
    />
  );
}

function FleetSection({ profile: p }: { profile: Profile }) {
  return (
    <Section id="fleet-counts" title="Fleet and drivers">
      <Facts
        label="Fleet totals"
        columns={4}
        items={[
          { term: 'Power units', value: formatCount(p.total_power_units) },
          { term: 'Drivers', value: formatCount(p.total_drivers) },
          { term: 'CDL drivers', value: formatCount(p.total_drivers_cdl) },
          { term: 'Avg. trip-leased drivers', value: formatCount(p.avg_trip_leased_drivers) },
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
    { term: 'MCS-150 date', value: formatDate(p.mcs150_date) },
    { term: 'MCS-150 year', value: p.mcs150_year === undefined ? MISSING : String(p.mcs150_year) },
    { term: 'MCS-150 mileage', value: formatCount(p.mcs150_mileage) },
    { term: 'Biennial update due', value: formatDate(p.biennial_due_date) },
    { term: 'Biennial update overdue', value: formatFlag(p.biennial_overdue_flag) },
    { term: 'Ownership profile', value: p.ownership_profile?.replace(/_/g, ' ') ?? MISSING },
  ];
  if (radius) {
    facts.push(
      { term: 'Reported operation', value: radius.reported_operation_type ?? MISSING },
      {
        term: 'Drivers within 100 mi (reported)',
        value: formatPercent(radius.reported_pct_drivers_within_100mi),
      },
      {
        term: 'Radius mismatch',
        value: radius.mismatch_reasons?.length
          ? radius.mismatch_reasons.join('; ')
          : 'None reported',
      },
    );
  }
  return (
    <Section id="fleet-mcs150" title="MCS-150 registration">
      <Facts label="MCS-150 registration" columns={4} items={facts} />
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

/**
 * Fleet & equipment tab: counts, MCS-150, operation classes, cargo, equipment and loads. The
 * equipment history comes from the proxy's `equipment` view when the page holds the summary.
 */
export function FleetTab({ dot, profile, source }: ProfileTabProps) {
  const vehicles = profile.equipment_history ?? [];
  const fileName = csvFileName(`equipment-${dot}`);
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
        {source === 'summary' ? (
          <ServerEquipmentHistoryTable dot={dot} csvFileName={fileName} />
        ) : (
          <EquipmentHistoryTable vehicles={vehicles} csvFileName={fileName} />
        )}
      </Section>
      {hasLoads(profile) ? <LoadsSection profile={profile} /> : null}
    </div>
  );
}

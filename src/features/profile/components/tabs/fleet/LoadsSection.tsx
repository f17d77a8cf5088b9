import { formatCount, formatDate, formatDecimal, MISSING } from '../../../../../lib/format.ts';
import {
  DataTable,
  type DataTableColumn,
} from '../../../../../components/data-table/DataTable.tsx';
import type { Profile } from '../../../../../lib/service/index.ts';
import { loadMonths } from './model.ts';
import { Facts } from '../../../../../components/Facts.tsx';
import { Section } from '../kit/Section.tsx';

/** `ltl/ftl/deadhead_percentage` are 0–100 numbers (not 0–1 rates). */
function percent100(value: number | undefined): string {
  return value === undefined ? MISSING : `${formatDecimal(value)}%`;
}

function monthLabel(month: string): string {
  return formatDate(month).replace(/^\d+ /, '');
}

type LoadMonth = ReturnType<typeof loadMonths>[number];

const MONTH_COLUMNS: readonly DataTableColumn<LoadMonth>[] = [
  { id: 'month', header: 'Month', rowHeader: true, value: (m) => monthLabel(m.month) },
  { id: 'total', header: 'Loads', value: (m) => formatCount(m.total) },
  { id: 'ltl', header: 'LTL', value: (m) => formatCount(m.ltl) },
  { id: 'ftl', header: 'FTL', value: (m) => formatCount(m.ftl) },
  { id: 'deadheads', header: 'Deadheads', value: (m) => formatCount(m.deadheads) },
];

export function LoadsSection({ profile: p }: { profile: Profile }) {
  const months = loadMonths(p);
  return (
    <Section id="fleet-loads" title="Loads" description="Loads observed for this carrier.">
      <Facts
        label="Load totals"
        columns={4}
        items={[
          { term: 'Total loads', value: formatCount(p.total_loads) },
          {
            term: 'LTL loads',
            value: `${formatCount(p.ltl_loads)} (${percent100(p.ltl_percentage)})`,
          },
          {
            term: 'FTL loads',
            value: `${formatCount(p.ftl_loads)} (${percent100(p.ftl_percentage)})`,
          },
          {
            term: 'Deadheads',
            value: `${formatCount(p.deadheads)} (${percent100(p.deadhead_percentage)})`,
          },
          { term: 'First load', value: formatDate(p.first_load_date) },
          { term: 'Last load', value: formatDate(p.last_load_date) },
        ]}
      />
      {months.length ? (
        <div className="mt-4">
          <DataTable
            caption="Loads per month"
            captionHidden
            sortable={false}
            columns={MONTH_COLUMNS}
            data={months}
            getRowId={(m) => m.month}
          />
        </div>
      ) : null}
    </Section>
  );
}

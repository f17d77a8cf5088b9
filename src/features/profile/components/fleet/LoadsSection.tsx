import { formatCount, formatDate, formatDecimal, MISSING } from '../../../../lib/format.ts';
import type { Profile } from '../../../../lib/service/index.ts';
import { loadMonths } from './fleet-model.ts';
import { Facts, Section, TableFrame, TD, TH } from './ui.tsx';

/** `ltl/ftl/deadhead_percentage` are 0–100 numbers (not 0–1 rates). */
function percent100(value: number | undefined): string {
  return value === undefined ? MISSING : `${formatDecimal(value)}%`;
}

function monthLabel(month: string): string {
  return formatDate(month).replace(/^\d+ /, '');
}

export function LoadsSection({ profile: p }: { profile: Profile }) {
  const months = loadMonths(p);
  return (
    <Section id="fleet-loads" title="Loads" description="Loads observed for this carrier.">
      <Facts
        label="Load totals"
        facts={[
          { label: 'Total loads', value: formatCount(p.total_loads) },
          {
            label: 'LTL loads',
            value: `${formatCount(p.ltl_loads)} (${percent100(p.ltl_percentage)})`,
          },
          {
            label: 'FTL loads',
            value: `${formatCount(p.ftl_loads)} (${percent100(p.ftl_percentage)})`,
          },
          {
            label: 'Deadheads',
            value: `${formatCount(p.deadheads)} (${percent100(p.deadhead_percentage)})`,
          },
          { label: 'First load', value: formatDate(p.first_load_date) },
          { label: 'Last load', value: formatDate(p.last_load_date) },
        ]}
      />
      {months.length ? (
        <div className="mt-4">
          <TableFrame caption="Loads per month">
            <thead>
              <tr>
                {['Month', 'Loads', 'LTL', 'FTL', 'Deadheads'].map((h) => (
                  <th key={h} scope="col" className={TH}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {months.map((m) => (
                <tr key={m.month}>
                  <th scope="row" className={`${TD} font-normal`}>
                    {monthLabel(m.month)}
                  </th>
                  <td className={TD}>{formatCount(m.total)}</td>
                  <td className={TD}>{formatCount(m.ltl)}</td>
                  <td className={TD}>{formatCount(m.ftl)}</td>
                  <td className={TD}>{formatCount(m.deadheads)}</td>
                </tr>
              ))}
            </tbody>
          </TableFrame>
        </div>
      ) : null}
    </Section>
  );
}

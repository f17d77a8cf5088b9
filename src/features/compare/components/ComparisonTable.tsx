import { ScrollHintFrame, useScrollEdges } from '../../../components/ScrollHint.tsx';
import { standingFor } from '../../../lib/decision-standing.ts';
import { useDecisionStandings } from '../../../entities/vetting/standing.ts';
import type { CompareCell, CompareColumn, CompareSection, Tone } from '../model/compare-model.ts';
import { BasicBar } from './BasicBar.tsx';
import { ColumnHead } from './ColumnHead.tsx';

const TONE_TEXT: Record<Tone, string> = {
  good: 'text-emerald-800 dark:text-emerald-300',
  warn: 'text-amber-900 dark:text-amber-200',
  bad: 'text-red-800 dark:text-red-300',
};

const CELL =
  'border-b border-neutral-200 px-2 py-1.5 align-top dark:border-neutral-800 print:px-1 print:py-0.5';
const MARKED =
  'bg-red-50 ring-1 ring-red-300 ring-inset [print-color-adjust:exact] dark:bg-red-950/60 dark:ring-red-800';

function Cell({ cell, rowId }: { cell: CompareCell; rowId: string }) {
  if (cell.state === 'not-held') {
    return <span className="text-neutral-500 dark:text-neutral-400">{cell.text}</span>;
  }
  const tone = cell.tone ? TONE_TEXT[cell.tone] : '';
  const strong = rowId === 'verdict' ? 'text-base font-semibold' : '';
  return (
    <>
      <span className={`${tone} ${strong}`}>{cell.text}</span>
      {cell.basic ? <BasicBar row={cell.basic} /> : null}
      {cell.mark ? (
        <span className="mt-0.5 block text-xs font-semibold text-red-900 dark:text-red-200">
          ▲ {cell.mark}
        </span>
      ) : null}
    </>
  );
}

interface ComparisonTableProps {
  columns: readonly CompareColumn[];
  titles: readonly string[];
  sections: readonly CompareSection[];
  onMove: (from: number, to: number) => void;
  onRemove: (dot: string) => void;
}

/**
 * The comparison as a real table: carriers are the column headers, attributes the row headers, each
 * section a row group with its own heading. Scrolls sideways inside itself on a narrow screen, with
 * the shared fade on the edge that has more; on paper it takes the page's width.
 */
export function ComparisonTable({
  columns,
  titles,
  sections,
  onMove,
  onRemove,
}: ComparisonTableProps) {
  const span = columns.length + 1;
  const { ref, edges } = useScrollEdges<HTMLDivElement>();
  // one request for every compared carrier's decision and its standing now
  const standings = useDecisionStandings(columns.map((column) => column.dot));
  return (
    <ScrollHintFrame edges={edges}>
      <div
        ref={ref}
        role="region"
        aria-label="Comparison"
        tabIndex={0}
        // relative: the visually hidden (absolute) texts of the column heads are clipped by this box
        // too; without it they sat where the unscrolled columns end and widened the page
        className="relative overflow-x-auto print:overflow-visible"
      >
        <table
          className="w-full min-w-[40rem] table-fixed border-collapse text-left text-sm print:min-w-0 print:text-[9px] print:leading-tight"
          data-columns={columns.length}
        >
          <caption className="sr-only">
            {`Comparison of ${columns.length} carriers: ${titles.join(', ')}`}
          </caption>
          <colgroup>
            <col className="w-44 max-sm:w-28 print:w-28" />
            {columns.map((column) => (
              <col key={column.dot} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th scope="col" className={`${CELL} align-bottom`}>
                Attribute
              </th>
              {columns.map((column, index) => (
                <th key={column.dot} scope="col" className={CELL} data-carrier={column.dot}>
                  <ColumnHead
                    dot={column.dot}
                    title={titles[index] ?? `DOT ${column.dot}`}
                    index={index}
                    count={columns.length}
                    standing={standingFor(standings.data, column.dot)}
                    onMove={onMove}
                    onRemove={onRemove}
                  />
                </th>
              ))}
            </tr>
          </thead>
          {sections.map((section) => (
            <tbody key={section.id} data-section={section.id} className="break-inside-avoid">
              <tr>
                <th
                  scope="colgroup"
                  colSpan={span}
                  className="bg-neutral-100 px-2 pt-3 pb-1 text-sm font-semibold text-neutral-950 dark:bg-neutral-800 dark:text-neutral-50 print:pt-1 print:text-[10px]"
                >
                  {section.title}
                </th>
              </tr>
              {section.rows.map((row) => (
                <tr key={row.id} data-row={row.id} data-differs={row.differs || undefined}>
                  <th scope="row" className={`${CELL} font-medium`}>
                    {row.label}
                    {row.differs ? (
                      <span className="ml-1 text-xs font-normal text-neutral-600 dark:text-neutral-400">
                        (differs)
                      </span>
                    ) : null}
                  </th>
                  {row.cells.map((cell, index) => (
                    <td
                      key={columns[index]?.dot ?? index}
                      className={`${CELL} ${cell.mark ? MARKED : ''}`}
                      data-mark={cell.mark}
                      data-carrier={columns[index]?.dot}
                    >
                      <Cell cell={cell} rowId={row.id} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      </div>
    </ScrollHintFrame>
  );
}

import { Fragment, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '../../../components/Badge.tsx';
import { CompareToggle } from '../../../components/comparison/CompareToggle.tsx';
import { ScrollArea, ScrollHintFrame, useScrollEdges } from '../../../components/ScrollHint.tsx';
import { Spacer, useRowWindow } from '../../../components/data-table/row-window.tsx';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { formatDate, MISSING } from '../../../lib/format.ts';
import { whenIdle } from '../../../lib/idle.ts';
import {
  channelsOf,
  lastChanged,
  triageSummary,
  type TriageEntry,
  type TriageSummary,
} from '../../../lib/monitoring/inbox.ts';
import { DecisionStanding } from '../../../components/DecisionStanding.tsx';
import { ChangeTable, type TriageAction } from './ChangeTable.tsx';
import { CHANNEL_LABELS } from './channel-labels.ts';
import type { InboxRow } from './use-inbox.ts';
import { BUTTON } from './ui.ts';

interface InboxTableProps {
  rows: readonly InboxRow[];
  names: ReadonlyMap<string, string>;
  triage: ReadonlyMap<string, TriageEntry>;
  lastVisit: string | undefined;
  onTriage: TriageAction;
  saving: boolean;
  /** the user's role cannot change the inbox: triage shows the state, Unwatch is disabled */
  readOnly?: boolean;
  selected: ReadonlySet<string>;
  onSelect: (profileId: string, selected: boolean) => void;
  onUnwatch: (profileIds: string[]) => void;
}

/**
 * Table or cards by the room the inbox has, not the window's width (a container query on the
 * scroll box's frame): with the channel rail beside it, a window of 800 to 1100 px left the table
 * too little room and pushed its last column (the actions) out of the box. Below 52rem (832 px,
 * the table's narrowest with its nine columns) each profile is a card.
 */
const CELL = 'px-3 py-2 align-top @max-[52rem]:px-1 @max-[52rem]:py-0.5';
/** In a narrow box each profile is a card (a wrapping row of its cells), not a wide row. */
const CARD_ROW =
  'border-t border-neutral-200 dark:border-neutral-800 @max-[52rem]:flex @max-[52rem]:flex-wrap @max-[52rem]:items-center @max-[52rem]:gap-x-2 @max-[52rem]:px-2 @max-[52rem]:py-2';
/** The column name a cell shows on a card, where the header row is not drawn. */
function CardLabel({ children }: { children: string }) {
  return (
    <span className="text-neutral-600 @min-[52rem]:hidden dark:text-neutral-400">{children}: </span>
  );
}
const COLUMNS = 9;
/** Height of a collapsed row (px) before it is measured. */
const ROW_ESTIMATE = 45;
/** Height of the scroll box assumed before layout: its CSS max height on a 900 px window. */
const FALLBACK_HEIGHT = 675;
/**
 * Rows rendered beyond the visible ones: few while the table first paints (each row is a dozen
 * elements to create and lay out before the first screenful shows), the usual margin for scrolling
 * once the browser is idle.
 */
export const FIRST_OVERSCAN = 1;
export const OVERSCAN = 8;

/** `FIRST_OVERSCAN` until the browser has painted the table and gone idle, `OVERSCAN` after. */
function useOverscanAfterFirstPaint(): number {
  const [overscan, setOverscan] = useState(FIRST_OVERSCAN);
  useEffect(() => whenIdle(() => setOverscan(OVERSCAN)), []);
  return overscan;
}

function summaryText(summary: TriageSummary): string {
  const parts = [
    summary.new ? `${summary.new} new` : '',
    summary.escalated ? `${summary.escalated} escalated` : '',
    summary.reviewed ? `${summary.reviewed} reviewed` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : MISSING;
}

function useExpanded(rows: readonly InboxRow[]) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (id: string) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  const allOpen = rows.length > 0 && rows.every((row) => expanded.has(row.profile.profileId));
  const toggleAll = () =>
    setExpanded(allOpen ? new Set() : new Set(rows.map((row) => row.profile.profileId)));
  return { expanded, toggle, allOpen, toggleAll };
}

/**
 * `aria-rowindex` of each profile row: the header is row 1, and an expanded profile's detail row
 * takes the index after its own.
 */
function rowIndexes(rows: readonly InboxRow[], expanded: ReadonlySet<string>) {
  let next = 2;
  const indexes = rows.map((row) => {
    const index = next;
    next += expanded.has(row.profile.profileId) ? 2 : 1;
    return index;
  });
  return { indexes, rowCount: next - 1 };
}

/**
 * A row per watched profile; expanding it shows its changes. Only the rows in and near the view are
 * in the DOM (the rest are spacer height), announced through `aria-rowcount` / `aria-rowindex`.
 */
export function InboxTable(props: InboxTableProps) {
  const { rows } = props;
  const { expanded, toggle, allOpen, toggleAll } = useExpanded(rows);
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const { ref: edgesRef, edges } = useScrollEdges<HTMLDivElement>();
  const setScrollBox = useCallback(
    (element: HTMLDivElement | null) => {
      scrollRef.current = element;
      edgesRef(element);
    },
    [edgesRef],
  );
  const [focusedId, setFocusedId] = useState<string | undefined>();
  const overscan = useOverscanAfterFirstPaint();
  const keepIndex = focusedId
    ? rows.findIndex((row) => row.profile.profileId === focusedId)
    : undefined;
  const {
    virtualizer,
    rows: windowRows,
    after,
  } = useRowWindow({
    count: rows.length,
    scrollRef,
    rowKey: (index) => rows[index]?.profile.profileId ?? index,
    estimate: ROW_ESTIMATE,
    fallbackHeight: FALLBACK_HEIGHT,
    overscan,
    keepIndex,
  });
  const { indexes, rowCount } = useMemo(() => rowIndexes(rows, expanded), [rows, expanded]);
  return (
    <>
      <button type="button" className={`${BUTTON} mb-2`} onClick={toggleAll}>
        {allOpen ? 'Collapse all' : 'Expand all'}
      </button>
      <ScrollHintFrame edges={edges} className="@container">
        <div
          ref={setScrollBox}
          className="relative max-h-[75vh] overflow-auto rounded-lg border border-neutral-200 dark:border-neutral-800"
          data-testid="inbox-scroll"
        >
          <table
            className="w-full text-sm @max-[52rem]:block"
            aria-rowcount={rowCount}
            data-row-count={rows.length}
          >
            <caption className="sr-only">Watched carriers and their changes</caption>
            <InboxHead />
            {windowRows.map((item) => {
              const row = rows[item.index];
              if (row === undefined) return null;
              const id = row.profile.profileId;
              const open = expanded.has(id);
              const rowIndex = indexes[item.index] ?? 0;
              return (
                <Fragment key={item.key}>
                  {item.gapBefore > 0 && <Spacer height={item.gapBefore} columns={COLUMNS} />}
                  <tbody
                    className="@max-[52rem]:block"
                    data-index={item.index}
                    ref={virtualizer.measureElement}
                    onFocus={() => setFocusedId(id)}
                  >
                    <ProfileRow
                      row={row}
                      rowIndex={rowIndex}
                      name={props.names.get(row.profile.dot)}
                      triage={props.triage}
                      open={open}
                      checked={props.selected.has(id)}
                      onToggle={toggle}
                      onSelect={props.onSelect}
                      onUnwatch={props.onUnwatch}
                      readOnly={props.readOnly ?? false}
                    />
                    {open ? <DetailRow {...props} row={row} rowIndex={rowIndex + 1} /> : null}
                  </tbody>
                </Fragment>
              );
            })}
            {after > 0 && <Spacer height={after} columns={COLUMNS} />}
          </table>
        </div>
      </ScrollHintFrame>
    </>
  );
}

const HEADERS = ['DOT', 'Docket', 'Name', 'Channels', 'Changes', 'Last changed', 'Triage'];

function InboxHead() {
  return (
    <thead className="sticky top-0 z-10 bg-neutral-50 text-left text-neutral-700 @max-[52rem]:sr-only dark:bg-neutral-900 dark:text-neutral-300">
      <tr aria-rowindex={1}>
        <th scope="col" className={CELL}>
          <span className="sr-only">Select</span>
        </th>
        {HEADERS.map((header) => (
          <th
            key={header}
            scope="col"
            className={header === 'Changes' ? `${CELL} text-right` : CELL}
          >
            {header}
          </th>
        ))}
        <th scope="col" className={CELL}>
          <span className="sr-only">Actions</span>
        </th>
      </tr>
    </thead>
  );
}

interface DetailRowProps extends InboxTableProps {
  row: InboxRow;
  rowIndex: number;
}

function DetailRow({
  row,
  rowIndex,
  triage,
  lastVisit,
  onTriage,
  saving,
  readOnly,
}: DetailRowProps) {
  return (
    <tr aria-rowindex={rowIndex} className="@max-[52rem]:block">
      <td
        colSpan={COLUMNS}
        className="bg-neutral-50 px-3 pb-3 @max-[52rem]:block @max-[52rem]:px-1 dark:bg-neutral-900/60"
      >
        {row.changes.length ? (
          // contain:inline-size: the changes take the width the row has and scroll inside it
          // (with the fade) when they need more, instead of widening the whole table and pushing
          // its last columns (the actions) out of the box
          <ScrollArea className="[contain:inline-size]">
            <ChangeTable
              profileId={row.profile.profileId}
              changes={row.changes}
              triage={triage}
              lastVisit={lastVisit}
              onTriage={onTriage}
              saving={saving}
              readOnly={readOnly}
            />
          </ScrollArea>
        ) : (
          <p className="py-2">No changes recorded for this profile.</p>
        )}
      </td>
    </tr>
  );
}

interface ProfileRowProps {
  row: InboxRow;
  rowIndex: number;
  name: string | undefined;
  triage: ReadonlyMap<string, TriageEntry>;
  open: boolean;
  checked: boolean;
  onToggle: (profileId: string) => void;
  onSelect: (profileId: string, selected: boolean) => void;
  onUnwatch: (profileIds: string[]) => void;
  readOnly: boolean;
}

/** One profile's summary row; memoised, so scrolling and selecting re-render only what changed. */
const ProfileRow = memo(function ProfileRow({
  row,
  rowIndex,
  name,
  triage,
  open,
  checked,
  onToggle,
  onSelect,
  onUnwatch,
  readOnly,
}: ProfileRowProps) {
  const { profile, changes } = row;
  const id = profile.profileId;
  return (
    <tr aria-rowindex={rowIndex} className={CARD_ROW}>
      <td className={CELL}>
        <input
          type="checkbox"
          aria-label={`Select ${id}`}
          checked={checked}
          onChange={(event) => onSelect(id, event.target.checked)}
        />
      </td>
      <th scope="row" className={`${CELL} text-left font-medium`}>
        <span className="inline-flex items-center gap-1">
          <button
            type="button"
            aria-expanded={open}
            className="rounded px-1 hover:bg-neutral-100 dark:hover:bg-neutral-800"
            onClick={() => onToggle(id)}
          >
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
            <span className="sr-only">{`${open ? 'Hide' : 'Show'} changes of ${profile.dot}`}</span>
          </button>
          <Link
            to={carrierPath(profile.dot)}
            className="text-sky-800 underline underline-offset-2 dark:text-sky-300"
          >
            {profile.dot}
          </Link>
        </span>
      </th>
      <td className={CELL}>{profile.docket ?? MISSING}</td>
      <td className={`${CELL} @max-[52rem]:basis-full`}>
        {name ?? MISSING}
        {row.standing ? (
          <div className="mt-1">
            <DecisionStanding item={row.standing} link />
          </div>
        ) : null}
      </td>
      <td className={CELL}>
        <div className="flex flex-wrap gap-1">
          {channelsOf(changes).map((channel) => (
            <Badge key={channel} tone="neutral">
              {CHANNEL_LABELS[channel]}
            </Badge>
          ))}
        </div>
      </td>
      <td className={`${CELL} text-right tabular-nums`}>
        <CardLabel>Changes</CardLabel>
        {changes.length}
      </td>
      <td className={`${CELL} whitespace-nowrap`}>
        <CardLabel>Last changed</CardLabel>
        {formatDate(lastChanged(changes))}
      </td>
      <td className={CELL}>
        <CardLabel>Triage</CardLabel>
        {summaryText(triageSummary(row.allChanges, triage))}
      </td>
      <td className={CELL}>
        <span className="flex flex-wrap items-start gap-1">
          <button
            type="button"
            className={BUTTON}
            disabled={readOnly}
            aria-describedby={readOnly ? 'inbox-role' : undefined}
            onClick={() => onUnwatch([id])}
          >
            Unwatch<span className="sr-only"> {id}</span>
          </button>
          <CompareToggle dot={profile.dot} name={name} />
        </span>
      </td>
    </tr>
  );
});

import { Fragment, useState } from 'react';
import { Badge } from '../../../components/Badge.tsx';
import { formatDate, MISSING } from '../../../lib/format.ts';
import {
  channelsOf,
  lastChanged,
  triageSummary,
  type TriageEntry,
  type TriageSummary,
} from '../model/inbox.ts';
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
  selected: ReadonlySet<string>;
  onSelect: (profileId: string, selected: boolean) => void;
  onUnwatch: (profileIds: string[]) => void;
}

const CELL = 'px-3 py-2 align-top';

function summaryText(summary: TriageSummary): string {
  const parts = [
    summary.new ? `${summary.new} new` : '',
    summary.escalated ? `${summary.escalated} escalated` : '',
    summary.reviewed ? `${summary.reviewed} reviewed` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : MISSING;
}

/** A row per watched profile; expanding it shows its changes. */
export function InboxTable(props: InboxTableProps) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const allOpen =
    props.rows.length > 0 && props.rows.every((row) => expanded.has(row.profile.profileId));
  return (
    <>
      <button
        type="button"
        className={`${BUTTON} mb-2`}
        onClick={() =>
          setExpanded(allOpen ? new Set() : new Set(props.rows.map((row) => row.profile.profileId)))
        }
      >
        {allOpen ? 'Collapse all' : 'Expand all'}
      </button>
      <div className="overflow-x-auto rounded-lg border border-neutral-200 dark:border-neutral-800">
        <table className="w-full text-sm">
          <caption className="sr-only">Watched carriers and their changes</caption>
          <thead className="bg-neutral-50 text-left text-neutral-700 dark:bg-neutral-900 dark:text-neutral-300">
            <tr>
              <th scope="col" className={CELL}>
                <span className="sr-only">Select</span>
              </th>
              <th scope="col" className={CELL}>
                DOT
              </th>
              <th scope="col" className={CELL}>
                Docket
              </th>
              <th scope="col" className={CELL}>
                Name
              </th>
              <th scope="col" className={CELL}>
                Channels
              </th>
              <th scope="col" className={`${CELL} text-right`}>
                Changes
              </th>
              <th scope="col" className={CELL}>
                Last changed
              </th>
              <th scope="col" className={CELL}>
                Triage
              </th>
              <th scope="col" className={CELL}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((row) => (
              <Fragment key={row.profile.profileId}>
                <ProfileRow
                  {...props}
                  row={row}
                  open={expanded.has(row.profile.profileId)}
                  onToggle={() => toggle(row.profile.profileId)}
                />
                {expanded.has(row.profile.profileId) ? (
                  <tr>
                    <td colSpan={9} className="bg-neutral-50 px-3 pb-3 dark:bg-neutral-900/60">
                      {row.changes.length ? (
                        <ChangeTable
                          profileId={row.profile.profileId}
                          changes={row.changes}
                          triage={props.triage}
                          lastVisit={props.lastVisit}
                          onTriage={props.onTriage}
                          saving={props.saving}
                        />
                      ) : (
                        <p className="py-2">No changes recorded for this profile.</p>
                      )}
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

interface ProfileRowProps extends InboxTableProps {
  row: InboxRow;
  open: boolean;
  onToggle: () => void;
}

function ProfileRow({
  row,
  open,
  onToggle,
  names,
  triage,
  selected,
  onSelect,
  onUnwatch,
}: ProfileRowProps) {
  const { profile, changes } = row;
  const id = profile.profileId;
  return (
    <tr className="border-t border-neutral-200 dark:border-neutral-800">
      <td className={CELL}>
        <input
          type="checkbox"
          aria-label={`Select ${id}`}
          checked={selected.has(id)}
          onChange={(event) => onSelect(id, event.target.checked)}
        />
      </td>
      <th scope="row" className={`${CELL} text-left font-medium`}>
        <button
          type="button"
          aria-expanded={open}
          className="inline-flex items-center gap-1 rounded underline-offset-2 hover:underline"
          onClick={onToggle}
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          {profile.dot}
          <span className="sr-only"> ({open ? 'hide' : 'show'} changes)</span>
        </button>
      </th>
      <td className={CELL}>{profile.docket ?? MISSING}</td>
      <td className={CELL}>{names.get(profile.dot) ?? MISSING}</td>
      <td className={CELL}>
        <div className="flex flex-wrap gap-1">
          {channelsOf(changes).map((channel) => (
            <Badge key={channel} tone="neutral">
              {CHANNEL_LABELS[channel]}
            </Badge>
          ))}
        </div>
      </td>
      <td className={`${CELL} text-right tabular-nums`}>{changes.length}</td>
      <td className={`${CELL} whitespace-nowrap`}>{formatDate(lastChanged(changes))}</td>
      <td className={CELL}>{summaryText(triageSummary(row.allChanges, triage))}</td>
      <td className={CELL}>
        <button type="button" className={BUTTON} onClick={() => onUnwatch([id])}>
          Unwatch<span className="sr-only"> {id}</span>
        </button>
      </td>
    </tr>
  );
}

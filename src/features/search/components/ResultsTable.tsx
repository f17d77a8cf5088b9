/**
 * One page of search results: identity and status per carrier; a row opens the profile. The rows
 * come sorted by the page (the sort is in the URL, see `ResultsSection`), so the headers do not sort.
 */
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { Badge, type BadgeTone } from '../../../components/Badge.tsx';
import { CompareToggle } from '../../../components/comparison/CompareToggle.tsx';
import { DataTable, type DataTableColumn } from '../../../components/data-table/DataTable.tsx';
import { DecisionStanding } from '../../../components/DecisionStanding.tsx';
import type { PagerProps } from '../../../components/data-table/Pager.tsx';
import { carrierPath } from '../../../lib/carrier/paths.ts';
import { standingFor, type DecisionStanding as Standing } from '../../../lib/decision-standing.ts';
import { useDecisionStandings } from '../../../entities/vetting/standing.ts';
import { TRI_STATE_LABELS, formatRiskScore, triState, type TriState } from '../../../lib/format.ts';
import { useWatchedIds } from '../../../entities/watchlist/api.ts';
import { dotOfProfileId } from '../../../lib/watchlist/profile-id.ts';
import { authoritySummary, docketOf, placeOf, usdotSummary } from '../lib/carrier-summary.ts';
import type { ResultRow } from '../lib/results-columns.ts';

const TRI_TONE: Record<TriState, BadgeTone> = {
  pass: 'good',
  fail: 'bad',
  'not-applicable': 'neutral',
};

function dotOf(profile: ResultRow): string {
  return profile.dot_number ?? '';
}

const dotsByList = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();

/** The DOTs of a watched-id list, computed once per list (every row reads them). */
function dotsOf(ids: ReadonlySet<string>): ReadonlySet<string> {
  let dots = dotsByList.get(ids);
  if (!dots) {
    dots = new Set([...ids].map(dotOfProfileId));
    dotsByList.set(ids, dots);
  }
  return dots;
}

/** The DOTs on the watchlist (a row is watched when its DOT is), or undefined while unknown. */
function useWatchedDots(): ReadonlySet<string> | undefined {
  const { data } = useWatchedIds();
  return data ? dotsOf(data) : undefined;
}

/** Whether a row's carrier is watched: every cell reads the same cached list query. */
function WatchedCell({ dot }: { dot: string }) {
  const watched = useWatchedDots();
  if (watched?.has(dot)) return <Badge tone="info">Watched</Badge>;
  return (
    <span className="text-sm text-neutral-600 dark:text-neutral-400">
      {watched ? 'Not watched' : 'Checking…'}
    </span>
  );
}

function StandingLine({ standing }: { standing: Standing | undefined }) {
  if (!standing) return null;
  return (
    <span className="mt-1">
      <DecisionStanding item={standing} link />
    </span>
  );
}

function buildColumns(
  onPreview: (row: ResultRow) => void,
  standings: ReadonlyMap<string, Standing> | undefined,
): DataTableColumn<ResultRow>[] {
  const standingOf = (p: ResultRow) => standingFor(standings, dotOf(p));
  const columns: DataTableColumn<ResultRow>[] = [
    {
      id: 'name',
      header: 'Carrier',
      rowHeader: true,
      value: (p) => p.legal_name,
      cell: (p) => (
        <span className="flex flex-col">
          <Link
            to={carrierPath(dotOf(p))}
            className="font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300"
          >
            {p.legal_name ?? `DOT ${dotOf(p)}`}
          </Link>
          {p.dba_name ? (
            <span className="text-xs text-neutral-600 dark:text-neutral-400">DBA {p.dba_name}</span>
          ) : null}
          <StandingLine standing={standingOf(p)} />
        </span>
      ),
    },
    { id: 'dot', header: 'DOT', value: (p) => p.dot_number, align: 'end' },
    { id: 'docket', header: 'Docket', value: (p) => docketOf(p) },
    { id: 'place', header: 'City / state', value: (p) => placeOf(p) },
    { id: 'usdot', header: 'USDOT status', value: (p) => usdotSummary(p) },
    { id: 'authority', header: 'Authority', value: (p) => authoritySummary(p) },
    {
      id: 'insurance',
      header: 'Insurance',
      value: (p) => TRI_STATE_LABELS[triState(p.indicator_insurance)],
      cell: (p) => {
        const state = triState(p.indicator_insurance);
        return <Badge tone={TRI_TONE[state]}>{TRI_STATE_LABELS[state]}</Badge>;
      },
    },
    { id: 'risk', header: 'Risk', value: (p) => formatRiskScore(p.risk_score) },
    {
      id: 'watched',
      header: 'Watchlist',
      sortable: false,
      value: () => undefined,
      cell: (p) => <WatchedCell dot={dotOf(p)} />,
    },
    {
      id: 'actions',
      header: 'Actions',
      sortable: false,
      value: () => undefined,
      cell: (p) => (
        <span className="flex flex-wrap items-start gap-1">
          <button
            type="button"
            onClick={() => onPreview(p)}
            aria-label={`Preview ${p.legal_name ?? `DOT ${dotOf(p)}`}`}
            className="rounded-md border border-neutral-300 px-2 py-1 text-xs font-medium text-neutral-800 hover:bg-neutral-100 dark:border-neutral-700 dark:text-neutral-100 dark:hover:bg-neutral-800"
          >
            Preview
          </button>
          <CompareToggle dot={dotOf(p)} name={p.legal_name} />
        </span>
      ),
    },
  ];
  return columns.map((column) => ({ ...column, sortable: false }));
}

interface ResultsTableProps {
  /** The page's rows, already in the order to show. */
  items: readonly ResultRow[];
  caption: string;
  pager: PagerProps;
  onPreview: (row: ResultRow) => void;
}

export function ResultsTable({ items, caption, pager, onPreview }: ResultsTableProps) {
  const navigate = useNavigate();
  // carriers the team already decided on: their decision and its standing now, one request
  const standings = useDecisionStandings(items.map(dotOf)).data;
  const columns = useMemo(() => buildColumns(onPreview, standings), [onPreview, standings]);
  return (
    <DataTable
      caption={caption}
      columns={columns}
      data={items}
      getRowId={(p) => dotOf(p)}
      onRowActivate={(p) => void navigate(carrierPath(dotOf(p)))}
      pager={{ ...pager, label: 'Result pages' }}
      empty="No carriers on this page."
    />
  );
}

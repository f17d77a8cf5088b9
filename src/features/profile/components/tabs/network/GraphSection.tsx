import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useState,
  type KeyboardEvent,
} from 'react';
import { Link } from 'react-router';
import { carrierPath } from '../../../../../lib/carrier/paths.ts';
import { formatCount, formatDate } from '../../../../../lib/format.ts';
import type { Profile } from '../../../../../lib/service/index.ts';
import { Section } from '../kit/Section.tsx';
import { ExpandControl } from './ExpandControl.tsx';
import {
  edgesOf,
  NODE_STATUSES,
  otherEnd,
  type GraphEdge,
  type GraphNode,
  type NetworkGraph,
  type NodeStatus,
} from './graph-model.ts';
import type { GraphSelection } from './graph-selection.ts';
import { STATUS_STYLE, STATUS_TEXT_CLASS } from './graph-style.ts';
import { useNetworkGraph } from './use-network-graph.ts';

// Cytoscape.js (~140 kB gzip) comes with the graph, not with the profile's first chunks. Its
// download starts when this tab's code loads (the tab link pointed at, or the tab opened), so it
// travels with the profile rather than after the tab has drawn.
const loadCanvas = () => import('./GraphCanvas.tsx');
void loadCanvas().catch(() => undefined);
const GraphCanvas = lazy(loadCanvas);

const BUTTON =
  'rounded-md border border-neutral-300 px-2 py-0.5 text-xs font-medium text-neutral-900 hover:bg-neutral-100 dark:border-neutral-700 dark:text-neutral-100 dark:hover:bg-neutral-800';
const LINKS_SHOWN = 30;
const VERDICT_WORD = { pass: 'Pass', review: 'Review', fail: 'Fail' } as const;

function statusLabel(status: NodeStatus): string {
  return NODE_STATUSES.find((s) => s.id === status)?.label ?? status;
}

function StatusShape({ status }: { status: NodeStatus }) {
  const style = STATUS_STYLE[status];
  const common = {
    fill: status === 'unknown' ? 'none' : 'currentColor',
    stroke: 'currentColor',
    strokeWidth: status === 'unknown' ? 1.5 : 0,
    strokeDasharray: status === 'unknown' ? '2 1.5' : undefined,
  };
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 12 12"
      className={`mt-1 inline-block h-3 w-3 shrink-0 ${STATUS_TEXT_CLASS[status]}`}
    >
      {style.shape === 'round-rectangle' ? (
        <rect x="1" y="1" width="10" height="10" rx="2" {...common} />
      ) : style.shape === 'octagon' ? (
        <polygon points="4,1 8,1 11,4 11,8 8,11 4,11 1,8 1,4" {...common} />
      ) : style.shape === 'diamond' ? (
        <polygon points="6,0.5 11.5,6 6,11.5 0.5,6" {...common} />
      ) : (
        <circle cx="6" cy="6" r="5" {...common} />
      )}
    </svg>
  );
}

function Legend() {
  return (
    <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
      {NODE_STATUSES.map((s) => (
        <li key={s.id} className="inline-flex items-center gap-1">
          <StatusShape status={s.id} />
          {s.label}
        </li>
      ))}
      <li>Thick ring: the carrier shown or an expanded one</li>
      <li>Dashed line: shared VINs</li>
    </ul>
  );
}

function nodeSummary(node: GraphNode, links: number): string {
  return [
    statusLabel(node.status).toLowerCase(),
    node.verdict ? `verdict ${VERDICT_WORD[node.verdict]}` : undefined,
    node.centre ? 'this carrier' : node.expanded ? 'expanded' : undefined,
    `${formatCount(links)} ${links === 1 ? 'link' : 'links'}`,
  ]
    .filter(Boolean)
    .join(', ');
}

const optionId = (dot: string) => `network-graph-node-${dot}`;

type NodeOptionProps = {
  node: GraphNode;
  links: number;
  selected: boolean;
  onSelect: (selection: GraphSelection) => void;
};

/** The model is rebuilt on every expand: an option is redrawn only when what it shows changed. */
function sameOption(a: NodeOptionProps, b: NodeOptionProps): boolean {
  return (
    a.links === b.links &&
    a.selected === b.selected &&
    a.onSelect === b.onSelect &&
    (Object.keys(a.node) as (keyof GraphNode)[]).every((key) => a.node[key] === b.node[key])
  );
}

/** One carrier of the listbox; memoised, so a new selection redraws two options, not hundreds. */
const NodeOption = memo(function NodeOption({ node, links, selected, onSelect }: NodeOptionProps) {
  return (
    <li
      id={optionId(node.dot)}
      role="option"
      aria-selected={selected}
      onClick={() => onSelect({ kind: 'node', dot: node.dot })}
      className={`flex cursor-pointer items-start gap-2 px-2 py-1 ${
        selected ? 'bg-sky-100 dark:bg-sky-900' : 'hover:bg-neutral-100 dark:hover:bg-neutral-800'
      }`}
    >
      <StatusShape status={node.status} />
      <span>
        <span className="font-medium">DOT {node.dot}</span> {node.name ?? ''}
        <span className="block text-xs text-neutral-700 dark:text-neutral-300">
          {nodeSummary(node, links)}
        </span>
      </span>
    </li>
  );
}, sameOption);

/** The carriers as a listbox: one tab stop, arrows move the selection, which the canvas shows. */
function NodeListbox({
  graph,
  selectedDot,
  onSelect,
  linkCount,
}: {
  graph: NetworkGraph;
  selectedDot: string | undefined;
  onSelect: (selection: GraphSelection) => void;
  linkCount: ReadonlyMap<string, number>;
}) {
  const index = selectedDot ? graph.nodes.findIndex((n) => n.dot === selectedDot) : -1;
  useEffect(() => {
    if (selectedDot)
      document.getElementById(optionId(selectedDot))?.scrollIntoView?.({ block: 'nearest' });
  }, [selectedDot]);
  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const last = graph.nodes.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: Math.min(last, index + 1),
      ArrowUp: Math.max(0, index - 1),
      Home: 0,
      End: last,
      PageDown: Math.min(last, index + 10),
      PageUp: Math.max(0, index - 10),
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const node = graph.nodes[to];
    if (node) onSelect({ kind: 'node', dot: node.dot });
  }
  return (
    <ul
      role="listbox"
      tabIndex={0}
      aria-label={`Carriers in the graph (${formatCount(graph.nodes.length)})`}
      aria-activedescendant={selectedDot && index >= 0 ? optionId(selectedDot) : undefined}
      onKeyDown={onKeyDown}
      className="max-h-[28rem] overflow-auto rounded-md border border-neutral-300 text-sm focus:outline-2 focus:outline-offset-2 focus:outline-sky-600 dark:border-neutral-700"
    >
      {graph.nodes.map((node) => (
        <NodeOption
          key={node.dot}
          node={node}
          links={linkCount.get(node.dot) ?? 0}
          selected={node.dot === selectedDot}
          onSelect={onSelect}
        />
      ))}
    </ul>
  );
}

function describeEdge(edge: GraphEdge): string {
  return `${edge.type.label}: ${edge.label}, between DOT ${edge.source} and DOT ${edge.target}`;
}

function NodePanel({
  node,
  graph,
  onSelect,
  onExpand,
  onCollapse,
}: {
  node: GraphNode;
  graph: NetworkGraph;
  onSelect: (selection: GraphSelection) => void;
  onExpand: (dot: string) => void;
  onCollapse: (dot: string) => void;
}) {
  const [all, setAll] = useState(false);
  const edges = edgesOf(graph, node.dot);
  const shown = all ? edges : edges.slice(0, LINKS_SHOWN);
  return (
    <div className="space-y-2">
      <h4 className="font-semibold">
        DOT {node.dot} {node.name ?? '(name not known)'}
      </h4>
      <p className="inline-flex items-center gap-1">
        <StatusShape status={node.status} /> {nodeSummary(node, edges.length)}.{' '}
        <Link
          to={carrierPath(node.dot)}
          className="text-sky-800 underline underline-offset-2 dark:text-sky-300"
        >
          Open the profile of DOT {node.dot}
        </Link>
      </p>
      {node.centre ? null : node.expanded ? (
        <button type="button" className={BUTTON} onClick={() => onCollapse(node.dot)}>
          Remove the links of DOT {node.dot} from the graph
        </button>
      ) : (
        <ExpandControl dot={node.dot} onExpand={onExpand} />
      )}
      <ul aria-label={`Links of DOT ${node.dot}`} className="space-y-1">
        {shown.map((edge) => (
          <li key={edge.id}>
            <button
              type="button"
              className={BUTTON}
              onClick={() => onSelect({ kind: 'edge', id: edge.id })}
            >
              {edge.type.label}: {edge.label}, with DOT {otherEnd(edge, node.dot)}
            </button>
          </li>
        ))}
      </ul>
      {shown.length < edges.length ? (
        <button type="button" className={BUTTON} onClick={() => setAll(true)}>
          Show all {formatCount(edges.length)} links
        </button>
      ) : null}
    </div>
  );
}

function EdgePanel({
  edge,
  graph,
  onSelect,
}: {
  edge: GraphEdge;
  graph: NetworkGraph;
  onSelect: (selection: GraphSelection) => void;
}) {
  const ends = [edge.source, edge.target];
  const nameOf = (dot: string) => graph.nodes.find((n) => n.dot === dot)?.name;
  const silent = ends.filter((d) => !edge.statements.some((s) => s.from === d));
  return (
    <div className="space-y-2">
      <h4 className="font-semibold">
        {edge.type.label} shared by DOT {edge.source} and DOT {edge.target}
      </h4>
      <dl className="space-y-1">
        {edge.statements.map((s) => (
          <div key={s.from}>
            <dt className="font-medium">As the profile of DOT {s.from} states it</dt>
            <dd>
              {edge.type.id === 'equipment'
                ? `lists DOT ${otherEnd(edge, s.from)} among the carriers running the same VINs`
                : (s.identifier ?? 'the link is listed, the identifier itself is not sent')}
              {edge.type.id === 'equipment'
                ? null
                : s.since
                  ? `; current since ${formatDate(s.since)}`
                  : '; since when: not stated'}
            </dd>
          </div>
        ))}
      </dl>
      {silent.map((d) => (
        <p key={d} className="text-neutral-700 dark:text-neutral-300">
          DOT {d}&apos;s own profile is not in the graph; expand it to see its side.
        </p>
      ))}
      {edge.type.id === 'equipment' ? (
        <div className="overflow-x-auto">
          <table className="text-xs">
            <caption className="text-left font-medium">
              Shared VINs: {formatCount(edge.vinCount)}
              {edge.vinCount !== undefined && edge.vinCount !== edge.vins.length
                ? ` (${formatCount(edge.vins.length)} with detail)`
                : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col" className="pr-3 text-left">
                  VIN
                </th>
                <th scope="col" className="pr-3 text-left">
                  Make, model, year
                </th>
                {ends.map((d) => (
                  <th key={d} scope="col" className="pr-3 text-left">
                    Last inspection under DOT {d}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {edge.vins.map((v) => (
                <tr key={v.vin}>
                  <th scope="row" className="pr-3 text-left font-mono font-normal">
                    {v.vin}
                  </th>
                  <td className="pr-3">
                    {[v.make, v.model, v.year].filter(Boolean).join(' ') || 'not sent'}
                  </td>
                  {ends.map((d) => (
                    <td key={d} className="pr-3">
                      {v.lastInspection[d] ? formatDate(v.lastInspection[d]) : 'not stated'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {ends.map((d) => (
          <button
            key={d}
            type="button"
            className={BUTTON}
            onClick={() => onSelect({ kind: 'node', dot: d })}
          >
            Select DOT {d} {nameOf(d) ?? ''}
          </button>
        ))}
      </div>
    </div>
  );
}

function announce(graph: NetworkGraph, selection: GraphSelection | undefined): string {
  if (!selection) return '';
  if (selection.kind === 'node') {
    const node = graph.nodes.find((n) => n.dot === selection.dot);
    return node
      ? `Selected DOT ${node.dot} ${node.name ?? ''}: ${nodeSummary(node, edgesOf(graph, node.dot).length)}.`
      : '';
  }
  const edge = graph.edges.find((e) => e.id === selection.id);
  return edge ? `Selected link. ${describeEdge(edge)}.` : '';
}

/**
 * The Network tab's graph: the canvas (lazy), the carriers as a listbox beside it, a legend, and a
 * panel for the selection: a carrier (what is known, its links, the costed expand) or a link (its
 * evidence). Hidden in print, where the lists below stand for it.
 */
export function GraphSection({ dot, profile }: { dot: string; profile: Profile }) {
  const state = useNetworkGraph(dot, profile);
  const { graph } = state;
  const [selection, setSelection] = useState<GraphSelection | undefined>();
  const select = useCallback((next: GraphSelection) => setSelection(next), []);
  const linkCount = useMemo(() => {
    const counts = new Map<string, number>();
    for (const e of graph.edges) {
      counts.set(e.source, (counts.get(e.source) ?? 0) + 1);
      counts.set(e.target, (counts.get(e.target) ?? 0) + 1);
    }
    return counts;
  }, [graph]);
  const selectedNode =
    selection?.kind === 'node' ? graph.nodes.find((n) => n.dot === selection.dot) : undefined;
  const selectedEdge =
    selection?.kind === 'edge' ? graph.edges.find((e) => e.id === selection.id) : undefined;
  const expandedCount = graph.nodes.filter((n) => n.expanded && !n.centre).length;

  return (
    <div className="print:hidden">
      <Section
        id="network-graph"
        title="Network graph"
        description="Each carrier sharing an identifier with this one, and each shared identifier as a link. Select a carrier to see what is known and expand it (its cost is shown first); select a link for its evidence."
      >
        <Legend />
        <div
          className="grid grid-cols-[minmax(0,1fr)] gap-3 lg:grid-cols-[minmax(0,1fr)_18rem]"
          data-expanded-count={expandedCount}
        >
          <Suspense fallback={<p className="text-sm">Loading the graph…</p>}>
            <GraphCanvas graph={graph} selection={selection} onSelect={select} />
          </Suspense>
          <NodeListbox
            graph={graph}
            selectedDot={selection?.kind === 'node' ? selection.dot : undefined}
            onSelect={select}
            linkCount={linkCount}
          />
        </div>
        {state.notHeld.length ? (
          <div className="text-sm">
            <p>
              In the link but not expanded, because neither this page nor the proxy holds their
              profiles (expanding them is a service call, at the cost shown when you select one):
            </p>
            <ul className="mt-1 flex flex-wrap gap-2">
              {state.notHeld.map((d) => (
                <li key={d}>
                  <button
                    type="button"
                    className={BUTTON}
                    onClick={() => select({ kind: 'node', dot: d })}
                  >
                    Select DOT {d}
                  </button>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {state.pending.length ? (
          <p className="text-sm">
            Reading {formatCount(state.pending.length)} expanded carriers from the cache…
          </p>
        ) : null}
        {/* a live region without the status role: the tab's look-up progress is its status */}
        <p
          aria-live="polite"
          aria-atomic="true"
          className="sr-only"
          data-testid="graph-announcement"
        >
          {announce(graph, selection)}
        </p>
        <section
          aria-label="Selected in the graph"
          className="rounded-md border border-neutral-200 p-3 text-sm dark:border-neutral-800"
        >
          {selectedNode ? (
            <NodePanel
              key={selectedNode.dot}
              node={selectedNode}
              graph={graph}
              onSelect={select}
              onExpand={state.addExpand}
              onCollapse={state.removeExpand}
            />
          ) : selectedEdge ? (
            <EdgePanel edge={selectedEdge} graph={graph} onSelect={select} />
          ) : selection?.kind === 'node' ? (
            <div className="space-y-2">
              <h4 className="font-semibold">DOT {selection.dot}</h4>
              <p>Not linked to the carriers in the graph yet.</p>
              <ExpandControl dot={selection.dot} onExpand={state.addExpand} />
            </div>
          ) : (
            <p>Select a carrier or a link, in the graph or in the list of carriers.</p>
          )}
        </section>
      </Section>
    </div>
  );
}

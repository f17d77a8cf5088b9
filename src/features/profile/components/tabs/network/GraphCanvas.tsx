/**
 * The drawn network: the only module that imports Cytoscape.js, loaded lazily with the graph so the
 * profile's first chunks stay as they were. It draws what the graph model says, reports taps as
 * selections and shows the selection it is given; the accessible controls live beside it.
 */
import cytoscape, { type Core, type ElementDefinition, type StylesheetJson } from 'cytoscape';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { NetworkGraph, NodeStatus } from './graph-model.ts';
import type { GraphSelection } from './graph-selection.ts';
import {
  CENTRE_FONT,
  CENTRE_SIZE,
  drawsLabels,
  EDGE_FONT,
  footprintOf,
  LABEL_FONT,
  LABEL_GAP,
  LABEL_OUTLINE,
  LABELLED_UP_TO,
  NODE_SIZE,
  positionsOf,
} from './graph-layout.ts';
import { STATUS_STYLE } from './graph-style.ts';

interface Props {
  graph: NetworkGraph;
  selection: GraphSelection | undefined;
  onSelect: (selection: GraphSelection) => void;
}

function isDark(): boolean {
  return document.documentElement.classList.contains('dark');
}

/** Follows the `dark` class the theme toggle sets on <html>: canvas colours are not CSS. */
function useDarkTheme(): boolean {
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(isDark()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);
  return dark;
}

const VERDICT_WORD = { pass: 'Pass', review: 'Review', fail: 'Fail' } as const;
const PAN_STEP = 60;
/** Fitting never zooms in further: two carriers are drawn at a readable size, not blown up. */
const MAX_FIT_ZOOM = 1.25;
const FIT_PADDING = 24;
/** The box's height (28rem) and the least a small graph's box is shrunk to (13rem). */
const BOX_HEIGHT = 448;
const MIN_BOX_HEIGHT = 208;

/** Test hook: a drawn element's box in rendered pixels, from the container's top left corner. */
export interface DrawnBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * Test hook (e2e): `drawnGraph()` on the canvas element (`data-testid="network-graph"`) reports
 * the canvas size, the zoom and each carrier's rendered box, without and with its label, as
 * Cytoscape's `renderedBoundingBox` gives them. Reads only; nothing in the app calls it.
 */
export interface DrawnGraph {
  width: number;
  height: number;
  zoom: number;
  nodes: { id: string; node: DrawnBox; labelled: DrawnBox }[];
}

type CanvasElement = HTMLDivElement & { drawnGraph?: () => DrawnGraph };

function boxOf(box: DrawnBox): DrawnBox {
  return { x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2 };
}

function drawnGraphOf(cy: Core): DrawnGraph {
  return {
    width: cy.width(),
    height: cy.height(),
    zoom: cy.zoom(),
    nodes: cy.nodes().map((node) => ({
      id: node.id(),
      node: boxOf(node.renderedBoundingBox({ includeLabels: false, includeOverlays: false })),
      labelled: boxOf(node.renderedBoundingBox({ includeLabels: true, includeOverlays: false })),
    })),
  };
}

function elementsOf(graph: NetworkGraph): ElementDefinition[] {
  const plain = !drawsLabels(graph);
  const positions = positionsOf(graph);
  const nodes = graph.nodes.map((n): ElementDefinition => ({
    group: 'nodes',
    data: { id: n.dot, label: n.verdict ? `${n.dot} · ${VERDICT_WORD[n.verdict]}` : n.dot },
    position: positions.get(n.dot) ?? { x: 0, y: 0 },
    classes: [
      `status-${n.status}`,
      n.centre ? 'centre' : '',
      n.expanded && !n.centre ? 'expanded' : '',
      // hundreds of labels cost more to measure than they tell at that zoom; the list names them
      plain && !n.expanded ? 'quiet' : '',
    ].join(' '),
  }));
  const edges = graph.edges.map((e): ElementDefinition => ({
    group: 'edges',
    data: { id: e.id, source: e.source, target: e.target, label: e.label },
    classes: plain ? `link-${e.type.id} plain` : `link-${e.type.id}`,
  }));
  return [...nodes, ...edges];
}

function stylesheet(dark: boolean): StylesheetJson {
  const text = dark ? '#e5e5e5' : '#171717';
  const halo = dark ? '#171717' : '#ffffff';
  const line = dark ? '#737373' : '#a3a3a3';
  const statusRules = (
    Object.entries(STATUS_STYLE) as [NodeStatus, (typeof STATUS_STYLE)[NodeStatus]][]
  ).map(([status, style]) => ({
    selector: `node.status-${status}`,
    style: {
      'background-color': dark ? style.dark : style.light,
      shape: style.shape,
      'border-style': style.dashed ? ('dashed' as const) : ('solid' as const),
      'border-width': style.dashed ? 2 : 0,
      'border-color': text,
    },
  }));
  return [
    {
      selector: 'node',
      style: {
        label: 'data(label)',
        width: NODE_SIZE,
        height: NODE_SIZE,
        'font-size': LABEL_FONT,
        color: text,
        'text-valign': 'bottom',
        'text-margin-y': LABEL_GAP,
        'text-outline-color': halo,
        'text-outline-width': LABEL_OUTLINE,
        'min-zoomed-font-size': 7,
      },
    },
    ...statusRules,
    { selector: 'node.expanded', style: { 'border-width': 3, 'border-color': text } },
    {
      selector: 'node.centre',
      style: {
        width: CENTRE_SIZE,
        height: CENTRE_SIZE,
        'border-width': 4,
        'border-color': text,
        'font-size': CENTRE_FONT,
      },
    },
    {
      selector: 'edge',
      style: {
        width: 1.5,
        'line-color': line,
        'curve-style': 'bezier',
        label: 'data(label)',
        'font-size': EDGE_FONT,
        color: text,
        'text-rotation': 'autorotate',
        'text-outline-color': halo,
        'text-outline-width': LABEL_OUTLINE,
        'min-zoomed-font-size': 8,
      },
    },
    { selector: 'edge.link-equipment', style: { 'line-style': 'dashed' } },
    { selector: 'edge.plain', style: { 'curve-style': 'haystack', label: '' } },
    { selector: 'node.quiet', style: { label: '' } },
    { selector: 'node.quiet:selected', style: { label: 'data(label)' } },
    {
      selector: ':selected',
      style: {
        'overlay-color': dark ? '#38bdf8' : '#0369a1',
        'overlay-opacity': 0.35,
        'overlay-padding': 6,
      },
    },
    { selector: 'edge:selected', style: { width: 4, 'line-color': dark ? '#38bdf8' : '#0369a1' } },
  ];
}

interface ModelBox {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * What the fit must show, in model pixels. A labelled graph is small: Cytoscape measures it, links
 * and their labels included. A large one is bounded by each carrier's footprint (graph-layout.ts):
 * measuring hundreds of labels and edges is a large share of an expand's time.
 */
function contentOf(cy: Core): ModelBox | undefined {
  const nodes = cy.nodes();
  if (nodes.empty()) return undefined;
  if (nodes.length <= LABELLED_UP_TO) {
    const box = cy.elements().boundingBox({ includeLabels: true, includeOverlays: false });
    return { x1: box.x1, y1: box.y1, x2: box.x2, y2: box.y2 };
  }
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  const plain = footprintOf(false, false);
  nodes.forEach((node) => {
    const { x, y } = node.position();
    const quiet = node.hasClass('quiet');
    const size = quiet ? plain : footprintOf(node.hasClass('centre'), true);
    x1 = Math.min(x1, x - size.width / 2);
    y1 = Math.min(y1, y - size.height / 2);
    x2 = Math.max(x2, x + size.width / 2);
    y2 = Math.max(y2, y + size.height / 2);
  });
  return { x1, y1, x2, y2 };
}

function zoomFor(content: ModelBox, width: number, height: number): number {
  return Math.min(
    MAX_FIT_ZOOM,
    (width - 2 * FIT_PADDING) / Math.max(1, content.x2 - content.x1),
    (height - 2 * FIT_PADDING) / Math.max(1, content.y2 - content.y1),
  );
}

/** Centre the content in the box at the zoom that shows all of it, never above MAX_FIT_ZOOM. */
function fitGraph(cy: Core) {
  const content = contentOf(cy);
  if (!content) return;
  const zoom = zoomFor(content, cy.width(), cy.height());
  cy.viewport({
    zoom,
    pan: {
      x: cy.width() / 2 - (zoom * (content.x1 + content.x2)) / 2,
      y: cy.height() / 2 - (zoom * (content.y1 + content.y2)) / 2,
    },
  });
}

/**
 * The box is only as tall as the drawing at the zoom the width allows (between MIN_BOX_HEIGHT and
 * BOX_HEIGHT): two carriers do not float in an empty box, nor does a large network on a phone.
 */
function sizeBox(cy: Core, element: HTMLElement) {
  const content = contentOf(cy);
  let height = BOX_HEIGHT;
  if (content) {
    const zoom = zoomFor(content, cy.width(), Infinity);
    const wanted = Math.ceil(zoom * (content.y2 - content.y1) + 2 * FIT_PADDING);
    height = Math.min(BOX_HEIGHT, Math.max(MIN_BOX_HEIGHT, wanted));
  }
  // what was set last (none: the class's 28rem); reading the drawn height would force a layout
  const set = element.style.height === '' ? BOX_HEIGHT : parseFloat(element.style.height);
  if (set === height) return;
  // a CSSOM property (not a style attribute): the CSP allows it
  element.style.height = height === BOX_HEIGHT ? '' : `${height}px`;
  cy.resize();
}

function placeOf(e: ElementDefinition): string {
  return e.position ? `${e.position.x},${e.position.y}` : '';
}

/**
 * Bring the drawing in step with the elements: remove what is gone, add what is new, re-give data
 * and classes that changed and move nodes whose place changed. `given` remembers what each element
 * was given. Returns whether anything changed.
 */
function drawChanges(cy: Core, elements: ElementDefinition[], given: Map<string, string>): boolean {
  let changed = false;
  cy.batch(() => {
    const wanted = new Map(elements.map((e) => [String(e.data.id), e]));
    const gone = cy.elements().filter((el) => !wanted.has(el.id()));
    gone.forEach((el) => {
      given.delete(el.id());
    });
    if (gone.nonempty()) changed = true;
    cy.remove(gone);
    const added: ElementDefinition[] = [];
    for (const [id, e] of wanted) {
      const looks = `${JSON.stringify(e.data)} ${e.classes ?? ''}`;
      const signature = `${looks} @${placeOf(e)}`;
      const current = cy.getElementById(id);
      if (current.empty()) added.push(e);
      else if (given.get(id) === signature) continue;
      else {
        const before = given.get(id) ?? '';
        if (!before.startsWith(`${looks} @`)) {
          current.data(e.data);
          current.classes(e.classes ?? '');
        }
        if (e.position && !before.endsWith(`@${placeOf(e)}`)) current.position(e.position);
      }
      given.set(id, signature);
      changed = true;
    }
    cy.add(added);
  });
  return changed;
}

/**
 * Cytoscape adds a <style> element (`position: relative` for its container) unless one with its id
 * exists; the proxy's CSP (`style-src 'self'`) refuses inline styles, so an inert element takes the
 * id and the container carries `relative` itself.
 */
function claimCytoscapeStylesheet() {
  const id = '__________cytoscape_stylesheet';
  if (document.getElementById(id)) return;
  const placeholder = document.createElement('meta');
  placeholder.id = id;
  document.head.appendChild(placeholder);
}

/** A 2D canvas and ResizeObserver (every supported browser; not jsdom): else the lists stand alone. */
function canDraw(): boolean {
  if (typeof ResizeObserver === 'undefined') return false;
  try {
    return document.createElement('canvas').getContext('2d') !== null;
  } catch {
    return false;
  }
}

export default function GraphCanvas({ graph, selection, onSelect }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | undefined>(undefined);
  const selectRef = useRef(onSelect);
  const dark = useDarkTheme();
  const [failed] = useState(() => !canDraw());
  /** what each drawn element was given last (data and classes), by id */
  const drawnElements = useRef(new Map<string, string>());

  useEffect(() => {
    selectRef.current = onSelect;
  }, [onSelect]);

  useEffect(() => {
    if (!container.current) return;
    if (failed) return;
    claimCytoscapeStylesheet();
    const cy = cytoscape({
      container: container.current,
      minZoom: 0.05,
      maxZoom: 4,
      boxSelectionEnabled: false,
      selectionType: 'single',
      // big networks: draw a bitmap while panning and zooming
      textureOnViewport: graph.nodes.length > 200,
      hideEdgesOnViewport: graph.nodes.length > 200,
    });
    cyRef.current = cy;
    const element: CanvasElement = container.current;
    element.drawnGraph = () => drawnGraphOf(cy);
    cy.on('tap', 'node', (event) => selectRef.current({ kind: 'node', dot: event.target.id() }));
    cy.on('tap', 'edge', (event) => selectRef.current({ kind: 'edge', id: event.target.id() }));
    const given = drawnElements.current;
    return () => {
      cyRef.current = undefined;
      delete element.drawnGraph;
      // a new instance (a remount) starts empty: draw everything again
      given.clear();
      cy.destroy();
    };
    // created once; the effects below keep it in step
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    cyRef.current?.style(stylesheet(dark));
  }, [dark]);

  // A box that gets narrower or wider (a window resized, a phone turned) draws again at its new
  // width: the canvas would otherwise keep the old one and stick out of the page. Only a change of
  // width counts, so that sizeBox's own change of height does not start another round.
  useEffect(() => {
    const el = container.current;
    if (!el || failed) return;
    let width = el.clientWidth;
    const observer = new ResizeObserver(() => {
      const cy = cyRef.current;
      if (!cy || el.clientWidth === width) return;
      width = el.clientWidth;
      cy.resize();
      sizeBox(cy, el);
      fitGraph(cy);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [failed]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    // The model is rebuilt whenever the query cache changes; touch only what the drawing changes:
    // an expand adds a few carriers to hundreds already drawn. An element given the same data,
    // classes and place again is left alone: touching it would make Cytoscape work out its style
    // (or its edges' paths) again on the next frame.
    const changed = drawChanges(cy, elementsOf(graph), drawnElements.current);
    const el = container.current;
    if (changed && el) sizeBox(cy, el);
    if (changed) fitGraph(cy);
    // Set on the element itself, once drawn, so a watcher (e2e, bench) sees the drawn state.
    if (el) {
      el.dataset['graphState'] = 'ready';
      el.dataset['drawnNodes'] = String(cy.nodes().length);
      el.dataset['drawnEdges'] = String(cy.edges().length);
      el.dataset['drawnExpanded'] = String(graph.nodes.filter((n) => n.expanded).length);
    }
  }, [graph]);

  useEffect(() => {
    const cy = cyRef.current;
    if (!cy) return;
    cy.elements(':selected').unselect();
    const id = selection?.kind === 'node' ? selection.dot : selection?.id;
    if (!id) return;
    const element = cy.getElementById(id);
    if (element.empty()) return;
    element.select();
    // bring it into view when it is off screen
    const box = element.renderedBoundingBox();
    if (box.x2 < 0 || box.y2 < 0 || box.x1 > cy.width() || box.y1 > cy.height()) cy.center(element);
  }, [selection, graph]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const cy = cyRef.current;
    if (!cy) return;
    const pan: Record<string, [number, number]> = {
      ArrowLeft: [PAN_STEP, 0],
      ArrowRight: [-PAN_STEP, 0],
      ArrowUp: [0, PAN_STEP],
      ArrowDown: [0, -PAN_STEP],
    };
    const centre = { x: cy.width() / 2, y: cy.height() / 2 };
    const step = pan[event.key];
    if (step) cy.panBy({ x: step[0], y: step[1] });
    else if (event.key === '+' || event.key === '=')
      cy.zoom({ level: cy.zoom() * 1.25, renderedPosition: centre });
    else if (event.key === '-') cy.zoom({ level: cy.zoom() / 1.25, renderedPosition: centre });
    else if (event.key === '0') fitGraph(cy);
    else return;
    event.preventDefault();
  }

  if (failed) {
    return (
      <p className="text-sm">
        This browser cannot draw the graph; the list of carriers and the lists below hold the same
        links.
      </p>
    );
  }
  return (
    <div
      ref={container}
      tabIndex={0}
      role="group"
      aria-roledescription="network graph"
      aria-label={`Network graph: ${graph.nodes.length} carriers, ${graph.edges.length} links. Arrow keys pan, + and - zoom, 0 fits; choose carriers in the list beside it.`}
      onKeyDown={onKeyDown}
      data-testid="network-graph"
      className="relative h-[28rem] w-full rounded-md border border-neutral-300 bg-neutral-50 focus:outline-2 focus:outline-offset-2 focus:outline-sky-600 dark:border-neutral-700 dark:bg-neutral-950"
    />
  );
}

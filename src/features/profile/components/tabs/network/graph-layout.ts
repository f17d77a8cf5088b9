/**
 * Where each carrier of the graph is drawn: the centre in the middle, each hop further out on
 * circles of its own, each circle holding as many carriers as fit around it, in the model's order
 * (centre, ring, DOT), so the same graph is always drawn the same way.
 *
 * Label-aware: every carrier takes a footprint, its node and the label under it (sized for the
 * widest label, "0000000 · Review"), and two carriers are never closer than the diagonal of that
 * footprint, neither along a circle nor between two circles, so no two footprints overlap at any
 * zoom. Above `LABELLED_UP_TO` carriers only the shown and expanded carriers are labelled, and the
 * footprint shrinks to the node. The first circle also leaves room for the longest link label
 * between the centre and a carrier on it.
 *
 * Worked out here rather than by a Cytoscape layout: a layout run places every node again, and
 * Cytoscape then re-measures every element and edge. With positions of our own, an expand moves
 * only the carriers whose place changed (usually none: the new carriers go on outer circles).
 */
import type { NetworkGraph } from './graph-model.ts';

export interface Point {
  x: number;
  y: number;
}

/** A box of the given width and height centred on a node (the label hangs below; see footprint). */
export interface Size {
  width: number;
  height: number;
}

/** Up to this many carriers, every carrier and link is labelled; above, the lists name them. */
export const LABELLED_UP_TO = 150;

/** Drawn sizes in model pixels, shared with the stylesheet (GraphCanvas.tsx). */
export const NODE_SIZE = 18;
export const CENTRE_SIZE = 30;
export const LABEL_FONT = 9;
export const CENTRE_FONT = 11;
export const EDGE_FONT = 7;
export const LABEL_GAP = 2;
/** The text halo drawn around labels, on each side. */
export const LABEL_OUTLINE = 2;
/** The widest border a node gets (the centre's ring). */
const BORDER = 4;
/** The widest node label: a DOT and the longest verdict word. */
const WIDEST_LABEL = '0000000 · Review'.length;
/** Width of a character as a share of the font size: above the widest digits and letters used. */
const CHAR_WIDTH = 0.66;

/** Along a circle, unlabelled carriers: a node (18 px) and the space between two. */
const PLAIN_ARC = 32;
/** Between two circles, unlabelled carriers. */
const PLAIN_GAP = 40;
/** Room left along a link beside its label. */
const EDGE_LABEL_ROOM = 24;

/** Whether every carrier and link of the graph is labelled. */
export function drawsLabels(graph: NetworkGraph): boolean {
  return graph.nodes.length <= LABELLED_UP_TO;
}

/** The estimated drawn width of a label of `chars` characters in `font` px, with its halo. */
export function labelWidth(chars: number, font: number): number {
  return chars * font * CHAR_WIDTH + 2 * LABEL_OUTLINE;
}

/**
 * The box a carrier may take, centred on its node: the node and, when labelled, the label below
 * (the box reaches as far above the node as the label hangs below it, so it is symmetric).
 */
export function footprintOf(centre: boolean, labelled: boolean): Size {
  const node = (centre ? CENTRE_SIZE : NODE_SIZE) + BORDER;
  if (!labelled) return { width: node, height: node };
  const font = centre ? CENTRE_FONT : LABEL_FONT;
  const below = LABEL_GAP + font * 1.3 + 2 * LABEL_OUTLINE;
  return {
    width: Math.max(node, labelWidth(WIDEST_LABEL, font)),
    height: node + 2 * below,
  };
}

/** The least distance between two footprints' centres at which they cannot overlap. */
function apart(a: Size, b: Size): number {
  return Math.hypot((a.width + b.width) / 2, (a.height + b.height) / 2);
}

/** How many carriers fit on a circle of `radius`, each at least `spacing` from the next. */
function capacityOf(radius: number, spacing: number): number {
  if (2 * radius < spacing) return 1;
  if (2 * radius === spacing) return 2;
  return Math.max(2, Math.floor(Math.PI / Math.asin(spacing / (2 * radius))));
}

interface Circle {
  radius: number;
  /** indexes into graph.nodes */
  members: number[];
}

/** The circles, innermost first: the centre alone, then each hop's carriers on circles of their own. */
function circlesFor(graph: NetworkGraph): Circle[] {
  const labels = drawsLabels(graph);
  const node = footprintOf(false, labels);
  const spacing = labels ? apart(node, node) : PLAIN_ARC;
  const gap = labels ? spacing : PLAIN_GAP;
  let first = apart(footprintOf(true, true), node);
  if (labels) {
    const centre = graph.nodes[0]?.dot;
    const longest = graph.edges
      .filter((e) => e.source === centre || e.target === centre)
      .reduce((widest, e) => Math.max(widest, labelWidth(e.label.length, EDGE_FONT)), 0);
    if (longest > 0)
      first = Math.max(first, longest + (CENTRE_SIZE + NODE_SIZE) / 2 + EDGE_LABEL_ROOM);
  }

  // the hops, in the model's order: each a run of nodes with the same ring
  const hops: number[][] = [];
  graph.nodes.forEach((n, index) => {
    if (index === 0) return;
    const last = hops.at(-1);
    const previous = graph.nodes[index - 1];
    if (last && previous && index > 1 && previous.ring === n.ring) last.push(index);
    else hops.push([index]);
  });

  const circles: Circle[] = [{ radius: 0, members: graph.nodes.length > 0 ? [0] : [] }];
  let radius = 0;
  for (const hop of hops) {
    // as few circles as hold the hop, then the hop shared among them by their capacity, so its
    // outermost circle is not left with a handful of carriers
    const radii: number[] = [];
    const capacities: number[] = [];
    let room = 0;
    while (room < hop.length) {
      radius = circles.length === 1 && radii.length === 0 ? first : radius + gap;
      radii.push(radius);
      capacities.push(capacityOf(radius, spacing));
      room += capacities.at(-1) ?? 0;
    }
    const counts = capacities.map((c) => Math.floor((hop.length * c) / room));
    let left = hop.length - counts.reduce((a, b) => a + b, 0);
    for (let i = counts.length - 1; left > 0; i = (i + counts.length - 1) % counts.length) {
      if ((counts[i] ?? 0) < (capacities[i] ?? 0)) {
        counts[i] = (counts[i] ?? 0) + 1;
        left -= 1;
      }
    }
    let next = 0;
    radii.forEach((r, i) => {
      const count = counts[i] ?? 0;
      circles.push({ radius: r, members: hop.slice(next, next + count) });
      next += count;
    });
  }
  return circles;
}

/** The circle of each node (0: the centre's). */
export function circlesOf(graph: NetworkGraph): number[] {
  const circles: number[] = [];
  circlesFor(graph).forEach((circle, c) => {
    for (const index of circle.members) circles[index] = c;
  });
  return circles;
}

/** Rounded to a tenth of a pixel (and -0 made 0), so an unchanged place compares equal. */
function tenths(value: number): number {
  return Math.round(value * 10) / 10 + 0;
}

/** The position of every node, by DOT; the centre sits at the origin, a lone carrier to its right. */
export function positionsOf(graph: NetworkGraph): Map<string, Point> {
  const positions = new Map<string, Point>();
  circlesFor(graph).forEach(({ radius, members }, circle) => {
    // every other circle turned by half a step, so the circles' carriers do not line up
    const turn = circle % 2 === 0 ? 0.5 : 0;
    members.forEach((nodeIndex, k) => {
      const node = graph.nodes[nodeIndex];
      if (!node) return;
      // from the right, clockwise: two carriers lie side by side, their links and labels level
      const angle = (2 * Math.PI * (k + turn)) / members.length;
      positions.set(node.dot, {
        x: tenths(radius * Math.cos(angle)),
        y: tenths(radius * Math.sin(angle)),
      });
    });
  });
  return positions;
}

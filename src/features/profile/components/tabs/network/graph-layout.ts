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
  /** which hop's carriers it holds (0: the centre) */
  hop: number;
  /** the least angle between two carriers on it */
  step: number;
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

  const circles: Circle[] = [
    { radius: 0, members: graph.nodes.length > 0 ? [0] : [], hop: 0, step: 0 },
  ];
  let radius = 0;
  for (const [h, hop] of hops.entries()) {
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
      const step = 2 * Math.asin(Math.min(1, spacing / (2 * r)));
      circles.push({ radius: r, members: hop.slice(next, next + count), hop: h + 1, step });
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

/** Least squares under order: the non-decreasing sequence nearest to `values` (pool adjacent). */
function nonDecreasing(values: number[]): number[] {
  const blocks: { sum: number; size: number }[] = [];
  for (const value of values) {
    blocks.push({ sum: value, size: 1 });
    for (;;) {
      const last = blocks.at(-1)!;
      const before = blocks.at(-2);
      if (!before || before.sum / before.size <= last.sum / last.size) break;
      blocks.pop();
      before.sum += last.sum;
      before.size += last.size;
    }
  }
  return blocks.flatMap((b) => Array<number>(b.size).fill(b.sum / b.size));
}

const TURN = 2 * Math.PI;

/**
 * Angles for carriers wanting the given angles (each next to the carriers it links to, further
 * in), at least `step` apart: in the order of their wishes around the circle, starting after the
 * widest empty arc, each as near its wish as the order and the step allow. Undefined when they
 * would not fit in the circle that way.
 */
function nearWishes(wishes: number[], step: number): number[] | undefined {
  const n = wishes.length;
  const order = wishes
    .map((wish, index) => ({ wish: ((wish % TURN) + TURN) % TURN, index }))
    .sort((a, b) => a.wish - b.wish || a.index - b.index);
  let widest = 0;
  let after = 0;
  order.forEach((o, k) => {
    const next = k + 1 < n ? order[k + 1]!.wish : order[0]!.wish + TURN;
    if (next - o.wish > widest) [widest, after] = [next - o.wish, (k + 1) % n];
  });
  const run = [...order.slice(after), ...order.slice(0, after)].map((o, k) => ({
    index: o.index,
    wish: k >= n - after ? o.wish + TURN : o.wish,
  }));
  const pooled = nonDecreasing(run.map((o, k) => o.wish - k * step));
  const angles: number[] = [];
  run.forEach((o, k) => (angles[o.index] = pooled[k]! + k * step));
  const span = pooled[n - 1]! + (n - 1) * step - pooled[0]!;
  return span <= TURN - step ? angles : undefined;
}

function circularMean(angles: number[]): number | undefined {
  if (angles.length === 0) return undefined;
  const x = angles.reduce((sum, a) => sum + Math.cos(a), 0);
  const y = angles.reduce((sum, a) => sum + Math.sin(a), 0);
  return Math.hypot(x, y) < 1e-9 ? angles[0] : Math.atan2(y, x);
}

/**
 * The position of every node, by DOT; the centre sits at the origin, a lone carrier to its right.
 * The first hop goes evenly round its circles; a further hop's carriers go near the carriers they
 * link to, so an expanded carrier's links stay short instead of crossing the drawing.
 */
export function positionsOf(graph: NetworkGraph): Map<string, Point> {
  const circles = circlesFor(graph);
  const indexOf = new Map(graph.nodes.map((n, i) => [n.dot, i]));
  const neighbours = graph.nodes.map((): number[] => []);
  for (const e of graph.edges) {
    const [a, b] = [indexOf.get(e.source), indexOf.get(e.target)];
    if (a === undefined || b === undefined) continue;
    neighbours[a]!.push(b);
    neighbours[b]!.push(a);
  }
  const angleOf: (number | undefined)[] = [];
  const hopOf: number[] = [];
  circles.forEach((c) => c.members.forEach((m) => (hopOf[m] = c.hop)));

  const wishOf = (m: number) =>
    circularMean(
      neighbours[m]!.filter((o) => (hopOf[o] ?? Infinity) < (hopOf[m] ?? 0)).flatMap((o) =>
        angleOf[o] === undefined ? [] : [angleOf[o]],
      ),
    );
  /** a further hop is shared among its circles in the order of its carriers' wishes */
  function shareByWish(hop: number) {
    const own = circles.filter((o) => o.hop === hop);
    const members = own.flatMap((o) => o.members);
    const wishes = members.map(wishOf);
    if (wishes.some((w) => w === undefined)) return;
    const sorted = members
      .map((m, k) => ({ m, wish: wishes[k]! }))
      .sort((a, b) => a.wish - b.wish || a.m - b.m)
      .map((o) => o.m);
    let next = 0;
    for (const o of own) {
      o.members = sorted.slice(next, next + o.members.length);
      next += o.members.length;
    }
  }

  const positions = new Map<string, Point>();
  circles.forEach((current, circle) => {
    if (current.hop >= 2 && circles[circle - 1]?.hop !== current.hop) shareByWish(current.hop);
    const { radius, members, hop, step } = current;
    const wishes = hop < 2 ? [] : members.map(wishOf);
    const near =
      wishes.length > 0 && wishes.every((w) => w !== undefined)
        ? nearWishes(wishes as number[], step)
        : undefined;
    // every other circle turned by half a step, so the circles' carriers do not line up
    const turn = circle % 2 === 0 ? 0.5 : 0;
    members.forEach((nodeIndex, k) => {
      const node = graph.nodes[nodeIndex];
      if (!node) return;
      // from the right, clockwise: two carriers lie side by side, their links and labels level
      // two linked carriers of the first hop: above and below to the right, not opposite, so
      // the link between them does not run through the centre
      const linked = members.length === 2 && neighbours[members[0]!]!.includes(members[1]!);
      const pair = hop === 1 && linked && step <= TURN / 3 ? (2 * k - 1) * (TURN / 6) : undefined;
      const angle = near?.[k] ?? pair ?? (TURN * (k + turn)) / members.length;
      angleOf[nodeIndex] = angle;
      positions.set(node.dot, {
        x: tenths(radius * Math.cos(angle)),
        y: tenths(radius * Math.sin(angle)),
      });
    });
  });
  return positions;
}

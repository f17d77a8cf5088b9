// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { GraphEdge, GraphNode, NetworkGraph } from './graph-model.ts';
import { LINK_TYPES } from './model.ts';
import {
  CENTRE_SIZE,
  circlesOf,
  drawsLabels,
  EDGE_FONT,
  footprintOf,
  LABELLED_UP_TO,
  labelWidth,
  NODE_SIZE,
  positionsOf,
} from './graph-layout.ts';

function node(dot: string, ring: number): GraphNode {
  return {
    dot,
    name: undefined,
    status: 'active',
    centre: ring === 0,
    expanded: ring === 0,
    ring,
    verdict: undefined,
  };
}

function edge(source: string, target: string, label: string): GraphEdge {
  return {
    id: `${source}~${target}~physical-address`,
    source,
    target,
    type: LINK_TYPES[0]!,
    label,
    statements: [],
    vins: [],
    vinCount: undefined,
  };
}

/** A centre, `first` carriers one hop out and `second` two hops out (DOTs in model order). */
function graphOf(first: number, second: number, edges: GraphEdge[] = []): NetworkGraph {
  const nodes = [node('1', 0)];
  for (let i = 0; i < first; i += 1) nodes.push(node(String(1000 + i), 1));
  for (let i = 0; i < second; i += 1) nodes.push(node(String(5000 + i), 2));
  return { nodes, edges };
}

function distance(p: { x: number; y: number }, q: { x: number; y: number }) {
  return Math.hypot(p.x - q.x, p.y - q.y);
}

/** The pairs of carriers whose footprints (node and label, as the canvas labels them) overlap. */
function overlaps(graph: NetworkGraph): string[] {
  const positions = positionsOf(graph);
  const labels = drawsLabels(graph);
  const boxes = graph.nodes.map((n) => {
    const p = positions.get(n.dot)!;
    const size = footprintOf(n.centre, labels || n.centre);
    return { dot: n.dot, x: p.x, y: p.y, ...size };
  });
  const found: string[] = [];
  for (let i = 0; i < boxes.length; i += 1)
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (
        Math.abs(a.x - b.x) < (a.width + b.width) / 2 &&
        Math.abs(a.y - b.y) < (a.height + b.height) / 2
      )
        found.push(`${a.dot}/${b.dot}`);
    }
  return found;
}

describe('graph layout', () => {
  it('puts the centre alone in the middle and a lone carrier level to its right', () => {
    const graph = graphOf(1, 0);
    const positions = positionsOf(graph);
    expect(positions.get('1')).toEqual({ x: 0, y: 0 });
    const other = positions.get('1000')!;
    expect(other.y).toBe(0);
    // beyond both labels, not a node's width away as a fixed circle put it
    const footprints = footprintOf(true, true).width / 2 + footprintOf(false, true).width / 2;
    expect(other.x).toBeGreaterThanOrEqual(footprints);
  });

  it('puts two linked carriers of the first hop to the right, so their link misses the centre', () => {
    const graph = graphOf(2, 0, [edge('1000', '1001', 'Phone …0001')]);
    const [a, b] = [positionsOf(graph).get('1000')!, positionsOf(graph).get('1001')!];
    expect(a.x).toBeGreaterThan(0);
    expect(b.x).toBeGreaterThan(0);
    // the link between them passes the centre at least a footprint's half-width away
    expect(Math.min(a.x, b.x)).toBeGreaterThan(footprintOf(true, true).width / 2);
    expect(overlaps(graph)).toEqual([]);
  });

  it('leaves room along a link from the centre for its label', () => {
    const label = 'Address SOUTH SAN FRANCISCO, CA 94080';
    const graph = graphOf(1, 0, [edge('1', '1000', label)]);
    const distance = positionsOf(graph).get('1000')!.x;
    expect(distance - (CENTRE_SIZE + NODE_SIZE) / 2).toBeGreaterThan(
      labelWidth(label.length, EDGE_FONT),
    );
  });

  it('keeps every labelled carrier and its label clear of every other', () => {
    for (const [first, second] of [
      [1, 0],
      [2, 0],
      [3, 4],
      [12, 30],
      [LABELLED_UP_TO - 20, 19],
    ] as const) {
      const graph = graphOf(first, second);
      expect(drawsLabels(graph)).toBe(true);
      expect(overlaps(graph)).toEqual([]);
    }
  });

  it('keeps the 520 unlabelled carriers of a large network and the labelled centre apart', () => {
    const graph = graphOf(520, 40);
    expect(drawsLabels(graph)).toBe(false);
    expect(positionsOf(graph).size).toBe(graph.nodes.length);
    expect(overlaps(graph)).toEqual([]);
  });

  it('gives each hop circles of its own, further out, and fills them evenly', () => {
    const graph = graphOf(520, 40);
    const circles = circlesOf(graph);
    expect(circles[0]).toBe(0);
    const firstOfSecondHop = circles[521]!;
    expect(Math.max(...circles.slice(1, 521))).toBeLessThan(firstOfSecondHop);
    const positions = positionsOf(graph);
    const radius = (i: number) =>
      Math.hypot(positions.get(graph.nodes[i]!.dot)!.x, positions.get(graph.nodes[i]!.dot)!.y);
    for (let i = 2; i < graph.nodes.length; i += 1)
      if (circles[i] !== circles[i - 1]) expect(radius(i)).toBeGreaterThan(radius(i - 1) + 30);
    // no outer circle left with a handful of carriers: each holds at least as many as the one inside
    const sizes = new Map<number, number>();
    for (const c of circles.slice(1, 521)) sizes.set(c, (sizes.get(c) ?? 0) + 1);
    const perCircle = [...sizes.entries()].sort(([a], [b]) => a - b).map(([, size]) => size);
    expect(perCircle.length).toBeGreaterThan(3);
    perCircle.forEach((size, i) => expect(size).toBeGreaterThanOrEqual(perCircle[i - 1] ?? 0));
  });

  it("puts an expanded carrier's own carriers next to it, not across the drawing", () => {
    // the centre, four carriers one hop out; the one on the left (1002) expanded to three more
    const edges = [
      ...['1000', '1001', '1002', '1003'].map((dot) => edge('1', dot, 'Phone …0001')),
      ...['5000', '5001', '5002'].map((dot) => edge('1002', dot, 'Phone …0002')),
    ];
    const graph = graphOf(4, 3, edges);
    const positions = positionsOf(graph);
    const parent = positions.get('1002')!;
    expect(parent.x).toBeLessThan(0);
    for (const dot of ['5000', '5001', '5002']) {
      const place = positions.get(dot)!;
      const others = ['1000', '1001', '1003'].map((o) => distance(place, positions.get(o)!));
      expect(distance(place, parent)).toBeLessThan(Math.min(...others));
    }
    expect(overlaps(graph)).toEqual([]);
  });

  it('is deterministic, and adding a further hop moves no carrier already placed', () => {
    for (const first of [6, 520]) {
      const before = positionsOf(graphOf(first, 0));
      expect(positionsOf(graphOf(first, 0))).toEqual(before);
      const after = positionsOf(graphOf(first, 25));
      for (const [dot, place] of before) expect(after.get(dot)).toEqual(place);
      expect(after.size).toBe(before.size + 25);
    }
  });
});

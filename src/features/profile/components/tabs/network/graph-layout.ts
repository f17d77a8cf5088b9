/**
 * Where each carrier of the graph is drawn: the centre in the middle, each hop further out, a hop
 * with hundreds of carriers spread over several circles of growing capacity, in the model's order
 * (centre, ring, DOT), so the same graph is always drawn the same way.
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

/** Carriers per circle: the first circle of a hop holds this many, the next twice, and so on. */
export const CIRCLE_CAPACITY = 36;
/** Room along a circle per carrier: a node (18 px) and the space between two. */
const ARC_PER_NODE = 32;
/** The least distance between two neighbouring circles. */
const CIRCLE_GAP = 40;

/** The circle of each node: hop by hop, each hop's nodes filling circles of growing capacity. */
export function circlesOf(graph: NetworkGraph): number[] {
  const circles: number[] = [];
  let circle = -1;
  let ring = -1;
  let room = 0;
  let capacity = 0;
  for (const node of graph.nodes) {
    if (node.ring !== ring) {
      ring = node.ring;
      capacity = 0;
      room = 0;
    }
    if (room === 0) {
      circle += 1;
      capacity += CIRCLE_CAPACITY;
      room = ring === 0 ? 1 : capacity;
    }
    circles.push(circle);
    room -= 1;
  }
  return circles;
}

/** Rounded to a tenth of a pixel (and -0 made 0), so an unchanged place compares equal. */
function tenths(value: number): number {
  return Math.round(value * 10) / 10 + 0;
}

/** The position of every node, by DOT; the first circle (the centre alone) sits at the origin. */
export function positionsOf(graph: NetworkGraph): Map<string, Point> {
  const circles = circlesOf(graph);
  const members: number[][] = [];
  circles.forEach((circle, index) => (members[circle] ??= []).push(index));
  const positions = new Map<string, Point>();
  let radius = 0;
  members.forEach((indexes, circle) => {
    const count = indexes.length;
    if (circle > 0 || count > 1) {
      radius = Math.max(radius + CIRCLE_GAP, (count * ARC_PER_NODE) / (2 * Math.PI));
    }
    indexes.forEach((nodeIndex, k) => {
      const node = graph.nodes[nodeIndex];
      if (!node) return;
      // from the top, clockwise
      const angle = -Math.PI / 2 + (2 * Math.PI * k) / count;
      positions.set(node.dot, {
        x: tenths(radius * Math.cos(angle)),
        y: tenths(radius * Math.sin(angle)),
      });
    });
  });
  return positions;
}

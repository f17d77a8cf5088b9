// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { GraphNode, NetworkGraph } from './graph-model.ts';
import { CIRCLE_CAPACITY, circlesOf, positionsOf } from './graph-layout.ts';

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

/** A centre, `first` carriers one hop out and `second` two hops out (DOTs in model order). */
function graphOf(first: number, second: number): NetworkGraph {
  const nodes = [node('1', 0)];
  for (let i = 0; i < first; i += 1) nodes.push(node(String(1000 + i), 1));
  for (let i = 0; i < second; i += 1) nodes.push(node(String(5000 + i), 2));
  return { nodes, edges: [] };
}

function distance(p: { x: number; y: number }, q: { x: number; y: number }) {
  return Math.hypot(p.x - q.x, p.y - q.y);
}

describe('graph layout', () => {
  it('puts the centre alone in the middle and fills circles of growing capacity per hop', () => {
    const graph = graphOf(CIRCLE_CAPACITY + 5, 3);
    const circles = circlesOf(graph);
    expect(circles[0]).toBe(0);
    expect(circles.filter((c) => c === 1)).toHaveLength(CIRCLE_CAPACITY);
    expect(circles.filter((c) => c === 2)).toHaveLength(5);
    // the second hop starts a circle of its own
    expect(circles.slice(-3)).toEqual([3, 3, 3]);
    expect(positionsOf(graph).get('1')).toEqual({ x: 0, y: 0 });
  });

  it('keeps carriers apart and each circle outside the one before', () => {
    const graph = graphOf(520, 40);
    const positions = positionsOf(graph);
    expect(positions.size).toBe(graph.nodes.length);
    const circles = circlesOf(graph);
    const radius = graph.nodes.map((n) =>
      Math.hypot(positions.get(n.dot)!.x, positions.get(n.dot)!.y),
    );
    for (let i = 1; i < graph.nodes.length; i += 1) {
      const circle = circles[i]!;
      if (circle === circles[i - 1]) {
        // neighbours along one circle: at least a node's width apart
        expect(
          distance(positions.get(graph.nodes[i]!.dot)!, positions.get(graph.nodes[i - 1]!.dot)!),
        ).toBeGreaterThan(20);
      } else {
        expect(radius[i]!).toBeGreaterThan(radius[i - 1]! + 30);
      }
    }
  });

  it('is deterministic, and adding a further hop moves no carrier already placed', () => {
    const before = positionsOf(graphOf(520, 0));
    expect(positionsOf(graphOf(520, 0))).toEqual(before);
    const after = positionsOf(graphOf(520, 25));
    for (const [dot, place] of before) expect(after.get(dot)).toEqual(place);
    expect(after.size).toBe(before.size + 25);
  });
});

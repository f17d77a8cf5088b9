// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { parseProfileResponse, type Profile } from '../../../../../lib/service/index.ts';
import {
  fixture,
  specShapedProfileResponse,
} from '../../../../../lib/service/fixtures.test-support.ts';
import { sandboxProfile } from '../../../../../test/sandbox-profiles.node.ts';
import {
  buildGraph,
  edgesOf,
  maskIdentifier,
  parseExpand,
  statusOf,
  type NetworkGraph,
} from './graph-model.ts';

function firstProfile(body: unknown): Profile {
  const profile = parseProfileResponse(body).value.items[0];
  if (!profile) throw new Error('no profile');
  return profile;
}

const LIVE = firstProfile(fixture('profile_265752'));
const SPEC = firstProfile(specShapedProfileResponse());
const SWIFTPATH = '4418207';
const RAPID_ROUTE = '3187452';
const swiftpath = sandboxProfile(SWIFTPATH).parsed.value;
const rapidRoute = sandboxProfile(RAPID_ROUTE).parsed.value;

function noDuplicates(graph: NetworkGraph) {
  const nodeIds = graph.nodes.map((n) => n.dot);
  const edgeIds = graph.edges.map((e) => e.id);
  expect(new Set(nodeIds).size).toBe(nodeIds.length);
  expect(new Set(edgeIds).size).toBe(edgeIds.length);
  // every edge's ends are nodes, and no edge loops back to its own carrier
  for (const e of graph.edges) {
    expect(nodeIds).toContain(e.source);
    expect(nodeIds).toContain(e.target);
    expect(e.source).not.toBe(e.target);
  }
}

describe.each([
  ['live-shaped', LIVE],
  ['spec-shaped', SPEC],
])('the graph of a %s profile (DOT 265752)', (_, profile) => {
  const graph = buildGraph({ dot: '265752', profile }, []);

  it('has the centre first and a node per linked DOT', () => {
    expect(graph.nodes[0]).toMatchObject({ dot: '265752', centre: true, expanded: true, ring: 0 });
    expect(graph.nodes.map((n) => n.dot).sort()).toEqual(
      ['265752', '86876', '598081', '1964900', '4356378', '3859536'].sort(),
    );
    noDuplicates(graph);
  });

  it('has an edge per (pair, shared identifier type)', () => {
    const types = (dot: string) => edgesOf(graph, dot).map((e) => e.type.id);
    expect(types('86876').sort()).toEqual(['mailing-address', 'physical-address', 'telephone']);
    expect(types('598081').sort()).toEqual(['email', 'fax', 'mailing-address', 'telephone']);
    expect(types('3859536').sort()).toEqual(['duns', 'ein']);
    expect(graph.edges).toHaveLength(11);
  });

  it('masks personal identifiers in labels, keeping them whole in the evidence', () => {
    const label = (dot: string, type: string) =>
      edgesOf(graph, dot).find((e) => e.type.id === type)?.label;
    expect(label('86876', 'telephone')).toBe('Phone …8482');
    expect(label('598081', 'email')).toBe('E-mail @fedex.com');
    expect(label('3859536', 'ein')).toBe('EIN …1019');
    expect(label('3859536', 'duns')).toBe('DUNS …3494');
    expect(label('86876', 'physical-address')).toBe('Address MEMPHIS, TN 38125');
    const labels = graph.edges.map((e) => e.label).join(' ');
    for (const secret of ['4127478482', 'safety@', '341441019', '119133494'])
      expect(labels).not.toContain(secret);
    const phone = edgesOf(graph, '86876').find((e) => e.type.id === 'telephone');
    expect(phone?.statements).toEqual([
      expect.objectContaining({ from: '265752', identifier: '4127478482' }),
    ]);
  });

  it('is deterministic', () => {
    expect(buildGraph({ dot: '265752', profile }, [])).toEqual(graph);
  });
});

describe('the chameleon pair 4418207 ↔ 3187452', () => {
  const alone = buildGraph({ dot: SWIFTPATH, profile: swiftpath }, []);
  const both = buildGraph({ dot: SWIFTPATH, profile: swiftpath }, [
    { dot: RAPID_ROUTE, profile: rapidRoute },
  ]);
  const pair = (graph: NetworkGraph) =>
    graph.edges.filter(
      (e) => [e.source, e.target].sort().join() === [RAPID_ROUTE, SWIFTPATH].join(),
    );

  it('shows the predecessor out of service, known from the equipment links', () => {
    const node = alone.nodes.find((n) => n.dot === RAPID_ROUTE);
    expect(node).toMatchObject({ status: 'out-of-service', name: 'RAPID ROUTE CARRIERS LLC' });
    expect(node?.expanded).toBe(false);
  });

  it('links them by telephone, address and VINs, with the VIN detail under both DOTs', () => {
    expect(
      pair(alone)
        .map((e) => e.type.id)
        .sort(),
    ).toEqual(['equipment', 'physical-address', 'telephone']);
    const vins = pair(alone).find((e) => e.type.id === 'equipment');
    expect(vins?.vinCount).toBe(4);
    expect(vins?.vins).toHaveLength(4);
    for (const v of vins?.vins ?? []) {
      expect(v.make && v.model && v.year).toBeTruthy();
    }
    // from the centre's own inspections; the other side's dates need its profile (below)
    expect(vins?.vins.filter((v) => v.lastInspection[SWIFTPATH])).toHaveLength(3);
    expect(vins?.vins.some((v) => v.lastInspection[RAPID_ROUTE])).toBe(false);
    const phone = pair(alone).find((e) => e.type.id === 'telephone');
    expect(phone?.statements[0]?.identifier).toBe('4698124471');
    expect(phone?.statements[0]?.since).toMatch(/^\d{4}-\d{2}-\d{2}/);
    expect(phone?.label).toBe('Phone …4471');
  });

  it('merges the expanded side into the same edges, without duplicates', () => {
    noDuplicates(both);
    expect(pair(both).map((e) => e.id)).toEqual(pair(alone).map((e) => e.id));
    for (const edge of pair(both))
      expect(edge.statements.map((s) => s.from).sort()).toEqual([RAPID_ROUTE, SWIFTPATH]);
    expect(both.nodes.find((n) => n.dot === RAPID_ROUTE)?.expanded).toBe(true);
    // its own inspections now date each VIN's last inspection under the predecessor
    const vins = pair(both).find((e) => e.type.id === 'equipment')?.vins ?? [];
    expect(vins.every((v) => /^\d{4}-\d{2}-\d{2}$/.test(v.lastInspection[RAPID_ROUTE] ?? ''))).toBe(
      true,
    );
    expect(vins.filter((v) => v.lastInspection[SWIFTPATH])).toHaveLength(3);
  });

  it('ignores the centre or a carrier listed twice among the expanded ones', () => {
    const again = buildGraph({ dot: SWIFTPATH, profile: swiftpath }, [
      { dot: RAPID_ROUTE, profile: rapidRoute },
      { dot: `0${RAPID_ROUTE}`, profile: rapidRoute },
      { dot: SWIFTPATH, profile: rapidRoute },
    ]);
    expect(again).toEqual(both);
  });

  it('carries the verdicts it is given', () => {
    const graph = buildGraph(
      { dot: SWIFTPATH, profile: swiftpath },
      [],
      new Map(),
      new Map([[RAPID_ROUTE, 'fail' as const]]),
    );
    expect(graph.nodes.find((n) => n.dot === RAPID_ROUTE)?.verdict).toBe('fail');
    expect(graph.nodes[0]?.verdict).toBeUndefined();
  });
});

describe('pieces', () => {
  it('classifies statuses, out of service first', () => {
    expect(statusOf({ usdotStatus: 'Active', outOfService: true })).toBe('out-of-service');
    expect(statusOf({ usdotStatus: 'ACTIVE', outOfService: false })).toBe('active');
    expect(statusOf({ usdotStatus: 'Inactive', outOfService: undefined })).toBe('inactive');
    expect(statusOf({ usdotStatus: 'Revoked', outOfService: undefined })).toBe('revoked');
    expect(statusOf({ usdotStatus: undefined, outOfService: undefined })).toBe('unknown');
    expect(statusOf(undefined)).toBe('unknown');
  });

  it('masks what is personal and never returns the whole value', () => {
    expect(maskIdentifier('cellphone', '+1 (469) 812-4471')).toBe('…4471');
    expect(maskIdentifier('email', 'Someone@Example.COM')).toBe('@example.com');
    expect(maskIdentifier('fax', '12')).toBe('…');
    expect(maskIdentifier('email', 'not-an-address')).toBe('…');
    expect(maskIdentifier('telephone', undefined)).toBeUndefined();
  });

  it('reads ?expand= as distinct DOTs without the centre', () => {
    expect(parseExpand('3187452, 0003187452,abc,4418207,,12345', '4418207')).toEqual([
      '3187452',
      '12345',
    ]);
    expect(parseExpand(null, '1')).toEqual([]);
  });
});

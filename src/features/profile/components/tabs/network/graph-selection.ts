/** What the graph, its list of carriers and its panel have selected: a carrier or one link. */
export type GraphSelection = { kind: 'node'; dot: string } | { kind: 'edge'; id: string };

/**
 * Query keys of the tender-check entity (docs/tender-check.md): one root, so a new check asks the
 * lists again (the Tender checks page's and the carrier profile's) with one invalidation.
 */
export const tenderKeys = {
  all: ['tender'] as const,
  lists: () => [...tenderKeys.all, 'list'] as const,
  list: (query: unknown) => [...tenderKeys.lists(), query] as const,
  one: (id: string) => [...tenderKeys.all, 'one', id] as const,
};

/**
 * The Decisions page's calls (docs/vetting.md): one record, every record matching the filters (the
 * CSV export), the chain check, the decisions a saved policy flagged and the re-vet queue. The
 * filtered list itself is the vetting entity's (`useDecisions`): the profile shows it too. Every
 * answer is parsed with the vetting contract's schemas (src/lib/vetting/contract.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { apiGet, parseBody } from '../../../lib/api-client.ts';
import {
  chainCheckSchema,
  currentDecisionPageSchema,
  decisionPageSchema,
  revetDueSchema,
} from '../../../lib/vetting/contract.ts';
import { decisionRecordSchema, type DecisionRecord } from '../../../lib/vetting/decision-record.ts';
import type { DecisionFilters } from '../../../entities/vetting/decisions.ts';
import { vettingKeys } from '../../../entities/vetting/keys.ts';

/** Every record matching the filters (all pages), for the CSV export. */
export async function allDecisions(filters: DecisionFilters): Promise<DecisionRecord[]> {
  const items: DecisionRecord[] = [];
  for (let page = 1; ; page += 1) {
    const body = parseBody(
      decisionPageSchema,
      await apiGet('/api/local/decisions', { ...filters, page }),
      'the decision records',
    );
    items.push(...body.items);
    if (body.items.length === 0 || items.length >= body.total) return items;
  }
}

export function useDecision(id: string) {
  return useQuery({
    queryKey: vettingKeys.decision(id),
    queryFn: async ({ signal }) =>
      parseBody(
        decisionRecordSchema,
        await apiGet(`/api/local/decisions/${encodeURIComponent(id)}`, {}, { signal }),
        'the decision record',
      ),
  });
}

/**
 * Every current decision (`?all=1`), a page at a time; `needs_revet` keeps only those a saved
 * policy flagged.
 */
export function useAllCurrentDecisions(
  filters: { page?: number; needs_revet?: boolean } = {},
  enabled = true,
) {
  const page = filters.page ?? 1;
  const needsRevet = Boolean(filters.needs_revet);
  return useQuery({
    enabled,
    queryKey: vettingKeys.currentAll(page, needsRevet),
    queryFn: async ({ signal }) =>
      parseBody(
        currentDecisionPageSchema,
        await apiGet(
          '/api/local/decisions/current',
          { all: '1', page, ...(needsRevet ? { needs_revet: '1' } : {}) },
          { signal },
        ),
        'the current decisions',
      ),
  });
}

export function useChainCheck() {
  return useQuery({
    queryKey: vettingKeys.chainCheck(),
    queryFn: async ({ signal }) =>
      parseBody(
        chainCheckSchema,
        await apiGet('/api/local/decisions/verify', {}, { signal }),
        'the chain check',
      ),
    staleTime: 0,
  });
}

/**
 * The re-vet queue (`GET /api/local/decisions/revet-due`): current decisions whose re-vet date
 * has passed or falls within 14 days, with the counts the navigation shows.
 */
export function useRevetDue(enabled = true) {
  return useQuery({
    enabled,
    queryKey: vettingKeys.revetDue(),
    queryFn: async ({ signal }) =>
      parseBody(
        revetDueSchema,
        await apiGet('/api/local/decisions/revet-due', {}, { signal }),
        'the re-vet queue',
      ),
    staleTime: 60_000,
  });
}

/**
 * The Decisions page's calls (docs/vetting.md): one record, every record matching the filters (the
 * CSV export), the chain check, the decisions a saved policy flagged and the re-vet queue. The
 * filtered list itself is the vetting entity's (`useDecisions`): the profile shows it too.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet } from '../../../lib/api-client.ts';
import { currentDecisionPageSchema } from '../../../lib/vetting/current-decision.ts';
import {
  DECISIONS,
  decisionRecordSchema,
  type DecisionRecord,
} from '../../../lib/vetting/decision-record.ts';
import { decisionPageSchema, type DecisionFilters } from '../../../entities/vetting/decisions.ts';
import { vettingKeys } from '../../../entities/vetting/keys.ts';

/** Every record matching the filters (all pages), for the CSV export. */
export async function allDecisions(filters: DecisionFilters): Promise<DecisionRecord[]> {
  const items: DecisionRecord[] = [];
  for (let page = 1; ; page += 1) {
    const body = decisionPageSchema.parse(
      await apiGet('/api/local/decisions', { ...filters, page }),
    );
    items.push(...body.items);
    if (body.items.length === 0 || items.length >= body.total) return items;
  }
}

export function useDecision(id: string) {
  return useQuery({
    queryKey: vettingKeys.decision(id),
    queryFn: async ({ signal }) =>
      decisionRecordSchema.parse(
        await apiGet(`/api/local/decisions/${encodeURIComponent(id)}`, {}, { signal }),
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
      currentDecisionPageSchema.parse(
        await apiGet(
          '/api/local/decisions/current',
          { all: '1', page, ...(needsRevet ? { needs_revet: '1' } : {}) },
          { signal },
        ),
      ),
  });
}

const chainCheck = z.object({
  ok: z.boolean(),
  count: z.number(),
  first_bad_id: z.number().optional(),
  problem: z.string().optional(),
});

export function useChainCheck() {
  return useQuery({
    queryKey: vettingKeys.chainCheck(),
    queryFn: async ({ signal }) =>
      chainCheck.parse(await apiGet('/api/local/decisions/verify', {}, { signal })),
    staleTime: 0,
  });
}

const revetDueBody = z.object({
  as_of: z.string(),
  within_days: z.number(),
  overdue: z.number(),
  soon: z.number(),
  items: z.array(
    z.object({
      id: z.number(),
      dot_number: z.string(),
      legal_name: z.string().nullable(),
      decision: z.enum(DECISIONS),
      decided_at: z.string(),
      expires_on: z.string(),
      due: z.enum(['overdue', 'soon']),
    }),
  ),
});

/**
 * The re-vet queue (`GET /api/local/decisions/revet-due`): current decisions whose re-vet date
 * has passed or falls within 14 days, with the counts the navigation shows.
 */
export function useRevetDue(enabled = true) {
  return useQuery({
    enabled,
    queryKey: vettingKeys.revetDue(),
    queryFn: async ({ signal }) =>
      revetDueBody.parse(await apiGet('/api/local/decisions/revet-due', {}, { signal })),
    staleTime: 60_000,
  });
}

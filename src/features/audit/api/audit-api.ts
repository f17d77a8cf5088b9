/**
 * The proxy's audit log, `GET /api/local/audit` (admins only): a page of rows, newest first,
 * filtered by user or DOT. Read with the route's contract schema (src/lib/governance/contract.ts).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiGet, parseBody } from '../../../lib/api-client.ts';
import { auditRoute } from '../../../lib/governance/contract.ts';

const auditPageSchema = auditRoute.responses[200];
export type AuditItem = z.infer<typeof auditPageSchema>['items'][number];

export interface AuditFilter {
  user?: string | undefined;
  dot?: string | undefined;
  page: number;
}

export const AUDIT_PAGE_SIZE = 50;

/** One page of the audit log; only asked when `enabled` (an admin: the route refuses others). */
export function useAuditPage(filter: AuditFilter, enabled: boolean) {
  return useQuery({
    queryKey: ['audit', filter] as const,
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) =>
      parseBody(
        auditPageSchema,
        await apiGet(
          auditRoute.path,
          {
            user: filter.user,
            dot: filter.dot,
            page: filter.page,
            pageSize: AUDIT_PAGE_SIZE,
          },
          { signal },
        ),
        'the audit log',
      ),
  });
}

/**
 * The proxy's audit log, `GET /api/local/audit` (admins only): a page of rows, newest first,
 * filtered by user or DOT. Read with zod.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, parseBody } from '../../../lib/api-client.ts';

const auditItemSchema = z.object({
  id: z.number(),
  at: z.string(),
  user: z.string(),
  method: z.string(),
  endpoint: z.string(),
  searchKey: z.string().nullable(),
  searchValue: z.string().nullable(),
  dot: z.string().nullable(),
  cacheHit: z.boolean(),
  billable: z.boolean(),
  status: z.number(),
});
export type AuditItem = z.infer<typeof auditItemSchema>;

const auditPageSchema = z.object({
  items: z.array(auditItemSchema),
  total_count: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

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
          '/api/local/audit',
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

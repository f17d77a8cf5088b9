/** Query keys of bulk vetting: the job list and each job (its items at one page size). */
const ROOT = ['bulk-jobs'] as const;

export const bulkKeys = {
  all: () => ROOT,
  list: () => [...ROOT, 'list'] as const,
  job: (id: string) => [...ROOT, 'job', id] as const,
};

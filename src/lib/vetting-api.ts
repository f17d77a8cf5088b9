/**
 * The proxy's vetting routes for the SPA (docs/vetting.md): the team policy and its versions, the
 * decision records and the chain check, and the verdict on one carrier. Shared by the profile
 * feature (verdict banner, current decision) and the vetting feature (Decisions, Policy, print
 * view). Bodies are parsed with zod.
 */
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { apiGet, apiPost, apiPut } from './api-client.ts';
import {
  CARGO_CLASSES,
  HAZMAT_MODES,
  RULE_IDS,
  readStoredOptions,
  readStoredSettings,
  type Policy,
  type PolicyOptions,
  type PolicySettings,
  type RuleId,
  type RuleSettings,
} from './vetting/index.ts';
import {
  DECISION_LABELS,
  DECISIONS,
  decisionRecordSchema as decisionRecord,
  outcomeSchema as outcome,
  reasonSchema as reason,
  type Decision,
  type DecisionRecord,
} from './vetting/decision-record.ts';
import { STANDINGS } from './vetting/standing.ts';

export { DECISIONS, DECISION_LABELS, type Decision, type DecisionRecord };

const ruleInfo = z.object({
  id: z.enum(RULE_IDS),
  label: z.string(),
  description: z.string(),
  tab: z.string(),
  outcomes: z.array(z.enum(['review', 'fail'])),
  threshold: z
    .object({
      label: z.string(),
      unit: z.string(),
      min: z.number(),
      max: z.number(),
      step: z.number().optional(),
    })
    .nullable(),
  // the choices of the list and one-of settings (absent from a proxy that predates them)
  cargo_classes: z
    .array(z.object({ id: z.enum(CARGO_CLASSES), label: z.string() }))
    .nullish()
    .transform((v) => v ?? null),
  hazmat_modes: z
    .array(z.object({ id: z.enum(HAZMAT_MODES), label: z.string() }))
    .nullish()
    .transform((v) => v ?? null),
});
export type RuleInfo = z.infer<typeof ruleInfo>;

const policyVersion = z.object({
  version: z.number().int(),
  settings: z.unknown(),
  // an older proxy answers without options: read as the defaults
  options: z.object({ max_revet_days: z.number().int() }).optional(),
  created_by: z.string(),
  created_at: z.string().nullable(),
  changes: z.array(z.string()),
  note: z.string().nullable(),
});

const policyBody = policyVersion.extend({ rules: z.array(ruleInfo) });

export interface PolicyVersion {
  version: number;
  settings: PolicySettings;
  options: PolicyOptions;
  created_by: string;
  created_at: string | null;
  changes: string[];
  note: string | null;
}

export interface CurrentPolicy extends PolicyVersion {
  rules: RuleInfo[];
}

function toVersion(body: z.infer<typeof policyVersion>): PolicyVersion {
  return {
    ...body,
    settings: readStoredSettings(body.settings),
    options: readStoredOptions(body.options),
  };
}

const decisionPage = z.object({
  items: z.array(decisionRecord),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});

const chainCheck = z.object({
  ok: z.boolean(),
  count: z.number(),
  first_bad_id: z.number().optional(),
  problem: z.string().optional(),
});

export interface DecisionFilters {
  dot_number?: string | undefined;
  decision?: Decision | undefined;
  user?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page?: number | undefined;
}

const POLICY_KEY = ['vetting', 'policy'] as const;
const DECISIONS_KEY = ['vetting', 'decisions'] as const;

function policyQuery() {
  return queryOptions({
    queryKey: POLICY_KEY,
    queryFn: async ({ signal }): Promise<CurrentPolicy> => {
      const body = policyBody.parse(await apiGet('/api/local/policy', {}, { signal }));
      return { ...toVersion(body), rules: body.rules };
    },
  });
}

/** The current policy as the engine takes it. */
export function enginePolicy(policy: PolicyVersion): Policy {
  return { version: policy.version, settings: policy.settings };
}

export function usePolicy() {
  return useQuery(policyQuery());
}

const verdictBody = z.object({
  dot_number: z.string().nullable(),
  legal_name: z.string().nullable(),
  fetched_at: z.string(),
  evaluated_at: z.string(),
  verdict: outcome,
  policy_version: z.number(),
  snapshot_date: z.string().nullable(),
  reasons: z.array(reason),
});
type ProxyVerdict = z.infer<typeof verdictBody>;
export type VerdictReason = ProxyVerdict['reasons'][number];

/**
 * The query key of a carrier's verdict: under the policy's key, so saving a policy (which
 * invalidates the policy) has every verdict asked again.
 */
export function verdictKey(dot: string) {
  return [...POLICY_KEY, 'verdict', dot] as const;
}

/**
 * The proxy's verdict on one carrier (`GET /api/local/verdict`): the same engine and policy, run
 * on the proxy's cached profile (free on a hit; a miss is the one billed profile call the page
 * makes anyway), so the browser needs neither the full profile nor its network lists for it.
 */
export function useVerdict(dot: string, enabled = true) {
  return useQuery({ ...verdictQuery(dot), enabled });
}

/** The verdict's query, also run ahead by the profile prefetch (src/app/profile-prefetch.ts). */
export function verdictQuery(dot: string) {
  return queryOptions({
    queryKey: verdictKey(dot),
    queryFn: async ({ signal }) =>
      verdictBody.parse(await apiGet('/api/local/verdict', { dot_number: dot }, { signal })),
  });
}

export function usePolicyVersions() {
  return useQuery({
    queryKey: [...POLICY_KEY, 'versions'],
    queryFn: async ({ signal }) => {
      const body = z
        .object({ items: z.array(policyVersion) })
        .parse(await apiGet('/api/local/policy/versions', {}, { signal }));
      return body.items.map(toVersion);
    },
  });
}

export type RuleChanges = Partial<Record<RuleId, Partial<RuleSettings>>>;

export function useSavePolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      rules: RuleChanges;
      options?: Partial<PolicyOptions>;
      note?: string;
    }) => toVersion(policyVersion.parse(await apiPut('/api/local/policy', input))),
    onSuccess: () => client.invalidateQueries({ queryKey: POLICY_KEY }),
  });
}

const previewEntry = z.object({
  dot_number: z.string(),
  legal_name: z.string().nullable(),
  decision: z.enum(DECISIONS),
  decision_id: z.number(),
  standing_before: z.enum(STANDINGS),
  standing_after: z.enum(STANDINGS),
  verdict_before: outcome,
  verdict_after: outcome,
  reasons: z.array(reason),
});
export type PreviewEntry = z.infer<typeof previewEntry>;

const policyPreview = z.object({
  version_from: z.number(),
  would_fail: z.array(previewEntry),
  would_review: z.array(previewEntry),
  would_pass: z.array(previewEntry),
  unchanged: z.number(),
});
export type PolicyPreview = z.infer<typeof policyPreview>;

/**
 * What saving these changes would do to the decisions on record (`POST /api/local/policy/preview`:
 * nothing stored, no billed call), asked again whenever the changes differ.
 */
export function usePolicyPreview(
  input: { rules: RuleChanges; options?: Partial<PolicyOptions> },
  enabled: boolean,
) {
  return useQuery({
    enabled,
    queryKey: [...POLICY_KEY, 'preview', input],
    queryFn: async ({ signal }) =>
      policyPreview.parse(await apiPost('/api/local/policy/preview', input, { signal })),
    staleTime: 0,
  });
}

function decisionsQuery(filters: DecisionFilters) {
  return queryOptions({
    queryKey: [...DECISIONS_KEY, 'list', filters],
    queryFn: async ({ signal }) =>
      decisionPage.parse(await apiGet('/api/local/decisions', { ...filters }, { signal })),
    staleTime: 0,
  });
}

export function useDecisions(filters: DecisionFilters) {
  return useQuery(decisionsQuery(filters));
}

/** Every record matching the filters (all pages), for the CSV export. */
export async function allDecisions(filters: DecisionFilters): Promise<DecisionRecord[]> {
  const items: DecisionRecord[] = [];
  for (let page = 1; ; page += 1) {
    const body = decisionPage.parse(await apiGet('/api/local/decisions', { ...filters, page }));
    items.push(...body.items);
    if (body.items.length === 0 || items.length >= body.total) return items;
  }
}

export function useDecision(id: string) {
  return useQuery({
    queryKey: [...DECISIONS_KEY, 'one', id],
    queryFn: async ({ signal }) =>
      decisionRecord.parse(
        await apiGet(`/api/local/decisions/${encodeURIComponent(id)}`, {}, { signal }),
      ),
  });
}

/**
 * The verdict of a carrier's freshest held data under the current policy (never a billed call):
 * its cached profile (`source: "profile"`), else the record's evidence with the monitoring changes
 * seen since laid over (`"record"`). `reasons` are the non-pass rule results.
 */
const heldVerdict = z.object({
  verdict: outcome,
  policy_version: z.number(),
  reasons: z.array(reason),
  fetched_at: z.string(),
  evaluated_at: z.string(),
  source: z.enum(['profile', 'record']),
  /** the held profile is marked stale after a reported change (refetched on its next view) */
  stale: z.boolean().optional(),
});
export type HeldVerdict = z.infer<typeof heldVerdict>;

/** A current decision (`GET /api/local/decisions/current`) with its standing now. */
const currentDecision = decisionRecord.extend({
  now: heldVerdict.nullable(),
  standing: z.enum(STANDINGS),
  /** a saved policy changed its standing and no newer decision was recorded since */
  needs_revet: z.boolean(),
  /** the record carries an override reason */
  override: z.boolean(),
  /** the re-vet date has passed, or falls within 14 days */
  revet_due: z.enum(['overdue', 'soon']).nullable(),
});
export type CurrentDecision = z.infer<typeof currentDecision>;

const currentPage = z.object({
  items: z.array(currentDecision),
  total: z.number(),
  page: z.number(),
  page_size: z.number(),
});

/**
 * Every current decision (`?all=1`), a page at a time; `needs_revet` keeps only those a saved
 * policy flagged.
 */
export function useAllCurrentDecisions(
  filters: { page?: number; needs_revet?: boolean } = {},
  enabled = true,
) {
  const page = filters.page ?? 1;
  return useQuery({
    enabled,
    queryKey: [...DECISIONS_KEY, 'current-all', page, Boolean(filters.needs_revet)],
    queryFn: async ({ signal }) =>
      currentPage.parse(
        await apiGet(
          '/api/local/decisions/current',
          { all: '1', page, ...(filters.needs_revet ? { needs_revet: '1' } : {}) },
          { signal },
        ),
      ),
  });
}

export function useChainCheck() {
  return useQuery({
    queryKey: [...DECISIONS_KEY, 'verify'],
    queryFn: async ({ signal }) =>
      chainCheck.parse(await apiGet('/api/local/decisions/verify', {}, { signal })),
    staleTime: 0,
  });
}

export interface DecisionInput {
  dot_number: string;
  decision: Decision;
  note?: string;
  conditions?: string;
  expires_on?: string;
  supersedes?: number;
  /** required to approve a carrier the policy fails or sends to review */
  override_reason?: string;
}

function invalidateDecisions(client: QueryClient) {
  return client.invalidateQueries({ queryKey: DECISIONS_KEY });
}

export function useRecordDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: DecisionInput) =>
      decisionRecord.parse(await apiPost('/api/local/decisions', input)),
    onSuccess: () => invalidateDecisions(client),
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
export type RevetDue = z.infer<typeof revetDueBody>;

/**
 * The re-vet queue (`GET /api/local/decisions/revet-due`): current decisions whose re-vet date
 * has passed or falls within 14 days, with the counts the navigation shows.
 */
export function useRevetDue(enabled = true) {
  return useQuery({
    enabled,
    queryKey: [...DECISIONS_KEY, 'revet-due'],
    queryFn: async ({ signal }) =>
      revetDueBody.parse(await apiGet('/api/local/decisions/revet-due', {}, { signal })),
    staleTime: 60_000,
  });
}

/** Today (local calendar) as YYYY-MM-DD. */
function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A decision past its re-vet date. */
export function isExpired(
  record: Pick<DecisionRecord, 'expires_on'>,
  today = localToday(),
): boolean {
  return record.expires_on !== null && record.expires_on < today;
}

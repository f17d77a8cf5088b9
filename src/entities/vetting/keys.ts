/**
 * Query keys of the vetting entity (docs/vetting.md). Two roots, each invalidated as a whole:
 * saving a policy asks again everything under `policy` (a carrier's verdict included) and under
 * `decisions` (the standings shown beside decisions change with the policy); recording a decision
 * asks again everything under `decisions`.
 */
export const vettingKeys = {
  all: ['vetting'] as const,
  policy: ['vetting', 'policy'] as const,
  /** a carrier's verdict: under the policy, so a saved policy has it asked again */
  verdict: (dot: string) => [...vettingKeys.policy, 'verdict', dot] as const,
  policyVersions: () => [...vettingKeys.policy, 'versions'] as const,
  policyPreview: (input: unknown) => [...vettingKeys.policy, 'preview', input] as const,
  decisions: ['vetting', 'decisions'] as const,
  decisionList: (filters: unknown) => [...vettingKeys.decisions, 'list', filters] as const,
  decision: (id: string) => [...vettingKeys.decisions, 'one', id] as const,
  currentAll: (page: number, needsRevet: boolean) =>
    [...vettingKeys.decisions, 'current-all', page, needsRevet] as const,
  chainCheck: () => [...vettingKeys.decisions, 'verify'] as const,
  revetDue: () => [...vettingKeys.decisions, 'revet-due'] as const,
  /** the standings of these DOTs' current decisions, judged on `basis` (see standing.ts) */
  standing: (dots: readonly string[], basis: string | null) =>
    [...vettingKeys.decisions, 'standing', dots, basis] as const,
};

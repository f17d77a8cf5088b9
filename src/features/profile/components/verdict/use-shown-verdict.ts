import { useMemo } from 'react';
import type { Profile } from '../../../../lib/service/index.ts';
import { enginePolicy, usePolicy } from '../../../../entities/vetting/policy.ts';
import { useVerdict } from '../../api/verdict.ts';
import { evaluate } from '../../../../lib/vetting/index.ts';

/**
 * The verdict on screen: the proxy's (`/api/local/verdict`, one query shared by the header's
 * summary and the overview's full verdict), or computed here from the full profile on screen when
 * the proxy keeps no profile cache (each verdict call would then be another billed profile call).
 */
export function useShownVerdict(dot: string, profile: Profile, local: boolean) {
  const remote = useVerdict(dot, !local);
  const policy = usePolicy();
  const computed = useMemo(
    () => (local && policy.data ? evaluate(profile, enginePolicy(policy.data)) : undefined),
    [local, profile, policy.data],
  );
  if (!local) return remote;
  return policy.isError
    ? { data: undefined, isError: true as const, error: policy.error }
    : { data: computed, isError: false as const, error: null };
}

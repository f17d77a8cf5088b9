/**
 * A decision's standing against the carrier's verdict now (issue 29, docs/vetting.md): every
 * screen that shows a decision asks `GET /api/local/decisions/current` here, one request for all
 * its DOTs (computed by the proxy without a billed call), and words the answer with
 * `standingWords` (src/lib/decision-standing.ts) so every screen says the same.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiGet, parseBody } from '../../lib/api-client.ts';
import { standingDots } from '../../lib/decision-standing.ts';
import { currentDecisionsSchema, type CurrentDecision } from '../../lib/vetting/contract.ts';
import { vettingKeys } from './keys.ts';

/** At most this many DOTs per call (the proxy's limit). */
const MAX_STANDING_DOTS = 500;

/** The standing of each carrier's current decision, by DOT, from one request per 500 DOTs. */
export async function fetchStandings(
  dots: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, CurrentDecision>> {
  const parts: string[][] = [];
  for (let i = 0; i < dots.length; i += MAX_STANDING_DOTS) {
    parts.push(dots.slice(i, i + MAX_STANDING_DOTS));
  }
  const answers = await Promise.all(
    parts.map((part) =>
      apiGet('/api/local/decisions/current', { dot_numbers: part.join(',') }, { signal }),
    ),
  );
  const map = new Map<string, CurrentDecision>();
  for (const body of answers) {
    const { items } = parseBody(currentDecisionsSchema, body, 'the standing of decisions');
    for (const item of items) map.set(item.dot_number, item);
  }
  return map;
}

/**
 * The standing of each carrier's current decision, by DOT (none asked → no call). `basis` names
 * the data the screen shows beside it (e.g. the verdict's policy version and fetch time): when that
 * moves on — the profile was fetched anew after a monitoring change, the policy was saved — the
 * standing is asked again, so the decision is never judged on older data than the verdict next to
 * it. `staleTime: 0`: a policy saved elsewhere changes standings, so each screen asks anew when it
 * opens. The previous answer stays on screen while the new one comes.
 */
export function useDecisionStandings(dots: readonly string[], enabled = true, basis?: string) {
  const asked = standingDots(dots);
  return useQuery({
    queryKey: vettingKeys.standing(asked, basis ?? null),
    queryFn: ({ signal }) => fetchStandings(asked, signal),
    enabled: enabled && asked.length > 0,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

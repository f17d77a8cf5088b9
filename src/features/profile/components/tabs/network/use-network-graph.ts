import { skipToken, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Profile } from '../../../../../lib/service/index.ts';
import { evaluate } from '../../../../../lib/vetting/evaluate.ts';
import type { Outcome } from '../../../../../lib/vetting/types.ts';
import { enginePolicy, type usePolicy } from '../../../../../entities/vetting/policy.ts';
import { heldGraphProfileQuery, type GraphProfile } from '../../../api/graph-profiles.ts';
import type { ProfileResult } from '../../../api/get-profile.ts';
import { profileKeys } from '../../../api/keys.ts';
import { buildGraph, parseExpand, type GraphSource, type NetworkGraph } from './graph-model.ts';
import { linkedDots, networkLinks } from './model.ts';
import { useKnownCarriers } from './use-known-carriers.ts';

type CurrentPolicy = NonNullable<ReturnType<typeof usePolicy>['data']>;
/**
 * `usePolicy`'s key: the graph reads the policy the profile header has loaded and never asks for it
 * itself, so the tab makes no call of its own until the user expands a carrier.
 */
const POLICY_KEY = ['vetting', 'policy'] as const;

/** Verdicts by profile object and policy version: the graph is rebuilt on every cache change. */
const verdictCache = new WeakMap<Profile, { version: number; verdict: Outcome }>();

/** The answers alone; TanStack keeps the combined array while they stay the same objects. */
function answers(results: readonly { data: GraphProfile | undefined }[]) {
  return results.map((r) => r.data);
}

export interface NetworkGraphState {
  graph: NetworkGraph;
  /** `?expand=`, in order */
  expand: readonly string[];
  /** DOTs of `?expand=` that neither the page nor the proxy holds: shown unexpanded */
  notHeld: readonly string[];
  /** DOTs of `?expand=` still being read from the caches */
  pending: readonly string[];
  addExpand: (dot: string) => void;
  removeExpand: (dot: string) => void;
}

/**
 * The graph of the tab's carrier and the carriers expanded in the URL (`?expand=DOT,DOT`). An
 * expanded carrier is read only from the caches (the page's, then the proxy's with only-if-cached):
 * a reload never bills; one not held stays unexpanded until the user expands it at its shown cost.
 */
export function useNetworkGraph(dot: string, profile: Profile): NetworkGraphState {
  const client = useQueryClient();
  const [params] = useSearchParams();
  const expandParam = params.get('expand');
  // The list lives here and the address bar mirrors it (history.replaceState): a router navigation
  // would redraw the whole profile page, hundreds of rows for a heavy carrier, on every expand. A
  // navigation that brings its own ?expand= (back, forward, a link) is adopted.
  const [state, setState] = useState(() => ({
    param: expandParam,
    dot,
    list: parseExpand(expandParam, dot),
  }));
  let current = state;
  if (state.param !== expandParam || state.dot !== dot) {
    current = { param: expandParam, dot, list: parseExpand(expandParam, dot) };
    setState(current);
  }
  const expand = current.list;

  const held = useQueries({
    queries: expand.map((d) => heldGraphProfileQuery(client, d)),
    combine: answers,
  });
  const sources = useMemo(
    () =>
      expand.flatMap((d, i): GraphSource[] => {
        const data: GraphProfile | undefined = held[i];
        return data?.state === 'held' ? [{ dot: d, profile: data.profile }] : [];
      }),
    [expand, held],
  );
  const notHeld = expand.filter((_, i) => held[i] && held[i]?.state !== 'held');
  const pending = expand.filter((_, i) => !held[i]);

  const candidates = useMemo(
    () =>
      linkedDots([
        ...networkLinks(profile, dot),
        ...sources.flatMap((s) => networkLinks(s.profile, s.dot)),
      ]),
    [profile, dot, sources],
  );
  const known = useKnownCarriers(candidates, undefined);

  const policy = useQuery<CurrentPolicy>({ queryKey: POLICY_KEY, queryFn: skipToken });
  const verdicts = useMemo(() => {
    const map = new Map<string, Outcome>();
    if (!policy.data) return map;
    const rules = enginePolicy(policy.data);
    const verdictOf = (p: Profile) => {
      const cached = verdictCache.get(p);
      if (cached?.version === rules.version) return cached.verdict;
      const verdict = evaluate(p, rules).verdict;
      verdictCache.set(p, { version: rules.version, verdict });
      return verdict;
    };
    map.set(dot, verdictOf(profile));
    for (const s of sources) map.set(s.dot, verdictOf(s.profile));
    // carriers whose profile page was opened in this session: their profile is at hand, free
    for (const [d, carrier] of known) {
      if (carrier.source !== 'profile' || map.has(d)) continue;
      const full = client.getQueryData<ProfileResult>(profileKeys.full(d))?.profile;
      if (full) map.set(d, verdictOf(full));
    }
    return map;
  }, [policy.data, dot, profile, sources, known, client]);

  const graph = useMemo(
    () => buildGraph({ dot, profile }, sources, known, verdicts),
    [dot, profile, sources, known, verdicts],
  );

  const writeExpand = useCallback((next: string[]) => {
    setState((prev) => ({ ...prev, list: next }));
    const params = new URLSearchParams(window.location.search);
    params.delete('expand');
    // DOTs are digits: the list is written with plain commas, `?expand=DOT,DOT`
    const search = [params.toString(), next.length ? `expand=${next.join(',')}` : '']
      .filter(Boolean)
      .join('&');
    const url = `${window.location.pathname}${search ? `?${search}` : ''}${window.location.hash}`;
    // the router's own entry state is kept, so its history index stays right
    window.history.replaceState(window.history.state, '', url);
  }, []);
  const addExpand = useCallback(
    (d: string) => writeExpand(expand.includes(d) ? expand : [...expand, d]),
    [expand, writeExpand],
  );
  const removeExpand = useCallback(
    (d: string) => writeExpand(expand.filter((x) => x !== d)),
    [expand, writeExpand],
  );
  return { graph, expand, notHeld, pending, addExpand, removeExpand };
}

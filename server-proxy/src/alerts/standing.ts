/**
 * Decisions in alert messages (docs/alerts.md): policy-change announcements and the re-vet queue.
 *
 * After a policy save, the vetting side records each current decision whose standing changed in
 * `vetting_standing_change` (contract29.md). The poller announces each row once: the rows still
 * unannounced are described (carrier name, decision, reasons under the new policy), then marked
 * `announced_at` in the same transaction that queues their deliveries, by a conditional UPDATE, so
 * neither two polls nor a restart announce a row twice. Daily digests list the rows announced
 * since the previous digest, and the decisions whose re-vet date has passed or comes within 14 days.
 *
 * Who receives them: team destinations always; a subscription by its severity — `fails`: approved
 * carriers that now fail; `attention`: those and approved carriers that now need review; `all`:
 * every standing change. Channels do not apply (a policy change touches no field of the carrier).
 */
import type { Policy, PolicySettings } from '../../../src/lib/vetting/index.ts';
import {
  recordVerdict,
  type RecordedVerdictFull,
} from '../../../src/lib/vetting/record-verdict.ts';
import type { VettingSqlStore } from '../vetting/store.ts';
import type { CarrierNames } from './render.ts';
import type {
  AlertStore,
  NewDelivery,
  RevetNotice,
  Severity,
  StandingChangeRow,
  StandingNotice,
  Subscription,
} from './store.ts';

type DecisionOf = Awaited<ReturnType<VettingSqlStore['decision']>>;

export interface StandingDeps {
  store: AlertStore;
  vetting: Pick<VettingSqlStore, 'decision' | 'policyVersion' | 'currentDecisions' | 'revetDue'>;
  names?: { get(dots: readonly string[]): Promise<CarrierNames> } | undefined;
  team: readonly { kind: 'email' | 'webhook'; target: string }[];
  log: { warn(obj: object, message: string): void };
}

/** Whether a subscription of `severity` wants this standing change. */
function standingMatches(notice: Pick<StandingNotice, 'standing_after'>, severity: Severity) {
  if (severity === 'all') return true;
  if (severity === 'fails') return notice.standing_after === 'now_fails';
  return notice.standing_after === 'now_fails' || notice.standing_after === 'now_review';
}

const OUTCOMES = new Set(['pass', 'review', 'fail']);

/**
 * The rules a decision's record fails or needs review on under `policy` (their labels), as the
 * record-based `now` of GET /decisions/current finds them (src/lib/vetting/record-verdict.ts, with
 * the settings the record was evaluated with), when that agrees with the verdict recorded for the
 * change; undefined when it cannot be told (a verdict from a held profile the record cannot
 * reproduce: no count rather than a wrong one).
 */
export function reasonsUnder(
  record: DecisionOf,
  policy: Policy | undefined,
  verdictAfter: string | null,
  recordedSettings?: PolicySettings,
): string[] | undefined {
  const verdict = record?.verdict as Partial<RecordedVerdictFull> | null | undefined;
  if (!policy || !verdict || !OUTCOMES.has(verdict.verdict as string)) return undefined;
  if (!Array.isArray(verdict.reasons)) return undefined;
  const recorded: RecordedVerdictFull = {
    verdict: verdict.verdict as RecordedVerdictFull['verdict'],
    snapshot_date: typeof verdict.snapshot_date === 'string' ? verdict.snapshot_date : null,
    reasons: verdict.reasons,
  };
  const now = recordVerdict(recorded, [], policy, { recordedSettings });
  if (verdictAfter !== null && now.verdict !== verdictAfter) return undefined;
  const hits = now.reasons.filter((reason) => reason.outcome !== 'pass');
  return hits.length > 0 ? hits.map((reason) => reason.label) : undefined;
}

/** The legal name a decision record's profile kept, when it has one. */
function recordedName(record: DecisionOf): string | undefined {
  const identity = (record?.profile as { identity?: unknown } | null | undefined)?.identity;
  if (!Array.isArray(identity)) return undefined;
  const field = (identity as { name?: unknown; value?: unknown }[]).find(
    (f) => f?.name === 'legal_name',
  );
  return typeof field?.value === 'string' && field.value.trim() !== ''
    ? field.value.trim()
    : undefined;
}

/**
 * Names of these DOTs: the names the proxy last saw in the service's answers (../names/store.ts),
 * else the legal name the carrier's current decision record kept. A store that cannot answer
 * leaves those carriers unnamed (a message still goes).
 */
export async function carrierNames(
  deps: Pick<StandingDeps, 'names' | 'vetting' | 'log'>,
  dots: readonly string[],
): Promise<CarrierNames> {
  const wanted = [...new Set(dots)];
  const names = new Map<string, { legal: string | null; dba: string | null }>();
  if (wanted.length === 0) return names;
  try {
    for (const [dot, name] of (await deps.names?.get(wanted)) ?? []) names.set(dot, name);
  } catch (err) {
    deps.log.warn({ error: (err as Error).message }, 'alerts: carrier names unavailable');
  }
  const unnamed = wanted.filter((dot) => !names.get(dot)?.legal);
  if (unnamed.length === 0) return names;
  try {
    for (const record of await deps.vetting.currentDecisions(unnamed)) {
      const legal = recordedName(record);
      if (legal)
        names.set(record.dot_number, { legal, dba: names.get(record.dot_number)?.dba ?? null });
    }
  } catch (err) {
    deps.log.warn({ error: (err as Error).message }, 'alerts: decision names unavailable');
  }
  return names;
}

const namesOf = carrierNames;

/** A name for a carrier: the one the proxy last saw, else the one its decision record kept. */
function named(names: CarrierNames, dot: string, record: DecisionOf) {
  const known = names.get(dot);
  const legal = known?.legal ?? recordedName(record) ?? known?.dba ?? undefined;
  const dba = legal && known?.dba && known.dba !== legal ? known.dba : undefined;
  return { ...(legal && { name: legal }), ...(dba && { dba_name: dba }) };
}

/** The rows as messages say them, by row id. */
async function standingNotices(
  deps: StandingDeps,
  rows: readonly StandingChangeRow[],
): Promise<Map<number, StandingNotice>> {
  const names = await namesOf(
    deps,
    rows.map((row) => row.dot_number),
  );
  const policies = new Map<number, Policy | undefined>();
  /** the settings each record was evaluated with, by version */
  const settings = new Map<number, PolicySettings | undefined>();
  const out = new Map<number, StandingNotice>();
  for (const row of rows) {
    const record = await deps.vetting.decision(row.decision_id);
    if (!policies.has(row.policy_version)) {
      const stored = await deps.vetting.policyVersion(row.policy_version);
      policies.set(
        row.policy_version,
        stored && { version: stored.version, settings: stored.settings },
      );
    }
    const recordedVersion = record?.policy_version;
    if (recordedVersion !== undefined && !settings.has(recordedVersion)) {
      settings.set(recordedVersion, (await deps.vetting.policyVersion(recordedVersion))?.settings);
    }
    const reasons =
      row.standing_after === 'now_fails' || row.standing_after === 'now_review'
        ? reasonsUnder(
            record,
            policies.get(row.policy_version),
            row.verdict_after,
            recordedVersion === undefined ? undefined : settings.get(recordedVersion),
          )
        : undefined;
    out.set(row.id, {
      change_id: row.id,
      dot: row.dot_number,
      ...named(names, row.dot_number, record),
      decision: record?.decision ?? 'unknown',
      decision_id: row.decision_id,
      policy_version: row.policy_version,
      standing_before: row.standing_before,
      standing_after: row.standing_after,
      verdict_after: row.verdict_after,
      ...(reasons && { reasons }),
    });
  }
  return out;
}

/** The deliveries of these notices: each team destination, and each matching subscription. */
function standingDeliveries(
  notices: readonly StandingNotice[],
  team: StandingDeps['team'],
  subscriptions: readonly Subscription[],
): NewDelivery[] {
  if (notices.length === 0) return [];
  const out: NewDelivery[] = team.map((destination) => ({
    subscription_id: null,
    source: 'env',
    ...destination,
    payload: { type: 'standing', carriers: [], standing: [...notices] },
  }));
  for (const sub of subscriptions) {
    if (sub.schedule !== 'immediate') continue;
    const chosen = notices.filter((notice) => standingMatches(notice, sub.severity));
    if (chosen.length === 0) continue;
    out.push({
      subscription_id: sub.id,
      source: 'subscription',
      kind: sub.kind,
      target: sub.target,
      payload: { type: 'standing', carriers: [], standing: chosen },
    });
  }
  return out;
}

/**
 * Announce the standing changes not announced yet, each once: answers how many rows this call
 * announced and the deliveries it queued. Safe to call from any replica at any time.
 */
export async function announceStandingChanges(
  deps: StandingDeps,
  at: Date,
): Promise<{ announced: number; deliveries: number }> {
  const rows = await deps.store.unannouncedStanding();
  if (rows.length === 0) return { announced: 0, deliveries: 0 };
  const notices = await standingNotices(deps, rows);
  const { announced, ids } = await deps.store.announceStanding(
    rows.map((row) => row.id),
    at,
    (marked, subscriptions) =>
      standingDeliveries(
        marked.flatMap((id) => notices.get(id) ?? []),
        deps.team,
        subscriptions,
      ),
  );
  return { announced: announced.length, deliveries: ids.length };
}

/** What a daily digest of `sub` adds: standing changes announced since its last digest, re-vets due. */
export async function digestDecisions(
  deps: StandingDeps,
  sub: Pick<Subscription, 'severity'>,
  from: string,
  at: Date,
): Promise<{ standing: StandingNotice[]; revet_due: RevetNotice[] }> {
  const rows = await deps.store.standingAnnouncedBetween(from, at.toISOString());
  const notices = [...(await standingNotices(deps, rows)).values()].filter((notice) =>
    standingMatches(notice, sub.severity),
  );
  // re-vet dates are about keeping decisions current, not about a carrier failing now
  if (sub.severity === 'fails') return { standing: notices, revet_due: [] };
  const due = await deps.vetting.revetDue({ asOf: at, withinDays: 14 });
  const names = await namesOf(
    deps,
    due.map((item) => item.dot_number),
  );
  const revet_due = due.map((item): RevetNotice => {
    const known = names.get(item.dot_number);
    const name = known?.legal ?? item.legal_name ?? known?.dba ?? undefined;
    return {
      dot: item.dot_number,
      ...(name && { name }),
      decision: item.decision,
      decision_id: item.id,
      expires_on: item.expires_on,
      due: item.due,
    };
  });
  return { standing: notices, revet_due };
}

/**
 * What a delivery says: the e-mail (subject, plain text and HTML, one section per carrier, each
 * changed field as prior → current, a link to the inbox filtered to that carrier) and the webhook
 * body (the same sections as JSON, plus a Slack-compatible `text`), and the webhook signature.
 */
import { createHmac } from 'node:crypto';
import { fieldLabel, formatFieldValue } from '../../../src/lib/field-labels.ts';
import {
  compareSeverity,
  worstFirst,
  worstSeverity,
  type ChangeSeverity,
  type SeverityContext,
} from '../../../src/lib/monitoring/change-severity.ts';
import type { Checkpoint } from '../vetting/receipts.ts';
import type {
  AlertPayload,
  CarrierSection,
  RevetNotice,
  SeenChange,
  StandingNotice,
} from './store.ts';

/** A carrier's known names by DOT (the name store, ../names/store.ts). */
export type CarrierNames = ReadonlyMap<string, { legal: string | null; dba: string | null }>;

export const SIGNATURE_HEADER = 'x-carrierdesk-signature';
export const DELIVERY_HEADER = 'x-carrierdesk-delivery';

const IMPACT_TEXT = {
  fails: 'approved carrier now fails policy',
  'needs-review': 'approved carrier now needs review',
} as const;

const IMPACT_RANK = (impact: CarrierSection['impact']) =>
  impact === 'fails' ? 0 : impact === 'needs-review' ? 1 : 2;

function ownName(changes: readonly SeenChange[], field: 'legal_name' | 'dba_name') {
  const named = changes.find((change) => change.field === field);
  return typeof named?.current === 'string' && named.current.trim() !== ''
    ? named.current.trim()
    : undefined;
}

/**
 * Changes grouped per carrier, each carrier's changes worst first (change-severity.ts); carriers
 * with an impact first (fails, then needs review), then by their worst change. A carrier the
 * names do not know is named by a legal-name change among its own changes, when it has one.
 */
export function sectionsOf(
  changes: readonly SeenChange[],
  names: CarrierNames = new Map(),
  context: SeverityContext = {},
): CarrierSection[] {
  const byProfile = new Map<string, SeenChange[]>();
  for (const change of changes) {
    const list = byProfile.get(change.profileId) ?? [];
    list.push(change);
    byProfile.set(change.profileId, list);
  }
  const sections = [...byProfile.values()].map((own): CarrierSection => {
    const first = own[0]!;
    const known = names.get(first.dot);
    const legal = known?.legal ?? ownName(own, 'legal_name') ?? known?.dba ?? undefined;
    const dbaName = known?.dba ?? ownName(own, 'dba_name');
    const dba = legal && dbaName && dbaName !== legal ? dbaName : undefined;
    const impact = own.some((c) => c.impact === 'fails')
      ? 'fails'
      : (own.find((c) => c.impact)?.impact ?? null);
    return {
      profile_id: first.profileId,
      dot: first.dot,
      ...(legal && { name: legal }),
      ...(dba && { dba_name: dba }),
      impact,
      changes: worstFirst(own, context).map((change) => ({
        id: change.id,
        channel: change.channel,
        field: change.field,
        date: change.date,
        prior: change.prior,
        current: change.current,
      })),
    };
  });
  const worst = new Map(sections.map((s) => [s, worstSeverity(s.changes, context)]));
  for (const [section, severity] of worst) if (severity) section.headline = severity.headline;
  return sections
    .map((section, index) => ({ section, index }))
    .sort(
      (a, b) =>
        IMPACT_RANK(a.section.impact) - IMPACT_RANK(b.section.impact) ||
        compareWorst(worst.get(a.section), worst.get(b.section)) ||
        a.index - b.index,
    )
    .map(({ section }) => section);
}

function compareWorst(a: ChangeSeverity | undefined, b: ChangeSeverity | undefined): number {
  if (!a || !b) return a ? -1 : b ? 1 : 0;
  return compareSeverity(a, b);
}

/** The inbox filtered to one carrier, on the address users open. */
function inboxLink(publicUrl: string, profileId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/monitoring?profile_id=${encodeURIComponent(profileId)}`;
}

/** A carrier's decision on the address users open. */
function carrierLink(publicUrl: string, dot: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/carriers/${encodeURIComponent(dot)}/overview`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function countText(payload: AlertPayload): string {
  const changes = payload.carriers.reduce((sum, carrier) => sum + carrier.changes.length, 0);
  return `${plural(changes, 'change')} on ${plural(payload.carriers.length, 'carrier')}`;
}

/**
 * How a person knows the carrier: `SWIFTPATH EXPRESS LLC (DBA SWIFTPATH) (USDOT 4418207)`; a
 * carrier no answer named: `USDOT 4418207 (MC1612093)`, the docket from its profile id.
 */
function carrierTitle(carrier: {
  dot: string;
  name?: string | undefined;
  dba_name?: string | undefined;
  profile_id?: string | undefined;
}): string {
  if (carrier.name) {
    const dba = carrier.dba_name ? ` (DBA ${carrier.dba_name})` : '';
    return `${carrier.name}${dba} (USDOT ${carrier.dot})`;
  }
  const docket = carrier.profile_id?.startsWith(`${carrier.dot}-`)
    ? carrier.profile_id.slice(carrier.dot.length + 1)
    : '';
  return docket ? `USDOT ${carrier.dot} (${docket})` : `USDOT ${carrier.dot}`;
}

const DECISION_NOUN: Record<string, string> = {
  approved: 'Approved carrier',
  approved_with_conditions: 'Approved carrier (with conditions)',
  rejected: 'Rejected carrier',
  do_not_use: 'Do-not-use carrier',
};

/** "Approved carrier now fails policy v3". */
function standingHeadline(notice: StandingNotice): string {
  const who = DECISION_NOUN[notice.decision] ?? 'Carrier with a decision';
  const policy = `policy v${notice.policy_version}`;
  switch (notice.standing_after) {
    case 'now_fails':
      return `${who} now fails ${policy}`;
    case 'now_review':
      return `${who} now needs review under ${policy}`;
    case 'now_passes':
      return `${who} now passes ${policy}`;
    case 'holds':
      return `${who}: the decision holds again under ${policy}`;
    default:
      return `${who}: no held data to check it against ${policy}`;
  }
}

const STANDING_RANK: Record<string, number> = {
  now_fails: 0,
  now_review: 1,
  now_passes: 2,
  holds: 3,
  unknown: 4,
};

/** Standing notices worst first (now fails, now needs review, now passes, holds, unknown). */
function standingOrder(notices: readonly StandingNotice[]): StandingNotice[] {
  return [...notices].sort(
    (a, b) =>
      (STANDING_RANK[a.standing_after] ?? 9) - (STANDING_RANK[b.standing_after] ?? 9) ||
      a.change_id - b.change_id,
  );
}

/** "Approved carrier now fails policy v3 — IRONCLAD FREIGHT SYSTEMS (USDOT 2214589): 2 reasons". */
export function standingLine(notice: StandingNotice): string {
  const reasons = notice.reasons?.length
    ? `: ${plural(notice.reasons.length, 'reason')} (${notice.reasons.join(', ')})`
    : '';
  return `${standingHeadline(notice)} — ${carrierTitle(notice)}${reasons}`;
}

function revetLine(notice: RevetNotice): string {
  const when =
    notice.due === 'overdue' ? `overdue since ${notice.expires_on}` : `due ${notice.expires_on}`;
  return `${carrierTitle(notice)} — re-vet ${when} (${DECISION_NOUN[notice.decision] ?? notice.decision})`;
}

/**
 * The message's one line: its worst news and whose it is (`Authority revoked — SWIFTPATH EXPRESS
 * LLC (USDOT 4418207)`), then how much more there is (`· 5 changes on 2 carriers`). A decision that
 * now fails policy leads unless a changed carrier's own approval broke too.
 */
function headlineOf(payload: AlertPayload): string {
  const standing = standingOrder(payload.standing ?? []);
  const carrier = payload.carriers[0];
  const worst = carrier ? worstSeverity(carrier.changes) : undefined;
  const notice = standing[0];
  const standingLeads =
    notice !== undefined &&
    (!worst || (notice.standing_after === 'now_fails' && carrier?.impact !== 'fails'));
  const more: string[] = [];
  let lead: string | undefined;
  if (standingLeads) {
    lead = `${standingHeadline(notice)} — ${carrierTitle(notice)}`;
    if (standing.length > 1)
      more.push(`${plural(standing.length - 1, 'more decision')} changed standing`);
    if (payload.carriers.length > 0) more.push(countText(payload));
  } else if (carrier && worst) {
    const impact = carrier.impact ? ` (${IMPACT_TEXT[carrier.impact]})` : '';
    lead = `${carrier.headline ?? worst.headline} — ${carrierTitle(carrier)}${impact}`;
    const changes = payload.carriers.reduce((sum, c) => sum + c.changes.length, 0);
    if (changes > 1) more.push(countText(payload));
    if (standing.length > 0) more.push(`${plural(standing.length, 'decision')} changed standing`);
  }
  const revet = payload.revet_due ?? [];
  if (revet.length > 0) {
    const overdue = revet.filter((n) => n.due === 'overdue').length;
    more.push(
      `Re-vet due: ${plural(revet.length, 'decision')}${overdue > 0 ? ` (${overdue} overdue)` : ''}`,
    );
  }
  if (lead === undefined) return more.join(' · ') || 'Nothing new';
  return [lead, ...more].join(' · ');
}

export function subjectOf(payload: AlertPayload): string {
  if (payload.type === 'test') return 'carrier-desk: test alert';
  if (payload.type === 'checkpoint') {
    const length = payload.checkpoint?.chain_length ?? 0;
    return `carrier-desk: decision record checkpoint (${plural(length, 'record')})`;
  }
  return headlineOf(payload);
}

/**
 * The checkpoint's sentence: `Decision record checkpoint: 3 records, head 9f…, signed
 * 2026-11-29T00:01:00.000Z — keep this e-mail; it lets anyone show later that the record was not cut`.
 */
function checkpointLine(checkpoint: Checkpoint, kept: 'e-mail' | 'message'): string {
  return (
    `Decision record checkpoint: ${plural(checkpoint.chain_length, 'record')}, head ` +
    `${checkpoint.head_hash}, signed ${checkpoint.issued_at} — keep this ${kept}; it lets anyone ` +
    'show later that the record was not cut'
  );
}

const CHECKPOINT_HOW =
  'To check it, POST {"receipts": [<the JSON below>]} to /api/local/decisions/verify, or verify ' +
  'its signature offline with the public key (docs/vetting.md, "An anchored record").';

/** The checkpoint block of the plain-text part: the sentence, how to check it, the JSON to copy. */
function checkpointText(checkpoint: Checkpoint): string[] {
  return [checkpointLine(checkpoint, 'e-mail'), CHECKPOINT_HOW, JSON.stringify(checkpoint), ''];
}

function checkpointHtml(checkpoint: Checkpoint): string {
  return `<section><h2>Decision record checkpoint</h2><p>${escapeHtml(checkpointLine(checkpoint, 'e-mail'))}.</p><p>${escapeHtml(CHECKPOINT_HOW)}</p><pre style="white-space:pre-wrap;word-break:break-all">${escapeHtml(JSON.stringify(checkpoint))}</pre></section>`;
}

function lineOf(change: CarrierSection['changes'][number]): string {
  const prior = formatFieldValue(change.field, change.prior);
  const current = formatFieldValue(change.field, change.current);
  return `${fieldLabel(change.field)}: ${prior} → ${current}`;
}

/** `SWIFTPATH EXPRESS LLC (DBA SWIFTPATH) (USDOT 4418207) — approved carrier now fails policy`. */
function headingOf(carrier: CarrierSection): string {
  const impact = carrier.impact ? ` — ${IMPACT_TEXT[carrier.impact]}` : '';
  return `${carrierTitle(carrier)}${impact}`;
}

const TEST_TEXT =
  'This is a test alert from carrier-desk: this destination receives monitoring alerts.';

export function textOf(payload: AlertPayload, publicUrl: string): string {
  if (payload.type === 'test') return `${TEST_TEXT}\n`;
  const checkpoint = payload.checkpoint ? checkpointText(payload.checkpoint) : [];
  if (payload.type === 'checkpoint') return checkpoint.join('\n');
  const parts = [headlineOf(payload), ''];
  const standing = standingOrder(payload.standing ?? []);
  if (standing.length > 0) {
    parts.push('Policy change: decisions whose standing changed');
    for (const notice of standing) {
      parts.push(`  ${standingLine(notice)}`, `    ${carrierLink(publicUrl, notice.dot)}`);
    }
    parts.push('');
  }
  if (payload.carriers.length > 0) {
    parts.push(`${countText(payload)} in the monitored list.`, '');
  }
  for (const carrier of payload.carriers) {
    parts.push(headingOf(carrier));
    for (const change of carrier.changes) {
      parts.push(`  ${change.date ?? ''} ${lineOf(change)}`.replace(/^ {2} /, '  '));
    }
    parts.push(`  Open in the inbox: ${inboxLink(publicUrl, carrier.profile_id)}`, '');
  }
  const revet = payload.revet_due ?? [];
  if (revet.length > 0) {
    parts.push('Re-vet due');
    for (const notice of revet) parts.push(`  ${revetLine(notice)}`);
    parts.push(`  The queue: ${publicUrl.replace(/\/+$/, '')}/decisions?revet=due`, '');
  }
  parts.push(...checkpoint);
  return parts.join('\n');
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export function htmlOf(payload: AlertPayload, publicUrl: string): string {
  if (payload.type === 'test') return `<p>${escapeHtml(TEST_TEXT)}</p>`;
  const checkpoint = payload.checkpoint ? checkpointHtml(payload.checkpoint) : '';
  if (payload.type === 'checkpoint') {
    return `<!doctype html><html><body>${checkpoint}</body></html>`;
  }
  const standing = standingOrder(payload.standing ?? []);
  const policy =
    standing.length === 0
      ? ''
      : `<section><h2>Policy change: decisions whose standing changed</h2><ul>${standing
          .map(
            (notice) =>
              `<li><a href="${escapeHtml(carrierLink(publicUrl, notice.dot))}">${escapeHtml(standingLine(notice))}</a></li>`,
          )
          .join('')}</ul></section>`;
  const sections = payload.carriers.map((carrier) => {
    const rows = carrier.changes
      .map((change) => {
        const prior = formatFieldValue(change.field, change.prior);
        const current = formatFieldValue(change.field, change.current);
        return `<tr><td>${escapeHtml(change.date ?? '')}</td><td>${escapeHtml(fieldLabel(change.field))}</td><td>${escapeHtml(prior)}</td><td>→</td><td>${escapeHtml(current)}</td></tr>`;
      })
      .join('');
    const link = escapeHtml(inboxLink(publicUrl, carrier.profile_id));
    return `<section><h2>${escapeHtml(headingOf(carrier))}</h2><table>${rows}</table><p><a href="${link}">Open in the inbox</a></p></section>`;
  });
  const changes =
    payload.carriers.length === 0
      ? ''
      : `<p>${escapeHtml(countText(payload))} in the monitored list.</p>${sections.join('')}`;
  const revet = payload.revet_due ?? [];
  const queue =
    revet.length === 0
      ? ''
      : `<section><h2>Re-vet due</h2><ul>${revet.map((n) => `<li>${escapeHtml(revetLine(n))}</li>`).join('')}</ul></section>`;
  return `<!doctype html><html><body><p><strong>${escapeHtml(headlineOf(payload))}</strong></p>${policy}${changes}${queue}${checkpoint}</body></html>`;
}

/** A short Slack message: the headline, then one line per decision and carrier with its link. */
function slackText(payload: AlertPayload, publicUrl: string): string {
  if (payload.type === 'test') return TEST_TEXT;
  if (payload.type === 'checkpoint' && payload.checkpoint) {
    return `carrier-desk: ${checkpointLine(payload.checkpoint, 'message')}`;
  }
  const standing = standingOrder(payload.standing ?? []).map(
    (notice) => `• <${carrierLink(publicUrl, notice.dot)}|${standingLine(notice)}>`,
  );
  const lines = payload.carriers.map((carrier) => {
    const first = carrier.changes.slice(0, 3).map(lineOf).join('; ');
    const more = carrier.changes.length > 3 ? ` (+${carrier.changes.length - 3} more)` : '';
    return `• <${inboxLink(publicUrl, carrier.profile_id)}|${headingOf(carrier)}>: ${first}${more}`;
  });
  const revet = (payload.revet_due ?? []).map((notice) => `• ${revetLine(notice)}`);
  return [`carrier-desk: ${headlineOf(payload)}`, ...standing, ...lines, ...revet].join('\n');
}

const WEBHOOK_TYPE = {
  test: 'alert.test',
  changes: 'monitoring.changes',
  standing: 'decisions.standing',
  checkpoint: 'decisions.checkpoint',
} as const;

/** The webhook body: stable JSON a receiver can verify byte for byte. */
export function webhookBody(
  delivery: { id: string; created_at: string; payload: AlertPayload },
  publicUrl: string,
): string {
  return JSON.stringify({
    id: delivery.id,
    type: WEBHOOK_TYPE[delivery.payload.type],
    created_at: delivery.created_at,
    text: slackText(delivery.payload, publicUrl),
    carriers: delivery.payload.carriers.map((carrier) => ({
      ...carrier,
      inbox_url: inboxLink(publicUrl, carrier.profile_id),
    })),
    ...(delivery.payload.standing?.length && {
      standing: standingOrder(delivery.payload.standing).map((notice) => ({
        ...notice,
        url: carrierLink(publicUrl, notice.dot),
      })),
    }),
    ...(delivery.payload.revet_due?.length && { revet_due: delivery.payload.revet_due }),
    // as issueCheckpoint gave it: POST it to /api/local/decisions/verify as it is
    ...(delivery.payload.checkpoint && { checkpoint: delivery.payload.checkpoint }),
  });
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signature(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

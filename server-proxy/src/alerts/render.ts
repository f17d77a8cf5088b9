/**
 * What a delivery says: the e-mail (subject, plain text and HTML, one section per carrier, each
 * changed field as prior → current, a link to the inbox filtered to that carrier) and the webhook
 * body (the same sections as JSON, plus a Slack-compatible `text`), and the webhook signature.
 */
import { createHmac } from 'node:crypto';
import { fieldLabel, formatFieldValue } from '../../../src/lib/field-labels.ts';
import type { AlertPayload, CarrierSection, SeenChange } from './store.ts';

/** A carrier's known names by DOT (the name store, ../names/store.ts). */
export type CarrierNames = ReadonlyMap<string, { legal: string | null; dba: string | null }>;

export const SIGNATURE_HEADER = 'x-carrierdesk-signature';
export const DELIVERY_HEADER = 'x-carrierdesk-delivery';

const IMPACT_TEXT = {
  fails: 'approved carrier now fails policy',
  'needs-review': 'approved carrier now needs review',
} as const;

/** Changes grouped per carrier, carriers with an impact first (fails, then needs review). */
export function sectionsOf(
  changes: readonly SeenChange[],
  names: CarrierNames = new Map(),
): CarrierSection[] {
  const byProfile = new Map<string, CarrierSection>();
  for (const change of changes) {
    let section = byProfile.get(change.profileId);
    if (!section) {
      const known = names.get(change.dot);
      const legal = known?.legal ?? known?.dba ?? undefined;
      const dba = known?.legal && known.dba && known.dba !== known.legal ? known.dba : undefined;
      section = {
        profile_id: change.profileId,
        dot: change.dot,
        ...(legal && { name: legal }),
        ...(dba && { dba_name: dba }),
        impact: null,
        changes: [],
      };
      byProfile.set(change.profileId, section);
    }
    if (change.impact === 'fails' || (change.impact && section.impact === null)) {
      section.impact = change.impact;
    }
    section.changes.push({
      id: change.id,
      channel: change.channel,
      field: change.field,
      date: change.date,
      prior: change.prior,
      current: change.current,
    });
  }
  const rank = (s: CarrierSection) => (s.impact === 'fails' ? 0 : s.impact ? 1 : 2);
  return [...byProfile.values()].sort((a, b) => rank(a) - rank(b));
}

/** The inbox filtered to one carrier, on the address users open. */
function inboxLink(publicUrl: string, profileId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/monitoring?profile_id=${encodeURIComponent(profileId)}`;
}

function countText(payload: AlertPayload): string {
  const changes = payload.carriers.reduce((sum, carrier) => sum + carrier.changes.length, 0);
  const carriers = payload.carriers.length;
  return `${changes} change${changes === 1 ? '' : 's'} on ${carriers} carrier${carriers === 1 ? '' : 's'}`;
}

export function subjectOf(payload: AlertPayload): string {
  if (payload.type === 'test') return 'carrier-desk: test alert';
  const urgent = payload.carriers.some((carrier) => carrier.impact === 'fails');
  return `carrier-desk: ${countText(payload)}${urgent ? ' — an approved carrier now fails policy' : ''}`;
}

function lineOf(change: CarrierSection['changes'][number]): string {
  const prior = formatFieldValue(change.field, change.prior);
  const current = formatFieldValue(change.field, change.current);
  return `${fieldLabel(change.field)}: ${prior} → ${current}`;
}

/** `SWIFTPATH EXPRESS LLC (DBA SWIFTPATH) — 4418207-MC1612093 (USDOT 4418207)`; the id alone when unnamed. */
function headingOf(carrier: CarrierSection): string {
  const impact = carrier.impact ? ` — ${IMPACT_TEXT[carrier.impact]}` : '';
  const id = `${carrier.profile_id} (USDOT ${carrier.dot})`;
  if (!carrier.name) return `${id}${impact}`;
  const dba = carrier.dba_name ? ` (DBA ${carrier.dba_name})` : '';
  return `${carrier.name}${dba} — ${id}${impact}`;
}

const TEST_TEXT =
  'This is a test alert from carrier-desk: this destination receives monitoring alerts.';

export function textOf(payload: AlertPayload, publicUrl: string): string {
  if (payload.type === 'test') return `${TEST_TEXT}\n`;
  const parts = [`${countText(payload)} in the monitored list.`, ''];
  for (const carrier of payload.carriers) {
    parts.push(headingOf(carrier));
    for (const change of carrier.changes) {
      parts.push(`  ${change.date ?? ''} ${lineOf(change)}`.replace(/^ {2} /, '  '));
    }
    parts.push(`  Open in the inbox: ${inboxLink(publicUrl, carrier.profile_id)}`, '');
  }
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
  return `<!doctype html><html><body><p>${escapeHtml(countText(payload))} in the monitored list.</p>${sections.join('')}</body></html>`;
}

/** A short Slack message: the count, then one line per carrier with its link. */
function slackText(payload: AlertPayload, publicUrl: string): string {
  if (payload.type === 'test') return TEST_TEXT;
  const lines = payload.carriers.map((carrier) => {
    const first = carrier.changes.slice(0, 3).map(lineOf).join('; ');
    const more = carrier.changes.length > 3 ? ` (+${carrier.changes.length - 3} more)` : '';
    return `• <${inboxLink(publicUrl, carrier.profile_id)}|${headingOf(carrier)}>: ${first}${more}`;
  });
  return [`carrier-desk: ${countText(payload)}`, ...lines].join('\n');
}

/** The webhook body: stable JSON a receiver can verify byte for byte. */
export function webhookBody(
  delivery: { id: string; created_at: string; payload: AlertPayload },
  publicUrl: string,
): string {
  return JSON.stringify({
    id: delivery.id,
    type: delivery.payload.type === 'test' ? 'alert.test' : 'monitoring.changes',
    created_at: delivery.created_at,
    text: slackText(delivery.payload, publicUrl),
    carriers: delivery.payload.carriers.map((carrier) => ({
      ...carrier,
      inbox_url: inboxLink(publicUrl, carrier.profile_id),
    })),
  });
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signature(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

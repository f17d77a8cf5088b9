/**
 * Who sees which alert subscriptions and deliveries (issue 31, items 1 and 4; docs/alerts.md
 * "Who sees what"). A viewer or an analyst sees their own subscriptions and the deliveries of
 * them, and the team destinations' deliveries with the addresses masked; an admin sees every
 * subscription and delivery, e-mail addresses in full. A webhook URL is shown as its origin
 * (`https://hooks.example.com/…`) to everyone but the subscription's owner in their own list: its
 * path or query can be the receiver's token.
 */
import { maskTarget } from './sender.ts';

/** `alice@example.com` → `a…@example.com`: whose it is stays guessable only to who knows. */
function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '…';
  return `${address.charAt(0)}…${address.slice(at)}`;
}

/** A comma-separated list of addresses, each masked. */
function maskEmails(list: string): string {
  return list
    .split(',')
    .map((entry) => maskEmail(entry.trim()))
    .join(', ');
}

const EMAIL_IN_TEXT = /[^\s@<>,;:"'()[\]]+@[^\s@<>,;:"'()[\]]+\.[^\s@<>,;:"'()[\]]+/g;
const URL_IN_TEXT = /https?:\/\/[^\s<>"']+/g;

/**
 * Free text (a delivery's last error: a mail server's rejection names the recipient) with every
 * e-mail address and URL in it masked.
 */
export function maskText(text: string): string {
  return text
    .replace(URL_IN_TEXT, (url) => maskTarget('webhook', url))
    .replace(EMAIL_IN_TEXT, (address) => maskEmail(address));
}

/** How a destination is shown: `full` e-mail addresses, or `masked` ones (webhooks: origin). */
export type Reveal = 'full' | 'masked';

/** A destination as the browser sees it. */
export function shownTarget(kind: 'email' | 'webhook', target: string, reveal: Reveal): string {
  if (kind === 'webhook') return maskTarget(kind, target);
  return reveal === 'full' ? target : maskEmails(target);
}

/**
 * How a delivery's destination is shown to a user: in full to an admin and to the owner of the
 * subscription it is for; masked otherwise (a non-admin sees only the team's besides their own).
 */
export function revealFor(viewer: { id: string; admin: boolean }, owner: string | null): Reveal {
  return viewer.admin || owner === viewer.id ? 'full' : 'masked';
}

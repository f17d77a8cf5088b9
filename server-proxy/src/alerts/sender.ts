/**
 * Sends one delivery: an e-mail through nodemailer (SMTP_URL), or a signed JSON POST. Throws on any
 * failure, with a message that holds no secret (the SMTP URL, its password and the signing key are
 * cut out of whatever a library says).
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { Agent, type Dispatcher } from 'undici';
import type { AlertsConfig } from './config.ts';
import {
  DELIVERY_HEADER,
  SIGNATURE_HEADER,
  htmlOf,
  signature,
  subjectOf,
  textOf,
  webhookBody,
} from './render.ts';
import type { Delivery } from './store.ts';
import { guardedConnector, webhookRefusal, type Resolve } from './webhook-guard.ts';

const WEBHOOK_TIMEOUT_MS = 10_000;

export interface SendDeps {
  alerts: AlertsConfig;
  /** the address users open, for the inbox links */
  publicUrl: string;
  now?: () => Date;
  /** tests: a stand-in DNS for webhook hosts */
  resolve?: Resolve;
  /** tests only: a loopback receiver stands for a public host (webhook-guard.ts) */
  allowLoopback?: boolean;
}

export type Sender = (delivery: Delivery) => Promise<void>;

/** The secrets of the configuration, so no error text carries them. */
function secretsOf(alerts: AlertsConfig): string[] {
  const secrets: string[] = [];
  if (alerts.webhookSecret) secrets.push(alerts.webhookSecret);
  if (alerts.smtpUrl) {
    secrets.push(alerts.smtpUrl);
    try {
      const url = new URL(alerts.smtpUrl);
      if (url.password) secrets.push(url.password, decodeURIComponent(url.password));
    } catch {
      // config.ts checked the URL
    }
  }
  return secrets.filter((secret) => secret.length >= 3);
}

function scrubber(alerts: AlertsConfig): (text: string) => string {
  const secrets = secretsOf(alerts);
  return (text) => secrets.reduce((out, secret) => out.split(secret).join('[secret]'), text);
}

export function createSender(deps: SendDeps): Sender {
  const scrub = scrubber(deps.alerts);
  let transport: Transporter | undefined;
  const now = deps.now ?? (() => new Date());
  const timeouts = { headersTimeout: WEBHOOK_TIMEOUT_MS, bodyTimeout: WEBHOOK_TIMEOUT_MS };
  // page-made webhooks connect only to addresses checked at connect time (webhook-guard.ts)
  const guard = {
    allowedHosts: deps.alerts.webhookHosts,
    resolve: deps.resolve,
    allowLoopback: deps.allowLoopback,
  };
  const guarded = new Agent({
    ...timeouts,
    connect: guardedConnector(guard, { timeout: WEBHOOK_TIMEOUT_MS }),
  });
  // the team-wide ALERT_WEBHOOK_URL is the administrator's own: not checked
  const team = new Agent({ ...timeouts, connect: { timeout: WEBHOOK_TIMEOUT_MS } });

  async function sendEmail(delivery: Delivery): Promise<void> {
    if (!deps.alerts.smtpUrl) throw new Error('SMTP_URL is not set: e-mail cannot be sent');
    transport ??= nodemailer.createTransport(deps.alerts.smtpUrl);
    await transport.sendMail({
      from: deps.alerts.from ?? 'carrier-desk <alerts@carrier-desk.invalid>',
      to: delivery.target,
      subject: subjectOf(delivery.payload),
      text: textOf(delivery.payload, deps.publicUrl),
      html: htmlOf(delivery.payload, deps.publicUrl),
      // the same id on every attempt, so a mail system (or a reader) can drop repeats
      messageId: `<${delivery.id}@carrier-desk>`,
      headers: { 'X-CarrierDesk-Delivery': delivery.id },
    });
  }

  async function sendWebhook(delivery: Delivery): Promise<void> {
    const secret = deps.alerts.webhookSecret;
    if (!secret) throw new Error('ALERT_WEBHOOK_SECRET is not set: webhooks are not sent unsigned');
    const pageMade = delivery.target !== deps.alerts.webhookUrl;
    // a readable reason first; the connection is checked again on the address it is made to
    if (pageMade) {
      const refused = await webhookRefusal(
        delivery.target,
        guard.allowedHosts,
        guard.resolve,
        guard.allowLoopback,
      );
      if (refused) throw new Error(refused);
    }
    const body = webhookBody(delivery, deps.publicUrl);
    const url = new URL(delivery.target);
    const dispatcher: Dispatcher = pageMade ? guarded : team;
    // undici's request follows no redirect: a 3xx is a failed attempt like any non-2xx
    const response = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'carrier-desk-alerts',
        [SIGNATURE_HEADER]: signature(secret, body, now()),
        [DELIVERY_HEADER]: delivery.id,
        'idempotency-key': delivery.id,
      },
      body,
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new Error(`The receiver answered HTTP ${response.statusCode}`);
    }
  }

  return async (delivery) => {
    try {
      if (delivery.kind === 'email') await sendEmail(delivery);
      else await sendWebhook(delivery);
    } catch (err) {
      const cause = err instanceof Error ? err.cause : undefined;
      const detail = cause instanceof Error ? `: ${cause.message}` : '';
      const message = err instanceof Error ? `${err.message}${detail}` : String(err);
      throw new Error(scrub(message));
    }
  };
}

/** `https://hooks.example.com/…`: where a webhook goes, without a path that may hold a token. */
export function maskTarget(kind: 'email' | 'webhook', target: string): string {
  if (kind === 'email') return target;
  try {
    const url = new URL(target);
    return url.pathname === '/' && !url.search ? url.origin : `${url.origin}/…`;
  } catch {
    return '…';
  }
}

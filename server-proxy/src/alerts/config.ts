/**
 * The alert variables of the proxy's environment (docs/alerts.md): the poll interval and the
 * team-wide destinations. Spread into config.ts's schema, so the docs' tables are checked against
 * them like every other variable. SMTP_URL and ALERT_WEBHOOK_SECRET are secrets: they are kept in
 * the config only, never returned by a route nor logged.
 */
import { z } from 'zod';
import { commaList, optionalText, variable, wholeNumber } from '../http/env.ts';

export interface AlertsConfig {
  /** seconds between scheduled polls of monitoring/list; 0 = no scheduled polls */
  pollIntervalSeconds: number;
  /** nodemailer transport URL (smtp://user:pass@host:port, smtps://…); unset = no e-mail */
  smtpUrl?: string;
  /** the From of alert e-mails */
  from?: string;
  /** team-wide e-mail recipients (a subscription to every channel, delivered immediately) */
  emailTo: string[];
  /** team-wide webhook URL (same) */
  webhookUrl?: string;
  /** the HMAC-SHA256 key signing every webhook */
  webhookSecret?: string;
  /**
   * hosts page-made webhooks may post to (`host`, `host:port`, `*.domain`); empty = any public
   * address (webhook-guard.ts)
   */
  webhookHosts: string[];
  /** ALERT_MAX_SUBSCRIPTIONS_PER_USER (default 20); absent in tests' literals: the default */
  maxSubscriptionsPerUser?: number;
}

/** The default of ALERT_MAX_SUBSCRIPTIONS_PER_USER. */
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_USER = 20;

const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

function httpUrl(name: string) {
  return variable(
    z.string().refine(
      (raw) => {
        try {
          const url = new URL(raw);
          return url.protocol === 'http:' || url.protocol === 'https:';
        } catch {
          return false;
        }
      },
      { error: `${name} must be an http(s) URL` },
    ),
    undefined as string | undefined,
  );
}

const smtpUrl = variable(
  z.string().refine(
    (raw) => {
      try {
        return ['smtp:', 'smtps:'].includes(new URL(raw).protocol);
      } catch {
        return false;
      }
    },
    // never quote the value: it may hold the SMTP password
    { error: 'SMTP_URL must be an smtp:// or smtps:// URL (smtp://user:password@host:587)' },
  ),
  undefined as string | undefined,
);

const emailList = variable(
  z.string().transform((raw, ctx) => {
    const list = commaList(raw);
    for (const entry of list) {
      if (!EMAIL.test(entry)) {
        ctx.addIssue({
          code: 'custom',
          message: `ALERT_EMAIL_TO entry is not an address: "${entry}"`,
        });
      }
    }
    return list.filter((entry) => EMAIL.test(entry));
  }),
  [] as string[],
  () => [],
);

/** `host`, `host:port`, `[v6]:port` or `*.domain`: letters, digits, dots, dashes, colons, brackets. */
const HOST_ENTRY = /^(\*\.)?[a-z0-9.\-:[\]]+$/i;

const hostList = variable(
  z.string().transform((raw, ctx) => {
    const list = commaList(raw);
    for (const entry of list) {
      if (!HOST_ENTRY.test(entry)) {
        ctx.addIssue({
          code: 'custom',
          message: `ALERT_WEBHOOK_HOSTS entry is not a host, host:port or *.domain: "${entry}"`,
        });
      }
    }
    return list.filter((entry) => HOST_ENTRY.test(entry));
  }),
  [] as string[],
  () => [],
);

export const ALERT_VARIABLES = {
  MONITOR_POLL_INTERVAL: wholeNumber('MONITOR_POLL_INTERVAL', 900, 0, 7 * 86_400),
  SMTP_URL: smtpUrl,
  ALERT_FROM: optionalText,
  ALERT_EMAIL_TO: emailList,
  ALERT_WEBHOOK_URL: httpUrl('ALERT_WEBHOOK_URL'),
  ALERT_WEBHOOK_SECRET: optionalText,
  ALERT_WEBHOOK_HOSTS: hostList,
  ALERT_MAX_SUBSCRIPTIONS_PER_USER: wholeNumber(
    'ALERT_MAX_SUBSCRIPTIONS_PER_USER',
    DEFAULT_MAX_SUBSCRIPTIONS_PER_USER,
    1,
    1000,
  ),
};

type AlertSettings = z.output<z.ZodObject<typeof ALERT_VARIABLES>>;

/** Rules across the alert variables. */
export function alertProblems(s: AlertSettings): string[] {
  const problems: string[] = [];
  if (s.ALERT_EMAIL_TO.length > 0 && s.SMTP_URL === undefined) {
    problems.push('ALERT_EMAIL_TO needs SMTP_URL (the server that sends the e-mails)');
  }
  if (s.ALERT_WEBHOOK_URL !== undefined && s.ALERT_WEBHOOK_SECRET === undefined) {
    problems.push('ALERT_WEBHOOK_URL needs ALERT_WEBHOOK_SECRET (every webhook is signed)');
  }
  if (s.ALERT_WEBHOOK_SECRET !== undefined && s.ALERT_WEBHOOK_SECRET.length < 16) {
    problems.push('ALERT_WEBHOOK_SECRET must have at least 16 characters');
  }
  return problems;
}

export function alertsConfigOf(s: AlertSettings): AlertsConfig {
  return {
    pollIntervalSeconds: s.MONITOR_POLL_INTERVAL,
    smtpUrl: s.SMTP_URL,
    from: s.ALERT_FROM,
    emailTo: s.ALERT_EMAIL_TO,
    webhookUrl: s.ALERT_WEBHOOK_URL,
    webhookSecret: s.ALERT_WEBHOOK_SECRET,
    webhookHosts: s.ALERT_WEBHOOK_HOSTS,
    maxSubscriptionsPerUser: s.ALERT_MAX_SUBSCRIPTIONS_PER_USER,
  };
}

/**
 * DNS-rebinding defence: the proxy answers only requests whose `Host` names it. A page on
 * `rebind.evil.example` whose name is re-pointed at 127.0.0.1 reaches the proxy with
 * `Host: rebind.evil.example`, so the browser treats it as that page's own origin (CORS and the
 * same-origin CSRF checks both pass). Refusing unknown Hosts before anything else closes that door.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isLoopback } from '../config.ts';
import type { ProxyConfig } from '../context.ts';
import { pathOf } from './access.ts';
import { sendError } from './errors.ts';

/**
 * Orchestrator probes ask for these with the pod's address as Host; they answer only "up/ready"
 * (no data, no billed call), so any Host may ask.
 */
const HOST_EXEMPT_PATHS = new Set(['/healthz', '/readyz']);

/** Wildcard listen addresses: they name no host, so they allow none. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

interface HostPort {
  /** lower case, IPv6 without brackets */
  name: string;
  /** undefined when the value carries no port */
  port: string | undefined;
}

/** `name`, `name:port`, `[v6]` or `[v6]:port` → its parts; undefined when malformed. */
export function splitHost(value: string): HostPort | undefined {
  const host = value.trim().toLowerCase();
  const match = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::([0-9]{1,5}))?$/.exec(host);
  if (!match) {
    // A bare IPv6 address (the HOST setting may be written so).
    return /^[0-9a-f:.]+$/.test(host) && host.includes(':')
      ? { name: host, port: undefined }
      : undefined;
  }
  return { name: match[1] ?? match[2] ?? '', port: match[3] };
}

/**
 * The Host values the proxy answers: any loopback name (localhost, 127.0.0.0/8, [::1]) on any
 * port, the configured HOST when it names one address (any port), and each ALLOWED_HOSTS /
 * PUBLIC_URL entry (`host` = any port, `host:port` = that port only).
 */
export function createHostAllowList(
  config: Pick<ProxyConfig, 'host' | 'allowedHosts'>,
): (host: string | undefined) => boolean {
  const entries: HostPort[] = [];
  const own = config.host.trim().toLowerCase();
  if (!WILDCARD_HOSTS.has(own)) {
    const parsed = splitHost(own);
    if (parsed) entries.push({ name: parsed.name, port: undefined });
  }
  for (const entry of config.allowedHosts ?? []) {
    const parsed = splitHost(entry);
    if (parsed) entries.push(parsed);
  }
  return (host) => {
    const asked = host === undefined ? undefined : splitHost(host);
    if (asked === undefined) return false;
    if (isLoopback(asked.name)) return true;
    return entries.some(
      (entry) =>
        entry.name === asked.name && (entry.port === undefined || entry.port === asked.port),
    );
  };
}

function isExempt(request: FastifyRequest): boolean {
  return request.method === 'GET' && HOST_EXEMPT_PATHS.has(pathOf(request.url));
}

/**
 * onRequest hook, to be registered before any other governance hook: a request whose Host is not
 * on the allow-list gets 421 `misdirected_host` (pages and API alike; /healthz and /readyz exempt).
 */
export function addHostCheck(
  app: FastifyInstance,
  config: Pick<ProxyConfig, 'host' | 'allowedHosts'>,
) {
  const allowed = createHostAllowList(config);
  app.addHook('onRequest', async (request, reply) => {
    const host = request.headers.host;
    if (allowed(host) || isExempt(request)) return;
    const shown = (host ?? '(none)').slice(0, 100);
    return sendError(reply, 421, {
      error: `This proxy does not answer for the host "${shown}"`,
      code: 'misdirected_host',
      hint:
        'Open the dashboard at a loopback address or at its configured name. If this name is ' +
        'yours, add it to ALLOWED_HOSTS or PUBLIC_URL.',
    });
  });
}

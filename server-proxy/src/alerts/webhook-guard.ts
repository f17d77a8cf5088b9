/**
 * Where a webhook made on the Alerts page may go. Any signed-in user can type a URL, and the proxy
 * posts to it from inside the team's network: without a rule, a subscription could reach the
 * database's admin port, a cloud metadata address or the proxy itself (server-side request forgery).
 *
 * - With `ALERT_WEBHOOK_HOSTS` set, a page-made webhook's host must be on that list (`host`,
 *   `host:port`, or `*.domain` for any host under the domain); the administrator's choice stands,
 *   private addresses included.
 * - Without it, a host whose address (a literal IP, or every address its name resolves to) is
 *   loopback, private, link-local, carrier-grade NAT, multicast or otherwise not public is refused.
 *
 * Checked when a subscription is saved and again before every send (a name can be pointed elsewhere
 * after it was saved). The team-wide ALERT_WEBHOOK_URL is the administrator's own and not checked.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Every address a host name resolves to. */
export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`), as its IPv4 form; else undefined. */
function mappedV4(address: string): string | undefined {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match?.[1];
}

/** Whether an IP address is anything but a public unicast address. */
export function isNotPublic(address: string): boolean {
  const v4 = mappedV4(address);
  if (v4) return NOT_PUBLIC.check(v4, 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** `ALERT_WEBHOOK_HOSTS` entries, lower case. */
function allowedBy(entries: readonly string[], host: string, port: string): boolean {
  return entries.some((raw) => {
    const entry = raw.toLowerCase();
    if (entry.startsWith('*.')) return host.endsWith(entry.slice(1));
    const [entryHost, entryPort] = splitHostPort(entry);
    return entryHost === host && (entryPort === undefined || entryPort === port);
  });
}

/** `host`, `host:port`, `[v6]`, `[v6]:port` → host (no brackets) and port. */
function splitHostPort(entry: string): [string, string | undefined] {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return [bracketed[1] ?? '', bracketed[2]];
  const colons = entry.split(':').length - 1;
  if (colons === 1) {
    const [host = '', port] = entry.split(':');
    return [host, port];
  }
  return [entry, undefined];
}

function defaultPort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/**
 * Why a page-made webhook may not post to `target`, or undefined when it may. The reason is a
 * sentence for the user; it names the host, never the path (which may hold a token).
 */
export async function webhookRefusal(
  target: string,
  allowedHosts: readonly string[],
  resolve: Resolve = resolveAll,
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'The webhook address is not a URL';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allowedHosts.length > 0) {
    return allowedBy(allowedHosts, host, defaultPort(url))
      ? undefined
      : `The host ${host} is not on this server's list of webhook hosts (ALERT_WEBHOOK_HOSTS)`;
  }
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return `The host ${host} could not be resolved`;
  }
  if (addresses.length === 0) return `The host ${host} could not be resolved`;
  const inside = addresses.find(isNotPublic);
  return inside === undefined
    ? undefined
    : `The host ${host} is a private, loopback or link-local address (${inside}); webhooks go to public addresses only`;
}

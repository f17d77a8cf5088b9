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
 * Checked when a subscription is saved, and at every send where the connection is made
 * (`guardedConnector`): the name is resolved once, every address checked, and the socket opened to
 * a checked address, so a name pointed elsewhere after the check (DNS rebinding) cannot slip
 * through. IPv6 forms that carry an IPv4 address are judged by that address. The team-wide
 * ALERT_WEBHOOK_URL is the administrator's own and not checked.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { buildConnector } from 'undici';

/** Every address a host name resolves to. */
export type Resolve = (host: string) => Promise<string[]>;

const resolveAll: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** How page-made webhooks are checked: the server's allow-list, the DNS, and one test switch. */
export interface WebhookGuard {
  /** ALERT_WEBHOOK_HOSTS; empty = any public address */
  allowedHosts: readonly string[];
  /** tests: a stand-in DNS (default: the system's, every address of the name) */
  resolve?: Resolve;
  /**
   * tests only: loopback addresses (127.0.0.0/8, ::1) count as public, so a receiver on loopback
   * stands for a public one. Never set by the configuration.
   */
  allowLoopback?: boolean;
}

const NOT_PUBLIC_V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC_V4.addSubnet(net, prefix, 'ipv4');
}

const LOOPBACK_V4 = new BlockList();
LOOPBACK_V4.addSubnet('127.0.0.0', 8, 'ipv4');

/** An IPv6 address as its eight 16-bit groups (a zone id dropped); undefined when it is not one. */
function ipv6Groups(text: string): number[] | undefined {
  let address = text.toLowerCase().replace(/%.*$/, '');
  if (isIP(address) !== 6) return undefined;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    address = address.slice(0, -dotted[0].length);
    if (!address.endsWith('::')) address = address.slice(0, -1);
  }
  const [head = '', rest] = address.split('::');
  const groupsOf = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = groupsOf(head);
  const back = [...groupsOf(rest ?? ''), ...tail];
  const fill = rest === undefined ? 0 : 8 - front.length - back.length;
  const groups = [...front, ...Array<number>(fill).fill(0), ...back];
  return groups.length === 8 ? groups : undefined;
}

function v4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

function v4NotPublic(address: string, allowLoopback: boolean): boolean {
  if (allowLoopback && LOOPBACK_V4.check(address, 'ipv4')) return false;
  return NOT_PUBLIC_V4.check(address, 'ipv4');
}

const zero = (groups: number[], from: number, to: number) =>
  groups.slice(from, to).every((group) => group === 0);

/**
 * Whether an IPv6 address (its groups) is anything but public unicast: unspecified, loopback,
 * unique-local, link-local, multicast, documentation, discard-only, Teredo, local-use NAT64, or a
 * form that carries an IPv4 address (IPv4-compatible `::/96`, IPv4-mapped `::ffff:0:0/96`,
 * IPv4-translated `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) whose IPv4 address is
 * not public.
 */
function v6NotPublic(g: number[], allowLoopback: boolean): boolean {
  const [g0 = 0, g1 = 0, g2 = 0] = g;
  const [g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g.slice(4);
  if (zero(g, 0, 7) && g7 === 1) return !allowLoopback; // ::1
  if ((g0 & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((g0 & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((g0 & 0xffc0) === 0xfec0) return true; // fec0::/10 old site-local
  if ((g0 & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  if (g0 === 0x2001 && g1 === 0) return true; // 2001::/32 Teredo (tunnels to any IPv4)
  if (g0 === 0x2001 && g1 === 0x0db8) return true; // 2001:db8::/32 documentation
  if (g0 === 0x0100 && zero(g, 1, 4)) return true; // 100::/64 discard-only
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true; // 64:ff9b:1::/48 local-use NAT64
  const embedded =
    zero(g, 0, 6) || // ::/96 IPv4-compatible (:: itself: 0.0.0.0)
    (zero(g, 0, 5) && g5 === 0xffff) || // ::ffff:0:0/96 IPv4-mapped
    (zero(g, 0, 4) && g4 === 0xffff && g5 === 0) || // ::ffff:0:0:0/96 IPv4-translated
    (g0 === 0x64 && g1 === 0xff9b && zero(g, 2, 6)); // 64:ff9b::/96 NAT64
  if (embedded) return v4NotPublic(v4Of(g6, g7), allowLoopback);
  if (g0 === 0x2002) return v4NotPublic(v4Of(g1, g2), allowLoopback); // 2002::/16 6to4
  return false;
}

/** Whether an IP address is anything but a public unicast address (not an address: true). */
export function isNotPublic(address: string, allowLoopback = false): boolean {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return v4NotPublic(address, allowLoopback);
  const groups = family === 6 ? ipv6Groups(address) : undefined;
  return groups === undefined ? true : v6NotPublic(groups, allowLoopback);
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

const notListed = (host: string) =>
  `The host ${host} is not on this server's list of webhook hosts (ALERT_WEBHOOK_HOSTS)`;

const refusedAddress = (host: string, address: string) =>
  `The host ${host} is a private, loopback or link-local address (${address}); webhooks go to public addresses only`;

/**
 * The addresses a page-made webhook to `host` (no brackets, lower case) on `port` may connect to,
 * each checked, or the sentence that says why none: with an allow-list, the host must be on it
 * (any address of it will do: the administrator chose it); without one, the name is resolved once
 * and every address it has must be public.
 */
async function checkedAddresses(
  host: string,
  port: string,
  guard: WebhookGuard,
): Promise<{ addresses: string[] } | { refused: string }> {
  if (guard.allowedHosts.length > 0 && !allowedBy(guard.allowedHosts, host, port)) {
    return { refused: notListed(host) };
  }
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await (guard.resolve ?? resolveAll)(host);
  } catch {
    return { refused: `The host ${host} could not be resolved` };
  }
  if (addresses.length === 0) return { refused: `The host ${host} could not be resolved` };
  if (guard.allowedHosts.length === 0) {
    const inside = addresses.find((address) => isNotPublic(address, guard.allowLoopback));
    if (inside !== undefined) return { refused: refusedAddress(host, inside) };
  }
  return { addresses };
}

/**
 * Why a page-made webhook may not post to `target`, or undefined when it may (when it is saved,
 * and before a send, for a readable reason). The reason is a sentence for the user; it names the
 * host, never the path (which may hold a token). The connection itself is checked again, on the
 * address it is made to: `guardedConnector`.
 */
export async function webhookRefusal(
  target: string,
  allowedHosts: readonly string[],
  resolve?: Resolve,
  allowLoopback = false,
): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'The webhook address is not a URL';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allowedHosts.length > 0) {
    // the administrator's list is of names: one on it is taken without asking the DNS
    return allowedBy(allowedHosts, host, defaultPort(url)) ? undefined : notListed(host);
  }
  const checked = await checkedAddresses(host, defaultPort(url), {
    allowedHosts,
    resolve,
    allowLoopback,
  });
  return 'refused' in checked ? checked.refused : undefined;
}

/** A connection a page-made webhook may not make; its message is the reason for the user. */
class WebhookTargetRefused extends Error {
  override name = 'WebhookTargetRefused';
}

/**
 * undici's connector for page-made webhooks: the host is resolved once, here, every address
 * checked, and the socket is opened to a checked address, never to a name the socket layer would
 * resolve again (no window for a DNS answer that changes between check and connect). TLS keeps the
 * name: SNI and the certificate check use the host, and the Host header is the URL's.
 */
export function guardedConnector(
  guard: WebhookGuard,
  options: buildConnector.BuildOptions = {},
): buildConnector.connector {
  const connect = buildConnector(options);
  return (request, callback) => {
    const host = request.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const port = request.port || (request.protocol === 'https:' ? '443' : '80');
    checkedAddresses(host, port, guard).then(
      (checked) => {
        if ('refused' in checked) {
          callback(new WebhookTargetRefused(checked.refused), null);
          return;
        }
        const [address = host] = checked.addresses;
        connect(
          {
            ...request,
            hostname: address,
            servername: request.protocol === 'https:' && !isIP(host) ? host : undefined,
          },
          callback,
        );
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  };
}

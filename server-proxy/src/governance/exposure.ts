import { isLoopback } from '../config.ts';
import type { ProxyConfig } from '../context.ts';

/**
 * The loud warning of ALLOW_INSECURE_HTTP=true: password mode reachable off loopback without TLS,
 * or undefined when that is not the case.
 */
export function insecureHttpWarning(
  config: Pick<ProxyConfig, 'auth' | 'host' | 'secureCookies'>,
): string | undefined {
  if (config.auth.kind !== 'password' || config.secureCookies || isLoopback(config.host)) {
    return undefined;
  }
  const rule = '!'.repeat(78);
  return [
    rule,
    `WARNING: DASHBOARD_AUTH=password on HOST=${config.host} over plain HTTP (ALLOW_INSECURE_HTTP=true).`,
    'Passwords and session cookies cross the network unencrypted: anyone on the path can read',
    'them and spend the API key. Put a TLS terminator in front and set SECURE_COOKIES=true.',
    rule,
  ].join('\n');
}

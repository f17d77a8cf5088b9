/**
 * E-mail domains for the tender check (docs/tender-check.md): which domains are free-mail (anyone
 * can open an address there) and whether one domain looks like another (a look-alike registered to
 * pass for a carrier). Runtime-neutral and pure.
 */

/**
 * Free-mail and consumer ISP domains common in North American freight. A carrier that registers
 * one has no company domain to compare with; an offer from one while the carrier registers a
 * company domain is a classic impersonation sign. Not exhaustive: docs/tender-check.md says so.
 */
const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'yahoo.ca',
  'ymail.com',
  'rocketmail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.ca',
  'live.com',
  'live.ca',
  'msn.com',
  'aol.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'protonmail.com',
  'proton.me',
  'pm.me',
  'gmx.com',
  'gmx.net',
  'mail.com',
  'email.com',
  'usa.com',
  'zoho.com',
  'zohomail.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'tutanota.com',
  'tuta.io',
  'hushmail.com',
  'fastmail.com',
  'inbox.com',
  'att.net',
  'sbcglobal.net',
  'bellsouth.net',
  'comcast.net',
  'verizon.net',
  'cox.net',
  'charter.net',
  'earthlink.net',
  'juno.com',
  'netzero.net',
  'rogers.com',
  'shaw.ca',
  'sympatico.ca',
  'videotron.ca',
  'telus.net',
  'qq.com',
  '163.com',
]);

/** The domain of an address (lower case), or undefined. */
export function domainOf(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  if (at < 1) return undefined;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return domain === '' ? undefined : domain;
}

export function isFreeMail(domain: string): boolean {
  return FREE_MAIL_DOMAINS.has(domain.toLowerCase());
}

/** `domain` is `registered` or one of its subdomains (mail.example.com for example.com). */
export function sameDomain(domain: string, registered: string): boolean {
  const a = domain.toLowerCase();
  const b = registered.toLowerCase();
  return a === b || a.endsWith(`.${b}`);
}

/** The domain without its last label (the top-level domain): `hansen-adkins` of `hansen-adkins.co`. */
function withoutTld(domain: string): string {
  const labels = domain.split('.');
  return labels.length > 1 ? labels.slice(0, -1).join('.') : domain;
}

/** Letters and digits only. */
function flat(text: string): string {
  return text.replace(/[^a-z0-9]/g, '');
}

/** Edit distance (insertions, deletions, substitutions), stopping early past `limit`. */
export function editDistance(a: string, b: string, limit = 3): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/** Names this short are compared only for equality (too many honest near-misses otherwise). */
const MIN_NAME = 5;

/**
 * How `domain` imitates `registered`, or undefined when it does not (or is the same domain):
 * the same name under another top-level domain (`brightline-freight.co` for `.com`), the same
 * letters with other punctuation (`brightlinefreight.com`), one or two letters changed, added or
 * dropped (`brightline-frieght.com`), or the registered name with words around it
 * (`brightline-freight-dispatch.com`).
 */
export function lookalikeOf(domain: string, registered: string): string | undefined {
  const given = domain.toLowerCase();
  const own = registered.toLowerCase();
  if (sameDomain(given, own)) return undefined;
  const givenName = withoutTld(given);
  const ownName = withoutTld(own);
  if (givenName === ownName) return `the same name as ${own} under another top-level domain`;
  const a = flat(givenName);
  const b = flat(ownName);
  if (b.length < MIN_NAME) return undefined;
  if (a === b) return `the same letters as ${own} with other punctuation`;
  if (editDistance(a, b, 2) <= 2) return `one or two letters away from ${own}`;
  if (a.includes(b)) return `${own}'s name with other words added`;
  return undefined;
}

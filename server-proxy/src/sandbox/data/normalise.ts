/** How search values are normalised before comparison (documented in docs/sandbox-data.md). */
import { normaliseAddress } from './wire-helpers.ts';

export { normaliseAddress };

/** Digits only; an 11-digit North American number loses its leading 1. */
export function normalisePhone(text: string): string {
  const digits = text.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/** Upper case, single spaces. */
export function normaliseName(text: string): string {
  return text.toUpperCase().replace(/\s+/g, ' ').trim();
}

export function normaliseEin(text: string): string {
  return text.replace(/\D/g, '');
}

/** A full address (`a@b.com`) or a domain query (`@b.com`, `b.com`), lower case. */
export function parseEmailQuery(text: string): { full?: string; domain?: string } {
  const value = text.trim().toLowerCase();
  const at = value.indexOf('@');
  if (at > 0) return { full: value };
  return { domain: value.slice(at + 1) };
}

/** `{prefix?, number}` of a docket query: `MC277621`, `mc-277621` or `277621`. */
export function parseDocket(text: string): { prefix?: string; number: string } | undefined {
  const match = /^\s*(MC|MX|FF)?[\s-]*0*(\d{1,8})\s*$/i.exec(text);
  if (!match) return undefined;
  return { prefix: match[1]?.toUpperCase(), number: match[2] ?? '' };
}

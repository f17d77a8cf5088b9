/**
 * The three roles of the dashboard, shared by the proxy (which enforces them) and the SPA (which
 * hides or disables what a role cannot do). Runtime-neutral: no React, no Node built-ins.
 *
 * - viewer: reads (search, profiles, verdicts, inbox, decisions, compare); no writes
 * - analyst: also records decisions, triages, watches, runs and controls their own bulk jobs,
 *   manages their own alert subscriptions
 * - admin: also saves the policy, controls anyone's jobs, reads the audit log, manages team-wide
 *   alerts
 */
export const ROLES = ['viewer', 'analyst', 'admin'] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** True when `role` may do what `needed` may (admin ⊃ analyst ⊃ viewer). */
export function roleAllows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}

const PLURAL: Record<Role, string> = { viewer: 'Viewers', analyst: 'Analysts', admin: 'Admins' };

/**
 * Why `role` cannot do `action` (e.g. "record decisions"), in the words the SPA shows beside a
 * disabled control and the proxy's 403 hint repeats: "Viewers cannot record decisions — ask an
 * admin."
 */
export function roleRefusal(role: Role, action: string): string {
  return `${PLURAL[role]} cannot ${action} — ask an admin.`;
}

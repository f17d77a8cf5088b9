/**
 * Who is signed in and what their role lets them do, from the proxy's `GET /api/local/session`
 * (docs/proxy-security.md, "Roles"). One place for every screen that shows a write: `useCan`
 * answers whether the control is usable and, when not, the words to show beside it ("Viewers
 * cannot record decisions — ask an admin."). The proxy enforces the same rules (403
 * `forbidden_role`); this only keeps a user from reaching for what will be refused.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api-client.ts';
import type { SessionAnswer } from '../../lib/governance/contract.ts';
import { isRole, roleAllows, roleRefusal, type Role } from '../../lib/roles.ts';

export interface SessionUser {
  id: string;
  role: Role;
}

/** An answer's members, each of unknown type until read. */
type Unread<T> = { [K in keyof T]?: unknown };

/**
 * The signed-in user, or null when the answer has none (or an older proxy sends no role). Read by
 * hand (the shell stays free of zod), by the names of the route's contract (`SessionAnswer`).
 */
export function readSession(body: unknown): SessionUser | null {
  if (typeof body !== 'object' || body === null) return null;
  const user = (body as Unread<SessionAnswer>).user;
  if (typeof user !== 'object' || user === null) return null;
  const { id, role } = user as Unread<NonNullable<SessionAnswer['user']>>;
  return typeof id === 'string' && isRole(role) ? { id, role } : null;
}

/** A user's role does not change while the page is open (a new sign-in reloads the page). */
const sessionQuery = queryOptions({
  queryKey: ['session'] as const,
  queryFn: async ({ signal }) => readSession(await apiGet('/api/local/session', {}, { signal })),
  staleTime: Infinity,
});

/** What a screen may offer, and the least role each needs (the proxy's ROUTE_ROLES agree). */
const NEEDS = {
  'record decisions': 'analyst',
  'watch carriers': 'analyst',
  'triage changes': 'analyst',
  'run bulk jobs': 'analyst',
  'run tender checks': 'analyst',
  'manage alert subscriptions': 'analyst',
  'preview policy changes': 'analyst',
  'save the policy': 'admin',
  'poll for the whole team': 'admin',
  'send deliveries again': 'admin',
  'manage API tokens': 'admin',
  'read the audit log': 'admin',
} as const satisfies Record<string, Role>;

export type RoleAction = keyof typeof NEEDS;

export interface Permission {
  allowed: boolean;
  /** why not, in words to show beside the disabled control */
  reason?: string;
}

/** Whether `role` may do `action`; unknown role (still loading, or no role said): allowed. */
export function permissionOf(role: Role | undefined, action: RoleAction): Permission {
  if (role === undefined || roleAllows(role, NEEDS[action])) return { allowed: true };
  return { allowed: false, reason: roleRefusal(role, action) };
}

/** The signed-in user (undefined until known). */
function useSessionUser(): SessionUser | undefined {
  return useQuery(sessionQuery).data ?? undefined;
}

/** Whether the session has been read (the role is then known, or there is none to know). */
export function useSessionRead(): boolean {
  return !useQuery(sessionQuery).isPending;
}

/** Whether the signed-in user may do `action`, and why not. */
export function useCan(action: RoleAction): Permission {
  return permissionOf(useSessionUser()?.role, action);
}

/**
 * Whether the signed-in user may act on a thing `owner` made (a bulk job): its owner may, and an
 * admin may act on anyone's.
 */
export function useCanActOn(owner: string, action: RoleAction): Permission {
  const user = useSessionUser();
  const can = permissionOf(user?.role, action);
  if (!can.allowed || user === undefined || user.id === owner || user.role === 'admin') return can;
  return { allowed: false, reason: `This is ${owner}'s; only they or an admin can change it.` };
}

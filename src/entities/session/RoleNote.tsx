import type { Permission } from './role.ts';

/**
 * The reason a control is disabled for the user's role, shown beside it (the control points at it
 * with aria-describedby). Nothing when the control is allowed.
 */
export function RoleNote({ id, permission }: { id: string; permission: Permission }) {
  if (permission.allowed) return null;
  return (
    <span id={id} className="text-sm text-neutral-700 dark:text-neutral-300">
      {permission.reason}
    </span>
  );
}

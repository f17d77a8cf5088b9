/**
 * The user an API token's requests run as: `token:<id>:<name>` (docs/api.md). Every store records
 * it as the actor (audit log, spend ledger, decisions, bulk jobs); the proxy makes it, the Usage
 * page and the spend report read the token's id and name back. Runtime-neutral.
 */

/** What every token actor starts with; no person may take such a name (the proxy's roles.ts). */
export const TOKEN_ACTOR_PREFIX = 'token:';

/** The actor of token `id` named `name`. */
export function tokenActor(id: number, name: string): string {
  return `${TOKEN_ACTOR_PREFIX}${id}:${name}`;
}

const ACTOR = /^token:(\d{1,15}):(.+)$/su;

/** The token an actor is, or undefined when it is a person (or anything else). */
export function readTokenActor(actor: string): { id: number; name: string } | undefined {
  const match = ACTOR.exec(actor);
  if (match === null) return undefined;
  return { id: Number(match[1]), name: match[2] ?? '' };
}

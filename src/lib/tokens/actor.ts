/** The token actor's prefix for server-proxy/src/governance/roles.ts; the module is ../token-actor.ts. */
export { TOKEN_ACTOR_PREFIX } from '../token-actor.ts';

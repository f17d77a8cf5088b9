import { describe, expect, it } from 'vitest';
import { permissionOf, readSession } from './role.ts';

describe('the session role', () => {
  it('reads the user and role from GET /api/local/session, nothing from a body without them', () => {
    expect(
      readSession({ user: { id: 'vic', name: 'vic', role: 'viewer' }, auth: 'password' }),
    ).toEqual({ id: 'vic', role: 'viewer' });
    expect(readSession({ user: { id: 'old', name: 'old' }, auth: 'password' })).toBeNull();
    expect(readSession({ user: { id: 'x', role: 'root' } })).toBeNull();
    expect(readSession({ user: null, auth: 'password' })).toBeNull();
    expect(readSession('nope')).toBeNull();
  });

  it('says why a role cannot do an action, in the words shown beside the control', () => {
    expect(permissionOf('viewer', 'record decisions')).toEqual({
      allowed: false,
      reason: 'Viewers cannot record decisions — ask an admin.',
    });
    expect(permissionOf('analyst', 'save the policy')).toEqual({
      allowed: false,
      reason: 'Analysts cannot save the policy — ask an admin.',
    });
    expect(permissionOf('analyst', 'record decisions')).toEqual({ allowed: true });
    expect(permissionOf('admin', 'save the policy')).toEqual({ allowed: true });
    // not known yet: nothing is disabled (the proxy still refuses what the role may not do)
    expect(permissionOf(undefined, 'save the policy')).toEqual({ allowed: true });
  });
});

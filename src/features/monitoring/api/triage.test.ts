import { describe, expect, it } from 'vitest';
import { applyTriage } from './triage.ts';

describe('applyTriage', () => {
  it('sets states at once, keeps who and when, and removes New (as the proxy does)', () => {
    const states = new Map([
      ['c1-a', { id: 'c1-a', state: 'reviewed' as const, note: 'n', by: 'ann', at: 't' }],
      ['c1-b', { id: 'c1-b', state: 'escalated' as const }],
    ]);
    const next = applyTriage(states, [
      { id: 'c1-a', profileId: 'P', field: 'f', state: 'escalated', note: 'why' },
      { id: 'c1-b', profileId: 'P', field: 'f', state: 'new' },
      { id: 'c1-c', profileId: 'P', field: 'f', state: 'reviewed' },
    ]);
    expect([...next.values()]).toEqual([
      { id: 'c1-a', state: 'escalated', note: 'why', by: 'ann', at: 't' },
      { id: 'c1-c', state: 'reviewed', note: undefined, by: undefined, at: undefined },
    ]);
    expect(states.get('c1-b')?.state).toBe('escalated');
  });
});

import { describe, expect, it } from 'vitest';
import { inboxCount } from './inbox-count.ts';

describe('inboxCount', () => {
  it('counts every carrier the service lists when no triage state is chosen', () => {
    expect(inboxCount({ total: 6, onPage: 6, shown: 6, triage: 'all' })).toBe('6 carriers');
    expect(inboxCount({ total: 1, onPage: 1, shown: 1, triage: 'all' })).toBe('1 carrier');
    expect(inboxCount({ total: 1234, onPage: 100, shown: 100, triage: 'all' })).toBe(
      '1,234 carriers',
    );
  });

  it('counts the rows the triage filter leaves, of the loaded page', () => {
    expect(inboxCount({ total: 6, onPage: 6, shown: 2, triage: 'escalated' })).toBe(
      '2 of 6 carriers on this page with escalated changes',
    );
    expect(inboxCount({ total: 250, onPage: 100, shown: 0, triage: 'reviewed' })).toBe(
      '0 of 100 carriers on this page with reviewed changes',
    );
    expect(inboxCount({ total: 1, onPage: 1, shown: 1, triage: 'new' })).toBe(
      '1 of 1 carrier on this page with new changes',
    );
  });
});

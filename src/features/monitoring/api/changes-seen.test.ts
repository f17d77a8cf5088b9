import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { newestChangeDaysOf } from '../../../lib/monitoring/change-freshness.ts';
import { reportChangesSeen } from './changes-seen.ts';

const FETCHED = '2026-11-29T10:00:00.000Z';

function clientHolding() {
  const client = new QueryClient();
  client.setQueryData(['profile', 'summary', '4418207'], { dot: '4418207', fetchedAt: FETCHED });
  client.setQueryData(['vetting', 'policy', 'verdict', '4418207'], { fetched_at: FETCHED });
  client.setQueryData(['profile', 'summary', '568253'], { dot: '568253', fetchedAt: FETCHED });
  return client;
}

const invalid = (client: QueryClient, key: readonly unknown[]) =>
  client.getQueryState(key)?.isInvalidated ?? false;

describe('reportChangesSeen', () => {
  it('asks again what the browser holds of a carrier whose change is newer, nothing else', () => {
    const client = clientHolding();
    expect(reportChangesSeen(client, new Map([['4418207', '2026-12-04']]))).toBe(2);
    expect(invalid(client, ['profile', 'summary', '4418207'])).toBe(true);
    expect(invalid(client, ['vetting', 'policy', 'verdict', '4418207'])).toBe(true);
    expect(invalid(client, ['profile', 'summary', '568253'])).toBe(false);
  });

  it('leaves data fetched after the change, or fetched anew after it, alone', () => {
    const client = clientHolding();
    client.setQueryData(['profile', 'summary', '4418207'], {
      fetchedAt: FETCHED,
      refreshedAfterChange: '2026-12-04',
    });
    const days = new Map([
      ['4418207', '2026-12-04'],
      ['568253', '2026-11-28'],
    ]);
    expect(reportChangesSeen(client, days)).toBe(1); // only the verdict of 4418207
    expect(invalid(client, ['profile', 'summary', '4418207'])).toBe(false);
    expect(invalid(client, ['profile', 'summary', '568253'])).toBe(false);
  });

  it('acts on a change once; a later change again', () => {
    const client = clientHolding();
    expect(reportChangesSeen(client, new Map([['568253', '2026-11-30']]))).toBe(1);
    client.setQueryData(['profile', 'summary', '568253'], { fetchedAt: FETCHED });
    expect(reportChangesSeen(client, new Map([['568253', '2026-11-30']]))).toBe(0);
    expect(reportChangesSeen(client, new Map([['568253', '2026-12-01']]))).toBe(1);
  });
});

describe('newestChangeDaysOf', () => {
  it('takes the newest dated record with a change, per DOT', () => {
    const days = newestChangeDaysOf([
      {
        dot: '4418207',
        records: [
          { lastChangedDate: '2026-11-30', changes: [{}] },
          { lastChangedDate: '2026-12-04', changes: [{}] },
          { lastChangedDate: '2026-12-09', changes: [] },
          { changes: [{}] },
        ],
      },
      { dot: '568253', records: [] },
    ]);
    expect(days).toEqual(new Map([['4418207', '2026-12-04']]));
  });
});

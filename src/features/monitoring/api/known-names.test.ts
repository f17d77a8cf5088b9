import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { MonitoredProfile } from '../../../lib/service/index.ts';
import { cachedNames, recordName } from './known-names.ts';

describe('cachedNames', () => {
  it('reads profiles, lite and search answers, suggestions and decision records', () => {
    const client = new QueryClient();
    client.setQueryData(['profile', 'full', '568253'], {
      dot: '568253',
      profile: { dot_number: '568253', legal_name: 'HANSEN & ADKINS' },
    });
    client.setQueryData(['search', 'profiles', {}], {
      items: [{ dot_number: 265752, legal_name: '', dba_name: 'DBA ONLY' }],
    });
    client.setQueryData(['autocomplete', 'swif'], [{ dot_number: '0771234', legal_name: 'SWIFT' }]);
    client.setQueryData(
      ['decisions', 'current', ['2214589']],
      [
        {
          dot_number: '2214589',
          profile: { identity: [{ name: 'legal_name', value: 'DECIDED CO' }] },
        },
      ],
    );
    // the monitoring list names no one and is not walked
    client.setQueryData(['monitoring', 'names', []], new Map([['1', 'IGNORED']]));
    expect(Object.fromEntries(cachedNames(client))).toEqual({
      '568253': 'HANSEN & ADKINS',
      '265752': 'DBA ONLY',
      '771234': 'SWIFT',
      '2214589': 'DECIDED CO',
    });
  });
});

describe('recordName', () => {
  const profile = (records: MonitoredProfile['records']): MonitoredProfile => ({
    profileId: '568253-MC277621',
    dot: '568253',
    docket: 'MC277621',
    records,
  });

  it('takes a name change of the newest record, or a current name it carries', () => {
    expect(
      recordName(
        profile([
          {
            extra: {},
            changes: [{ field: 'legal_name', prior: 'OLD', current: 'NEW', channel: undefined }],
          },
        ]),
      ),
    ).toBe('NEW');
    expect(recordName(profile([{ extra: { dba_name_current: 'TRADING AS' }, changes: [] }]))).toBe(
      'TRADING AS',
    );
    expect(recordName(profile([{ extra: {}, changes: [] }]))).toBeUndefined();
  });
});

import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { watchlistKeys } from '../../../entities/watchlist/keys.ts';
import { carrierKeys } from '../../../entities/carrier/keys.ts';
import { cachedNames, displayName } from './carrier-names.ts';

describe('cachedNames', () => {
  it('reads profiles, lite and search answers, suggestions and decision records', () => {
    const client = new QueryClient();
    // any key: the scan reads answers by their shape, whoever asked for them
    client.setQueryData(['profile', 'full', '568253'], {
      dot: '568253',
      profile: { dot_number: '568253', legal_name: 'HANSEN & ADKINS' },
    });
    client.setQueryData(['search', 'profiles', {}], {
      items: [{ dot_number: 265752, legal_name: '', dba_name: 'DBA ONLY' }],
    });
    client.setQueryData(['autocomplete', 'swif'], [{ dot_number: '0771234', legal_name: 'SWIFT' }]);
    client.setQueryData(carrierKeys.lite('4418207'), { dot_number: '4418207', legal_name: 'LITE' });
    client.setQueryData(carrierKeys.lite('265753'), {
      dot_number: '265753',
      legal_name: 'FEDEX GROUND PACKAGE SYSTEM INC',
      dba_name: 'FEDEX GROUND',
    });
    client.setQueryData(
      ['decisions', 'current', ['2214589']],
      [
        {
          dot_number: '2214589',
          profile: { identity: [{ name: 'legal_name', value: 'DECIDED CO' }] },
        },
      ],
    );
    // the monitoring namespace (list pages, megabytes) is not walked, even when it names someone
    client.setQueryData([...watchlistKeys.all, 'list', {}], {
      items: [{ dot_number: '1', legal_name: 'IGNORED' }],
    });
    expect(Object.fromEntries(cachedNames(client))).toEqual({
      '568253': 'HANSEN & ADKINS',
      '265752': 'DBA ONLY',
      '771234': 'SWIFT',
      '4418207': 'LITE',
      '265753': 'FEDEX GROUND PACKAGE SYSTEM INC (DBA FEDEX GROUND)',
      '2214589': 'DECIDED CO',
    });
  });
});

describe('displayName', () => {
  it('adds a DBA that differs from the legal name', () => {
    expect(displayName('SWIFTPATH EXPRESS LLC', 'SWIFTPATH')).toBe(
      'SWIFTPATH EXPRESS LLC (DBA SWIFTPATH)',
    );
    expect(displayName('ACME LLC', 'acme llc')).toBe('ACME LLC');
    expect(displayName('ACME LLC', undefined)).toBe('ACME LLC');
    expect(displayName(undefined, 'ONLY DBA')).toBe('ONLY DBA');
    expect(displayName(undefined, undefined)).toBeUndefined();
  });
});

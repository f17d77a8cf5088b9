import { describe, expect, it } from 'vitest';
import { fixture } from '../../../src/lib/service/fixtures.test-support.ts';
import { sightingsIn } from './sightings.ts';

describe('sightingsIn', () => {
  it('reads the live shapes: a bare profile, a bare lite profile and a bare autocomplete array', () => {
    const fedex = {
      dot: '265752',
      legal: 'FEDEX GROUND PACKAGE SYSTEM INC',
      dba: 'FEDEX GROUND',
      docket: 'MC179059',
    };
    expect(sightingsIn('profile', fixture('profile_265752'))[0]).toEqual({
      ...fedex,
      source: 'profile',
    });
    expect(sightingsIn('profile-lite', fixture('profile_lite_265752'))).toEqual([
      { ...fedex, source: 'profile-lite' },
    ]);
    expect(sightingsIn('autocomplete', fixture('autocomplete'))).toEqual([
      {
        dot: '818175',
        legal: 'SANDBOX FREIGHT LINES INC',
        dba: 'SANDBOX FREIGHT',
        docket: null,
        source: 'autocomplete',
      },
      // dba_name null: stated as none
      { dot: '2233445', legal: 'SANDBOX LOGISTICS', dba: '', docket: null, source: 'autocomplete' },
    ]);
  });

  it('reads a search page in the spec envelope, and the network graph of a profile', () => {
    const page = {
      items: [
        {
          dot_number: '4418207',
          docket_prefix: 'MC',
          docket_number: 1612093,
          legal_name: '  SWIFTPATH   EXPRESS LLC ',
          network_graph_equipment_ext: [
            { dot_number: '3187452', legal_name: 'SWIFTLINE CARRIERS INC', dockets: 'MC1' },
            { dot_number: '4418207', legal_name: 'NOT OVER THE ITEM' },
          ],
        },
        { dot_number: 568253, legal_name: 'HANSEN & ADKINS AUTO TRANSPORT INC' },
      ],
      total_count: 2,
    };
    expect(sightingsIn('profile', page)).toEqual([
      {
        dot: '4418207',
        legal: 'SWIFTPATH EXPRESS LLC',
        dba: null,
        docket: 'MC1612093',
        source: 'profile',
      },
      {
        dot: '568253',
        legal: 'HANSEN & ADKINS AUTO TRANSPORT INC',
        dba: null,
        docket: null,
        source: 'profile',
      },
      {
        dot: '3187452',
        legal: 'SWIFTLINE CARRIERS INC',
        dba: null,
        docket: null,
        source: 'network',
      },
    ]);
  });

  it('skips what names nothing: no DOT, a bad DOT, no name; and endpoints without names', () => {
    const odd = [
      { legal_name: 'NO DOT' },
      { dot_number: 'abc', legal_name: 'BAD DOT' },
      { dot_number: '0', legal_name: 'ZERO' },
      { dot_number: '12', legal_name: '', dba_name: null },
      null,
      'text',
      { dot_number: '0077', legal_name: null, dba_name: 'ONLY A DBA' },
    ];
    expect(sightingsIn('autocomplete', odd)).toEqual([
      { dot: '77', legal: null, dba: 'ONLY A DBA', docket: null, source: 'autocomplete' },
    ]);
    expect(sightingsIn('autocomplete', { items: 'nope' })).toEqual([]);
    expect(sightingsIn('profile', undefined)).toEqual([]);
    expect(
      sightingsIn('monitoring/list', { items: [{ dot_number: '1', legal_name: 'X' }] }),
    ).toEqual([]);
  });
});

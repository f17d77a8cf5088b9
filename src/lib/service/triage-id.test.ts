import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMonitoringList } from './monitoring.ts';
import { fixtureObject } from './fixtures.test-support.ts';
import {
  TRIAGE_ID_PATTERN,
  canonicalValue,
  cyrb53,
  isTriageId,
  triageId,
  triageIdsOfRecord,
  type TriageSubject,
} from './triage-id.ts';

const BASE: TriageSubject = {
  profileId: '568253-MC277621',
  field: 'insurance_bipd_on_file',
  date: '2026-09-12',
  prior: 750000,
  current: 1000000,
};

describe('cyrb53', () => {
  it('is deterministic, seed-dependent and fits in 53 bits', () => {
    expect(cyrb53('carrier')).toBe(cyrb53('carrier'));
    expect(cyrb53('carrier')).not.toBe(cyrb53('carrier', 1));
    expect(cyrb53('carrier')).not.toBe(cyrb53('carrieR'));
    fc.assert(
      fc.property(fc.string(), (text) => {
        const hash = cyrb53(text);
        return Number.isSafeInteger(hash) && hash >= 0;
      }),
    );
  });
});

describe('canonicalValue', () => {
  it('reads numeric spellings as numbers but keeps identifiers with leading zeros as text', () => {
    expect(canonicalValue('1000000')).toBe(1000000);
    expect(canonicalValue(' 12.5 ')).toBe(12.5);
    expect(canonicalValue('0123')).toBe('0123');
    expect(canonicalValue('1e3')).toBe('1e3');
    expect(canonicalValue('')).toBeNull();
    expect(canonicalValue(undefined)).toBeNull();
  });

  it('sorts object keys and keeps array order', () => {
    expect(JSON.stringify(canonicalValue({ b: 1, a: '2' }))).toBe('{"a":2,"b":1}');
    expect(canonicalValue(['b', 'a'])).toEqual(['b', 'a']);
  });
});

describe('triageId', () => {
  it('has the documented form', () => {
    expect(triageId(BASE)).toMatch(TRIAGE_ID_PATTERN);
    expect(isTriageId(triageId(BASE))).toBe(true);
    expect(isTriageId('c1-XYZ')).toBe(false);
    expect(isTriageId(42)).toBe(false);
  });

  it('ignores how values, dates and ids are spelled', () => {
    const id = triageId(BASE);
    expect(triageId({ ...BASE, prior: '750000', current: '1000000' })).toBe(id);
    expect(triageId({ ...BASE, date: '20260912' })).toBe(id);
    expect(triageId({ ...BASE, profileId: ' 568253-mc277621 ' })).toBe(id);
  });

  it('changes with every part of the identity', () => {
    const id = triageId(BASE);
    const variants: TriageSubject[] = [
      { ...BASE, profileId: '568253-MC277622' },
      { ...BASE, field: 'insurance_bipd_required' },
      { ...BASE, date: '2026-09-13' },
      { ...BASE, date: undefined },
      { ...BASE, prior: null },
      { ...BASE, current: 1000001 },
      { ...BASE, prior: 1000000, current: 750000 },
    ];
    const ids = variants.map(triageId);
    expect(ids).not.toContain(id);
    expect(new Set(ids).size).toBe(variants.length);
  });

  it('does not let a value imitate a separator', () => {
    const a = triageId({ ...BASE, prior: 'x","y', current: 'z' });
    const b = triageId({ ...BASE, prior: 'x', current: 'y","z' });
    expect(a).not.toBe(b);
  });

  it('gives distinct ids to many distinct changes', () => {
    const ids = new Set<string>();
    for (let dot = 1; dot <= 5000; dot += 1) {
      ids.add(triageId({ ...BASE, profileId: `${dot}-MC${dot}`, current: dot }));
      ids.add(triageId({ ...BASE, profileId: `${dot}-MC${dot}`, current: dot + 1 }));
    }
    expect(ids.size).toBe(10_000);
  });
});

describe('triageIdsOfRecord', () => {
  it('gives one id per changed field and the same ids for every live spelling', () => {
    const { value } = parseMonitoringList(fixtureObject('monitoring_list'));
    const profile = value.profiles.find((p) => p.profileId === '818175-MC277621');
    const record = profile?.records[0];
    expect(record).toBeDefined();
    if (!record) return;
    const ids = triageIdsOfRecord('818175-MC277621', record);
    expect(ids.map(({ change }) => change.field)).toEqual([
      'safety_rating_desc',
      'insurance_bipd_on_file',
    ]);
    // the fixture sends the prior BIPD as "750000" (string) and the current as a number
    const bipd = ids.find(({ change }) => change.field === 'insurance_bipd_on_file');
    expect(bipd?.id).toBe(
      triageId({
        profileId: '818175-MC277621',
        field: 'insurance_bipd_on_file',
        date: '20260912',
        prior: 750000,
        current: '1000000',
      }),
    );
    // the second record's only field has `_changed: false`: nothing to triage
    const second = profile?.records[1];
    expect(second && triageIdsOfRecord('818175-MC277621', second)).toEqual([]);
  });
});

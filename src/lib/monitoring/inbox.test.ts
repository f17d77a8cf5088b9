import { describe, expect, it } from 'vitest';
import { parseMonitoringList, type MonitoredProfile } from '../service/index.ts';
import { changeId } from './change-id.ts';
import {
  isNewSince,
  profileChanges,
  sortProfiles,
  triageSummary,
  untriagedCounts,
  type TriageEntry,
} from './inbox.ts';

/** A list body as the service writes it: the bare-DOT id is integer-like and jumps to the front. */
const BODY = JSON.parse(`{
  "total_count": 3,
  "items": {
    "568253-MC277621": [
      {"total_power_units_current": 16, "total_power_units_prior": 12, "total_power_units_changed": true,
       "telephone_number_current": "5625290100", "telephone_number_prior": "5625290199", "telephone_number_changed": "Y",
       "risk_score_current": "High", "risk_score_prior": "Low", "risk_score_changed": false,
       "last_changed_date": "20261120", "started_monitoring_at": 1753531200},
      {"insurance_bipd_on_file_current": "0", "insurance_bipd_on_file_prior": 750000, "insurance_bipd_on_file_changed": 1,
       "last_changed_date": "20261101", "started_monitoring_at": 1753531200}
    ],
    "1000003": [
      {"email_address_current": "b@x.example", "email_address_prior": null, "email_address_changed": "true",
       "last_changed_date": "20261110", "started_monitoring_at": 1750000000, "mcs150_date_current": "2025-01-01"}
    ],
    "1000001-MC100001": []
  }
}`) as unknown;

function profiles(): MonitoredProfile[] {
  return parseMonitoringList(BODY).value.profiles;
}

const ids = (list: MonitoredProfile[]) => list.map((p) => p.profileId);

describe('sortProfiles', () => {
  it('JSON.parse really moves the bare DOT to the front', () => {
    expect(ids(profiles())[0]).toBe('1000003');
  });

  it('restores the change-date order, profiles without records last in both orders', () => {
    expect(ids(sortProfiles(profiles(), 'last_changed_date', 'desc'))).toEqual([
      '568253-MC277621',
      '1000003',
      '1000001-MC100001',
    ]);
    expect(ids(sortProfiles(profiles(), 'last_changed_date', 'asc'))).toEqual([
      '1000003',
      '568253-MC277621',
      '1000001-MC100001',
    ]);
  });

  it('sorts by monitoring start, profile dates and profile id', () => {
    expect(ids(sortProfiles(profiles(), 'started_monitoring_at', 'asc'))[0]).toBe('1000003');
    expect(ids(sortProfiles(profiles(), 'mcs150_date_current', 'desc'))).toEqual([
      '1000003',
      '1000001-MC100001',
      '568253-MC277621',
    ]);
    expect(ids(sortProfiles(profiles(), 'profile_id', 'desc'))).toEqual([
      '568253-MC277621',
      '1000003',
      '1000001-MC100001',
    ]);
  });
});

describe('changes, counts and marks', () => {
  const [example, intrastate] = sortProfiles(profiles(), 'last_changed_date', 'desc');
  const changes = [...profileChanges(example!, changeId), ...profileChanges(intrastate!, changeId)];

  it('flattens records to one row per changed field, ignoring false flags', () => {
    expect(changes.map((c) => [c.field, c.channel, c.date])).toEqual([
      ['total_power_units', 'fleet', '2026-11-20'],
      ['telephone_number', 'contact', '2026-11-20'],
      ['insurance_bipd_on_file', 'insurance', '2026-11-01'],
      ['email_address', 'contact', '2026-11-10'],
    ]);
    expect(new Set(changes.map((c) => c.id)).size).toBe(4);
    expect(changes[2]?.current).toBe(0);
  });

  it('counts untriaged changes per channel from the triage states', () => {
    const triage = new Map<string, TriageEntry>([
      [changes[1]!.id, { id: changes[1]!.id, state: 'reviewed' }],
      [changes[2]!.id, { id: changes[2]!.id, state: 'escalated' }],
    ]);
    const counts = untriagedCounts(changes, triage);
    expect(counts).toMatchObject({ fleet: 1, contact: 1, insurance: 0, total: 2, other: 0 });
    expect(triageSummary(changes, triage)).toEqual({ new: 2, reviewed: 1, escalated: 1 });
  });

  it('marks changes dated after the last visit day only', () => {
    expect(isNewSince(changes[0]!, '2026-11-19T23:00:00.000Z')).toBe(true);
    expect(isNewSince(changes[0]!, '2026-11-20T01:00:00.000Z')).toBe(false);
    expect(isNewSince(changes[0]!, undefined)).toBe(false);
  });
});

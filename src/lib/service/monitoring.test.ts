import { describe, expect, it } from 'vitest';
import { parseMonitoringList } from './monitoring.ts';

/** One record mixing every case of the key walk; JSON text so `__proto__` is a plain key. */
const BODY = `{"total_count": "1", "items": {"1-MC1": [{
  "z": 1,
  "a_prior": "x",
  "last_changed_date": "20260102",
  "total_drivers_current": "1,200",
  "total_drivers_prior": "lots",
  "total_drivers_changed": "Y",
  "a_current": "y",
  "b_changed": "maybe",
  "__proto__": {"polluted": true},
  "a_changed": "N",
  "started_monitoring_at": "soon",
  "constructor": 1,
  "legal_name_current": "ACME",
  "legal_name_changed": 1,
  "last_acknowledged_at": 1754006400000
}]}}`;

describe('change record key walk', () => {
  const { value, issues } = parseMonitoringList(JSON.parse(BODY));
  const record = value.profiles[0]?.records[0];

  it('reads changed fields in first-seen order', () => {
    expect(record?.changes).toEqual([
      { field: 'total_drivers', current: 1200, prior: null, channel: 'fleet' },
      { field: 'legal_name', current: 'ACME', prior: null, channel: 'contact' },
    ]);
    expect(record?.lastChangedDate).toBe('2026-01-02');
    expect(record?.lastAcknowledgedAt).toBe('2025-08-01T00:00:00.000Z');
    expect(record).not.toHaveProperty('startedMonitoringAt');
  });

  it('keeps unchanged triples first (current, prior, changed), then other keys as sent', () => {
    const extra = record?.extra ?? {};
    expect(Object.keys(extra)).toEqual([
      'a_current',
      'a_prior',
      'a_changed',
      'b_changed',
      'z',
      '__proto__',
      'constructor',
    ]);
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(extra, '__proto__')?.value).toEqual({ polluted: true });
    expect(extra.constructor).toBe(1);
  });

  it('reports issues at the key they concern, in reading order', () => {
    expect(issues).toEqual([
      {
        path: 'items.1-MC1[0].total_drivers_prior',
        message: 'Invalid input: expected number, received NaN (got "lots")',
      },
      {
        path: 'items.1-MC1[0].b_changed',
        message: 'Invalid input: expected boolean, received string (got "maybe")',
      },
      { path: 'items.1-MC1[0].started_monitoring_at', message: 'expected a time (got "soon")' },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { MonitoredProfile } from '../../../lib/service/index.ts';
import { recordName } from './known-names.ts';

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

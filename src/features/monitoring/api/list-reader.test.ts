import { describe, expect, it } from 'vitest';
import { readListText } from './list-reader.ts';

describe('readListText', () => {
  it('reads a list answer into profiles with their change records', () => {
    const text = JSON.stringify({
      total_count: '3',
      items: {
        '568253-MC277621': [{ dot_number: 568253, legal_name: 'HANSEN', legal_name_changed: 'Y' }],
      },
    });
    const reading = readListText(text);
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.list.totalCount).toBe(3);
    expect(reading.list.profiles.map((profile) => profile.profileId)).toEqual(['568253-MC277621']);
  });

  it('reads an empty body as an empty list and refuses text that is not JSON', () => {
    expect(readListText('  ')).toEqual({ ok: true, list: { totalCount: 0, profiles: [] } });
    expect(readListText('{"items": [')).toEqual({ ok: false });
  });
});

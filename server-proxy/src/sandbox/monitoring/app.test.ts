import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, channelOfField } from '../../../../src/lib/service/channels.ts';
import type { AppliedEvent } from '../context.ts';
import { startSandbox, type RunningSandbox } from '../helpers.test-support.ts';

/** The monitoring module inside the real sandbox app, on the real dataset. */
const EXAMPLE_ID = '568253-MC277621';

interface ListBody {
  total_count: number;
  items: Record<string, Record<string, unknown>[]>;
}

function channelsOf(records: Record<string, unknown>[]): Set<string | undefined> {
  return new Set(
    records.flatMap((record) =>
      Object.keys(record)
        .filter((key) => key.endsWith('_changed'))
        .map((key) => channelOfField(key.slice(0, -'_changed'.length))),
    ),
  );
}

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox.close();
});

async function list(query = ''): Promise<ListBody> {
  const result = await sandbox.call(`/v2/monitoring/list${query}`);
  expect(result.status, result.text).toBe(200);
  return result.json as ListBody;
}

describe('monitoring in the sandbox app', () => {
  it('serves the seeded watchlist with history in all six channels', async () => {
    const body = await list();
    expect(body.total_count).toBe(6);
    const example = body.items[EXAMPLE_ID] ?? [];
    expect([...channelsOf(example)].sort()).toEqual([...CHANNELS].sort());
    expect(Object.values(body.items).some((records) => records.length === 0)).toBe(true);
  });

  it('moves GET /v2/profile with advance and keeps everything across a restart', async () => {
    const advanced = await sandbox.call('/__sandbox/advance', {
      method: 'POST',
      body: { days: 22 },
    });
    expect(advanced.status, advanced.text).toBe(200);
    const events = (advanced.json as { events: AppliedEvent[] }).events.filter(
      (event) => event.profileId === EXAMPLE_ID,
    );
    expect(new Set(events.map((event) => event.channel)).size).toBe(6);
    const phone = events.findLast((event) => event.field === 'telephone_number');
    const profile = await sandbox.call('/v2/profile?dot_number=568253');
    const served = (profile.json as { items: Record<string, unknown>[] }).items[0];
    expect(served?.telephone_number).toBe(phone?.current);
    const before = await list();

    await sandbox.stop();
    sandbox = await startSandbox({ dataDir: sandbox.dataDir });
    expect(await list()).toEqual(before);
    const again = await sandbox.call('/v2/profile?dot_number=568253');
    expect((again.json as { items: Record<string, unknown>[] }).items[0]?.telephone_number).toBe(
      phone?.current,
    );
  });

  it('bills an add in the ledger and forgets additions on reset', async () => {
    const added = await sandbox.call('/v2/monitoring/add', {
      method: 'POST',
      body: { profile_ids: [EXAMPLE_ID] },
    });
    expect(added.json).toEqual({ status: 'Profiles added or updated successfully', added: 1 });
    const ledger = await sandbox.call('/__sandbox/ledger');
    expect(JSON.stringify(ledger.json)).toContain('"kind":"monitoring"');
    const reset = await sandbox.call('/__sandbox/reset', { method: 'POST' });
    expect(reset.status).toBe(200);
    const body = await list();
    expect(body.total_count).toBe(6);
    expect(body.items[EXAMPLE_ID]?.[0]).not.toHaveProperty('last_acknowledged_at');
  });
});

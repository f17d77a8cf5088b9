/**
 * Monitoring spend through a real proxy over the embedded sandbox: a successful
 * `monitoring/remove` must reach the spend meter, so a removed DOT is not billed again next month.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerGovernance } from './governance/index.ts';
import {
  CSRF,
  startProxy,
  embeddedSandboxConfig,
  type RunningProxy,
} from './helpers.test-support.ts';

const WATCHED = '3187452-MC1098831';
const REMOVED = '568253-MC277621';

interface MonitoringUsage {
  category: string;
  calls: number;
  billedUnits: number;
  usd: number;
}

interface UsageBody {
  month: string;
  spentUsd: number;
  byCategory: MonitoringUsage[];
}

let proxy: RunningProxy;
/** The governance clock (usage, estimates); undefined = real time, as the mirror records. */
let clock: Date | undefined;

beforeEach(async () => {
  clock = undefined;
  proxy = await startProxy(embeddedSandboxConfig(), {
    registerGovernance: (app, deps) =>
      registerGovernance(app, { ...deps, now: () => clock ?? new Date() }),
  });
});

afterEach(async () => {
  await proxy.close();
});

/** Noon on the 2nd of the month after the real current one (UTC). */
function nextMonth(): Date {
  const today = new Date();
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 2, 12));
}

async function monitoring(action: 'add' | 'remove', ids: string[]) {
  const result = await proxy.call(`/api/v2/monitoring/${action}`, {
    method: 'POST',
    headers: CSRF,
    body: { profile_ids: ids },
  });
  expect(result.status, result.text).toBe(200);
}

async function usage(): Promise<{ month: string; spentUsd: number; monitoring: MonitoringUsage }> {
  const result = await proxy.call('/api/local/usage');
  expect(result.status).toBe(200);
  const body = result.json as UsageBody;
  const category = body.byCategory.find((entry) => entry.category === 'monitoring');
  if (!category) throw new Error('usage lists no monitoring category');
  return { month: body.month, spentUsd: body.spentUsd, monitoring: category };
}

async function estimateAdd(dots: string[]) {
  const result = await proxy.call('/api/local/estimate', {
    method: 'POST',
    headers: CSRF,
    body: { action: 'monitoring/add', dots },
  });
  expect(result.status, result.text).toBe(200);
  return result.json as { units: number; billableUnits: number; costUsd: number };
}

describe('monitoring/remove reaches the spend meter', () => {
  it('is free, but counted as a monitoring call this month', async () => {
    await monitoring('add', [WATCHED, REMOVED]);
    const before = await usage();
    expect(before.monitoring).toMatchObject({ calls: 1, billedUnits: 2, usd: 1 });
    await monitoring('remove', [REMOVED]);
    const after = await usage();
    expect(after.monitoring).toMatchObject({ calls: 2, billedUnits: 2, usd: 1 });
    expect(after.spentUsd).toBe(before.spentUsd);
  });

  it('keeps a removed DOT out of next month, while a still-watched one is carried', async () => {
    await monitoring('add', [WATCHED, REMOVED]);
    await monitoring('remove', [REMOVED]);
    clock = nextMonth();
    const next = await usage();
    expect(next.month).toBe(clock.toISOString().slice(0, 7));
    // Only the DOT still watched is billed again for the new month.
    expect(next.monitoring).toMatchObject({ billedUnits: 1, usd: 0.5 });
    expect(next.spentUsd).toBe(0.5);
    // Re-adding the carried DOT is free; the removed one would be billed anew.
    expect(await estimateAdd(['3187452'])).toMatchObject({ billableUnits: 0, costUsd: 0 });
    expect(await estimateAdd(['568253'])).toMatchObject({ billableUnits: 1, costUsd: 0.5 });
  });

  it('does not meter a remove the proxy refused', async () => {
    await monitoring('add', [WATCHED]);
    const refused = await proxy.call('/api/v2/monitoring/remove', {
      method: 'POST',
      headers: CSRF,
      body: { profile_ids: ['not-an-id'] },
    });
    expect(refused.status).toBe(400);
    expect((await usage()).monitoring.calls).toBe(1);
    clock = nextMonth();
    expect((await usage()).monitoring).toMatchObject({ billedUnits: 1, usd: 0.5 });
  });
});

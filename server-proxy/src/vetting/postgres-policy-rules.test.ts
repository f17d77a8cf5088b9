/**
 * Policy options and the newer rules through PostgreSQL (DATABASE_URL): two proxies on one real
 * PostgreSQL, in front of one sandbox, over HTTP. A version saved on one with
 * `options.max_revet_days` and a newer rule is read back, whole, by the other, whose verdict uses
 * it. Skipped, with the reason, only where PostgreSQL is not installed
 * (team/replicas.test-support.ts).
 */
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../sql/engines.test-support.ts';
import { asUser, useReplicas, useSandbox } from '../team/replicas.test-support.ts';

const SANDBOX_KEY = 'sk_test_policy_rules';
const headers = asUser('val');
const postgres = usePostgres();
const replicas = useReplicas(useSandbox({ apiKey: SANDBOX_KEY }));

/** A replica on the database at `databaseUrl`, in front of the shared sandbox. */
const replica = (databaseUrl: string) => replicas.start({ databaseUrl });

describe('policy options and newer rules on PostgreSQL', () => {
  it('a version saved on one replica is read whole by the other and used by its verdict', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const a = await replica(databaseUrl);
    const b = await replica(databaseUrl);
    const fresh = await b.call('/api/local/policy', { headers });
    expect(fresh.json).toMatchObject({ version: 1, options: { max_revet_days: 365 } });

    const saved = await a.call('/api/local/policy', {
      method: 'PUT',
      headers,
      body: {
        rules: { cargo_classes: { enabled: true, cargo_refused: ['motor_vehicles'] } },
        options: { max_revet_days: 90 },
      },
    });
    expect(saved.status, saved.text).toBe(201);

    const read = (await b.call('/api/local/policy', { headers })).json as {
      version: number;
      options: { max_revet_days: number };
      settings: Record<string, { enabled: boolean; cargo_refused?: string[] }>;
    };
    expect(read.version).toBe(2);
    expect(read.options).toEqual({ max_revet_days: 90 });
    expect(read.settings.cargo_classes).toMatchObject({
      enabled: true,
      cargo_refused: ['motor_vehicles'],
    });
    const v1 = (await b.call('/api/local/policy/versions/1', { headers })).json as typeof read;
    expect(v1.options).toEqual({ max_revet_days: 365 });
    expect(v1.settings.cargo_classes?.enabled).toBe(false);

    const verdict = await b.call('/api/local/verdict?dot_number=568253', { headers });
    expect(verdict.status, verdict.text).toBe(200);
    const body = verdict.json as { verdict: string; policy_version: number; reasons: unknown[] };
    expect(body).toMatchObject({ verdict: 'review', policy_version: 2 });
    expect(body.reasons[0]).toMatchObject({
      rule: 'cargo_classes',
      outcome: 'review',
      message: 'The carrier hauls Motor vehicles (refused).',
    });
  });
});

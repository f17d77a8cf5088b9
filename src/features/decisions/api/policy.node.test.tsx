/**
 * Saving the policy against a real proxy (child process, real SQLite file): the standing shown
 * beside a decision is judged by the policy, so a save asks it again and the screen shows the
 * standing under the new version without being reopened.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiGet } from '../../../lib/api-client.ts';
import { createQueryClient } from '../../../entities/query-client.ts';
import { useDecisionStandings } from '../../../entities/vetting/standing.ts';
import { startSandboxProxy, type SandboxProxy } from '../../../test/sandbox-proxy.node.ts';
import { useSavePolicy } from './policy.ts';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });
const WAIT = { timeout: 15_000 };

let sandbox: SandboxProxy;

beforeAll(async () => {
  sandbox = await startSandboxProxy();
  // a decision records what was seen: the profile first
  await apiGet('/api/v2/profile', { dot_number: '568253' });
  const response = await fetch('/api/local/decisions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'carrier-desk' },
    body: JSON.stringify({ dot_number: '568253', decision: 'approved', note: 'partner' }),
  });
  expect(response.status).toBeLessThan(300);
});
afterAll(async () => {
  cleanup();
  await sandbox.stop();
});

describe('useSavePolicy', () => {
  it('asks the standings beside decisions again: they are judged by the saved version', async () => {
    const client = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () => ({ standings: useDecisionStandings(['568253']), save: useSavePolicy() }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.standings.data?.size).toBe(1), WAIT);
    expect(result.current.standings.data?.get('568253')?.now?.policy_version).toBe(1);
    const asked = () =>
      sandbox.calls.filter((call) => call.startsWith('GET /api/local/decisions/current')).length;
    const before = asked();

    const saved = await result.current.save.mutateAsync({
      rules: { new_entrant: { threshold: 200 } },
      note: 'stricter on new entrants',
    });
    expect(saved.version).toBe(2);

    await waitFor(
      () => expect(result.current.standings.data?.get('568253')?.now?.policy_version).toBe(2),
      WAIT,
    );
    expect(asked()).toBe(before + 1);
  });
});

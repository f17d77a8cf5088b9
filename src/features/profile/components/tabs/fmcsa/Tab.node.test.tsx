import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toFmcsa } from '../../../../../../server-proxy/src/sandbox/routes/fmcsa.ts';
import { createQueryClient } from '../../../../../entities/query-client.ts';
import { sandboxProfile as testProfile } from '../../../../../test/sandbox-profiles.node.ts';
import { FmcsaTab } from './Tab.tsx';

let server: Server;
let origin = '';
const realFetch = globalThis.fetch;

/** A real HTTP server answering /api/v2/profile-fmcsa with the sandbox's own FMCSA projection. */
function answer(url: URL): { status: number; body: unknown } {
  const dot = url.searchParams.get('dot_number') ?? '';
  try {
    return { status: 200, body: toFmcsa(testProfile(dot).raw as Record<string, unknown>) };
  } catch {
    return {
      status: 404,
      body: { error: 'No carrier matched the supplied identifier', code: 'not_found' },
    };
  }
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const { status, body } = answer(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The SPA calls its own origin; send those relative URLs to the server.
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) =>
    realFetch(`${origin}${input}`, { ...init, signal: null }),
  );
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(cleanup);

function renderTab(dot: string) {
  const { parsed, raw } = testProfile('568253');
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <FmcsaTab dot={dot} profile={parsed.value} raw={raw} issues={parsed.issues} />
    </QueryClientProvider>,
  );
}

describe('FmcsaTab over HTTP', () => {
  it('lists the 236 FMCSA fields and filters them', async () => {
    const user = userEvent.setup();
    renderTab('568253');
    expect(await screen.findByText('236 of 236 fields')).toBeTruthy();
    expect(screen.getByRole('row', { name: /^legal_name/ }).textContent).toContain('HANSEN');
    await user.type(screen.getByLabelText('Filter fields'), 'insurance_bipd');
    expect(await screen.findByText('2 of 236 fields')).toBeTruthy();
  });

  it('says "not billed" when FMCSA has no record for the DOT', async () => {
    renderTab('9999998');
    expect(await screen.findByText('No FMCSA record for this DOT (not billed).')).toBeTruthy();
  });
});

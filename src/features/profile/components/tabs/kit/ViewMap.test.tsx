/** `ViewMap`: what a history tab shows in the map's place until the map can draw. */
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { ApiError } from '../../../../../lib/api-client.ts';
import { ViewMap } from './ViewMap.tsx';

afterEach(cleanup);

type Triples = [number, number, string][];

function Harness({ load }: { load: () => Promise<Triples> }) {
  const query = useQuery({ queryKey: ['crash-points'], queryFn: load, retry: false });
  // points stay unbuilt here: the tab builds them in a deferred render once the triples are in
  return <ViewMap label="Map of crash locations" query={query} points={undefined} />;
}

function renderMap(load: () => Promise<Triples>) {
  const client = new QueryClient();
  render(
    <QueryClientProvider client={client}>
      <Harness load={load} />
    </QueryClientProvider>,
  );
}

it('says the map is loading while its points download', () => {
  renderMap(() => new Promise<Triples>(() => {}));
  expect(screen.getByRole('status').textContent).toBe('Loading the map of crash locations…');
});

it('keeps the map’s box while the points are built', async () => {
  renderMap(() => Promise.resolve([[-97, 32, 'c1']]));
  const box = await screen.findByText('Loading map of crash locations…');
  expect(box.getAttribute('style')).toContain('height: 360px');
});

it('says why the points could not be had, and a retry draws the map’s box', async () => {
  let calls = 0;
  renderMap(() => {
    calls += 1;
    return calls === 1
      ? Promise.reject(new ApiError({ kind: 'http', status: 502, message: 'answered 502' }))
      : Promise.resolve([]);
  });
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('could not load the map of crash locations');
  await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByText('Loading map of crash locations…')).toBeTruthy();
  expect(calls).toBe(2);
  expect(screen.queryByRole('alert')).toBeNull();
});

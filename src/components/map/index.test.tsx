import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MapViewProps } from './types.ts';

/** What the stand-in for the MapLibre chunk saw: its evaluations and worker start-ups. */
const chunk = vi.hoisted(() => ({ evaluated: 0, prewarmed: 0 }));

vi.mock('./MapCanvas.tsx', () => {
  chunk.evaluated += 1;
  return {
    default: ({ label }: MapViewProps) => <div role="group" aria-label={label} data-state="idle" />,
    prewarmMap: () => {
      chunk.prewarmed += 1;
    },
  };
});

/** A fresh copy of index.tsx (its remembered chunk is module state). */
async function freshIndex() {
  vi.resetModules();
  return import('./index.tsx');
}

const PROPS: MapViewProps = { label: 'Map of inspection locations', points: [] };

beforeEach(() => {
  Object.assign(chunk, { evaluated: 0, prewarmed: 0 });
});
afterEach(cleanup);

describe('preloadMap', () => {
  it('loads the chunk and starts the worker once, however often it is called', async () => {
    const { preloadMap } = await freshIndex();
    preloadMap();
    preloadMap();
    await vi.waitFor(() => expect(chunk.prewarmed).toBe(1));
    preloadMap();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(chunk.prewarmed).toBe(1);
    expect(chunk.evaluated).toBe(1);
  });

  it('lets a map render at once, without the loading box, once the chunk is in', async () => {
    const { MapView, preloadMap } = await freshIndex();
    preloadMap();
    await vi.waitFor(() => expect(chunk.prewarmed).toBe(1));
    render(<MapView {...PROPS} />);
    // synchronously: no Suspense fallback in between
    expect(screen.getByRole('group', { name: PROPS.label }).dataset['state']).toBe('idle');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('without a preload, shows the loading box and then the map (the chunk loaded once)', async () => {
    const { MapView } = await freshIndex();
    render(<MapView {...PROPS} />);
    expect(screen.getByRole('status').textContent).toContain('Loading map of inspection locations');
    expect(await screen.findByRole('group', { name: PROPS.label })).toBeTruthy();
    expect(chunk.prewarmed).toBe(1);
  });

  it('ignores a failed load, and a later call loads again', async () => {
    vi.doMock('./MapCanvas.tsx', () => {
      throw new Error('the chunk did not load');
    });
    const { preloadMap } = await freshIndex();
    preloadMap();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(chunk.prewarmed).toBe(0);
    vi.doMock('./MapCanvas.tsx', () => ({
      default: () => null,
      prewarmMap: () => {
        chunk.prewarmed += 1;
      },
    }));
    preloadMap();
    await vi.waitFor(() => expect(chunk.prewarmed).toBe(1));
  });
});

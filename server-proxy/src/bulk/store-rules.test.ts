/** The bulk store's decisions, with no database (store-rules.ts). */
import { describe, expect, it } from 'vitest';
import type { BulkEstimate, BulkItem, JobStatus } from '../../../src/lib/bulk/contract.ts';
import {
  doneMergeOf,
  effectOf,
  refusalOf,
  rowOf,
  storedEstimate,
  withMergedInputs,
  type JobAction,
} from './store-rules.ts';

const STATUSES: JobStatus[] = ['queued', 'running', 'paused', 'done', 'failed', 'cancelled'];
const ACTIONS: JobAction[] = ['pause', 'resume', 'cancel', 'retry-failed'];

describe('the job state machine', () => {
  it('allows each action only from its states', () => {
    const allowed = Object.fromEntries(
      ACTIONS.map((action) => [
        action,
        STATUSES.filter((status) => !refusalOf('j1', { status, failed: 1 }, action)),
      ]),
    );
    expect(allowed).toEqual({
      pause: ['queued', 'running'],
      resume: ['paused', 'failed'],
      cancel: ['queued', 'running', 'paused'],
      'retry-failed': ['queued', 'running', 'paused', 'done', 'failed'],
    });
  });

  it('says why an action is refused, with a hint', () => {
    expect(refusalOf('j1', { status: 'done', failed: 0 }, 'pause')).toEqual({
      code: 'invalid_transition',
      message: 'Job j1 is done: it cannot pause',
      hint: 'Only a queued or running job can be paused.',
    });
    expect(refusalOf('j1', { status: 'cancelled', failed: 2 }, 'retry-failed')).toMatchObject({
      code: 'invalid_transition',
      message: 'Job j1 is cancelled: it cannot retry its failed items',
    });
    expect(refusalOf('j1', { status: 'done', failed: 0 }, 'retry-failed')).toMatchObject({
      code: 'nothing_to_retry',
      message: 'Job j1 has no failed item',
    });
  });

  it('moves the job and its items as each action says', () => {
    expect(effectOf('pause', 'running')).toEqual({ items: null, status: 'paused' });
    expect(effectOf('resume', 'failed')).toEqual({ items: null, status: 'queued' });
    expect(effectOf('cancel', 'paused')).toEqual({ items: 'cancel-pending', status: 'cancelled' });
    // a finished job runs again for its failed items; a paused or running one keeps its status
    expect(effectOf('retry-failed', 'done')).toEqual({ items: 'retry-failed', status: 'queued' });
    expect(effectOf('retry-failed', 'failed')).toEqual({ items: 'retry-failed', status: 'queued' });
    expect(effectOf('retry-failed', 'paused')).toEqual({ items: 'retry-failed', status: null });
    expect(effectOf('retry-failed', 'running')).toEqual({ items: 'retry-failed', status: null });
  });
});

describe('merging a done carrier', () => {
  it('leaves an item no longer pending alone, merges into a holder, lets a docket absorb', () => {
    expect(doneMergeOf(undefined, false)).toBe('not-pending');
    expect(doneMergeOf({ status: 'done', kind: 'docket' }, true)).toBe('not-pending');
    expect(doneMergeOf({ status: 'pending', kind: 'dot' }, true)).toBe('into-holder');
    expect(doneMergeOf({ status: 'pending', kind: 'docket' }, true)).toBe('into-holder');
    expect(doneMergeOf({ status: 'pending', kind: 'dot' }, false)).toBe('own');
    expect(doneMergeOf({ status: 'pending', kind: 'docket' }, false)).toBe('own-and-absorb');
  });

  it('shows merged inputs on the item of their carrier, in line order', () => {
    const item = (position: number, identifier: string, dot?: string): BulkItem => ({
      position,
      row: rowOf([4, 9, 2], position),
      identifier,
      ...(dot === undefined ? {} : { dot_number: dot }),
      status: 'done',
      attempts: 1,
    });
    const items = [item(1, 'MC-1', '568253'), item(2, '2214589', '2214589'), item(4, 'MC-9')];
    const shown = withMergedInputs(
      items,
      [{ position: 3, identifier: '568253', dot_number: '568253' }],
      [4, 9, 2],
    );
    expect(shown[0]?.inputs).toEqual([
      { identifier: '568253', row: 2 },
      { identifier: 'MC-1', row: 4 },
    ]);
    expect(shown[1]).toEqual(items[1]);
    expect(shown[2]?.inputs).toBeUndefined();
    expect(withMergedInputs(items, [], [])).toEqual(items);
  });
});

describe('item rows', () => {
  it('keeps each item’s line or row, its place in the list by default', () => {
    expect(
      storedEstimate({ carriers: 2 } as BulkEstimate, [{ position: 7 }, {}, { position: 12 }]),
    ).toEqual({ carriers: 2, item_rows: [7, 2, 12] });
    expect(rowOf([7, 2], 2)).toBe(2);
    expect(rowOf([7], 5)).toBe(5);
  });
});

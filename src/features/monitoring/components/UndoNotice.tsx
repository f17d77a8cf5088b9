import { useEffect, useRef } from 'react';
import type { InboxChange, TriageState } from '../../../lib/monitoring/inbox.ts';
import { BUTTON } from './ui.ts';

export interface UndoState {
  /** done: marked, undo offered; undoing: the undo is being saved; undone: states restored */
  phase: 'done' | 'undoing' | 'undone';
  /** each marked change with the state and note it had before */
  previous: { change: InboxChange; state: TriageState; note: string | undefined }[];
}

function changesText(count: number): string {
  return `${count} change${count === 1 ? '' : 's'}`;
}

/**
 * "Marked 10 changes reviewed — Undo": shown after "Mark all on this page reviewed". The focus moves
 * to Undo (the button the user pressed is disabled now that nothing is left to mark); Undo puts
 * every change back in the state it had, notes included.
 */
export function UndoNotice({
  state,
  onUndo,
  onDismiss,
}: {
  state: UndoState;
  onUndo: () => void;
  onDismiss: () => void;
}) {
  const undoRef = useRef<HTMLButtonElement>(null);
  const count = state.previous.length;
  useEffect(() => {
    if (state.phase === 'done') undoRef.current?.focus();
  }, [state.phase]);
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-md border border-sky-300 bg-sky-50 p-3 text-sm text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-50">
      <p role="status">
        {state.phase === 'undone'
          ? `Undone: ${changesText(count)} back to their previous state.`
          : `Marked ${changesText(count)} reviewed.`}
      </p>
      {state.phase === 'undone' ? null : (
        <button
          ref={undoRef}
          type="button"
          className={BUTTON}
          aria-disabled={state.phase === 'undoing'}
          onClick={() => {
            if (state.phase === 'done') onUndo();
          }}
        >
          {state.phase === 'undoing' ? 'Undoing…' : 'Undo'}
        </button>
      )}
      <button type="button" className={BUTTON} onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

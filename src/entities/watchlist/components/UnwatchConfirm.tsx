import { useEffect, useId, useRef } from 'react';
import { BUTTON, PRIMARY_BUTTON } from '../../../components/controls.ts';

interface UnwatchConfirmProps {
  profileIds: readonly string[];
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before removing: removal is free but refunds nothing already billed this month. */
export function UnwatchConfirm({ profileIds, busy, onConfirm, onCancel }: UnwatchConfirmProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  useEffect(() => heading.current?.focus(), []);
  const what = profileIds.length === 1 ? profileIds[0] : `${profileIds.length} carriers`;
  return (
    <section
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-detail`}
      className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-neutral-900 dark:border-amber-700 dark:bg-amber-950 dark:text-neutral-100"
    >
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="font-semibold">
        Stop watching {what}?
      </h2>
      <p id={`${id}-detail`} className="mt-1 text-sm">
        Removal refunds nothing this month: carriers already billed this month stay billed. Their
        change history is deleted; watching them again later starts a fresh history.
      </p>
      <div className="mt-3 flex gap-2">
        <button type="button" className={PRIMARY_BUTTON} disabled={busy} onClick={onConfirm}>
          {busy ? 'Removing…' : 'Stop watching'}
        </button>
        <button type="button" className={BUTTON} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}

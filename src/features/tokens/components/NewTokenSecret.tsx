import { useEffect, useId, useRef, useState } from 'react';
import { BUTTON, INPUT, PRIMARY_BUTTON } from '../../../components/controls.ts';
import { formatDate } from '../../../lib/format.ts';
import type { MadeToken } from '../api/tokens-api.ts';

type Copy = 'idle' | 'copied' | 'failed';

/**
 * The token just made, shown this once in a read-only field with Copy: the proxy keeps only its
 * hash, so nobody can show it again. Done puts the form back.
 */
export function NewTokenSecret({ made, onDone }: { made: MadeToken; onDone: () => void }) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<Copy>('idle');
  useEffect(() => heading.current?.focus(), []);

  const copyToken = async () => {
    field.current?.select();
    try {
      await navigator.clipboard.writeText(made.token);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-neutral-900 dark:border-amber-700 dark:bg-amber-950 dark:text-neutral-100"
    >
      <h2 id={`${id}-title`} ref={heading} tabIndex={-1} className="text-lg font-semibold">
        Token made for {made.name}
      </h2>
      <p id={`${id}-once`} className="text-sm">
        <strong>Copy it now: you will not see this token again.</strong> Only its fingerprint is
        kept, so nobody can show it later; if it is lost, revoke it and make another. It is a{' '}
        {made.role} token and expires on {formatDate(made.expires_at)}.
      </p>
      <label className="flex flex-col gap-1 text-sm font-medium">
        The token
        <input
          ref={field}
          readOnly
          value={made.token}
          spellCheck={false}
          aria-describedby={`${id}-once`}
          onFocus={(event) => event.currentTarget.select()}
          className={`${INPUT} w-full font-mono`}
        />
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={PRIMARY_BUTTON} onClick={() => void copyToken()}>
          Copy token
        </button>
        <button type="button" className={BUTTON} onClick={onDone}>
          Done
        </button>
        <span role="status" className="text-sm">
          {copy === 'copied'
            ? 'Copied to the clipboard.'
            : copy === 'failed'
              ? 'The browser would not copy it: the token is selected, copy it with Ctrl+C (⌘C).'
              : ''}
        </span>
      </div>
    </section>
  );
}

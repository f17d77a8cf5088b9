import { useState, type ChangeEvent } from 'react';
import { useCan } from '../../../entities/session/role.ts';
import { ResolveAndWatch } from '../../../entities/watchlist/components/ResolveAndWatch.tsx';
import { splitEntries } from '../../../lib/watchlist/entries.ts';
import { INPUT, LABEL } from './ui.ts';

/** Paste or upload DOT numbers, dockets or profile ids → resolve → estimate → confirm → send. */
export function BulkWatchPanel() {
  const [text, setText] = useState('');
  const { reason } = useCan('watch carriers');
  // a new list starts the steps again
  const [round, setRound] = useState(0);
  const entries = splitEntries(text);
  const edit = (value: string) => {
    setText(value);
    setRound((n) => n + 1);
  };
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) edit(await file.text());
  };

  return (
    <details className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
      <summary className="cursor-pointer font-semibold">Watch carriers in bulk</summary>
      <div className="mt-3 flex flex-col gap-3">
        <label className={LABEL}>
          DOT numbers, dockets or profile ids (one per line or comma-separated)
          <textarea
            className={`${INPUT} h-28 font-mono`}
            value={text}
            onChange={(event) => edit(event.target.value)}
          />
        </label>
        <label className={LABEL}>
          Or upload a text or CSV file
          <input type="file" accept=".txt,.csv,text/plain,text/csv" onChange={onFile} />
        </label>
        <ResolveAndWatch
          key={round}
          entries={entries}
          noun="entries"
          onDone={() => edit('')}
          refusal={reason}
        />
      </div>
    </details>
  );
}

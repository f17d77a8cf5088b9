import { useId, useState, type ChangeEvent } from 'react';
import { INPUT, LABEL, MUTED } from '../../../components/controls.ts';
import { formatCount } from '../../../lib/format.ts';
import {
  columnCount,
  columnEntries,
  columnPreviews,
  detectHeader,
  likelyColumn,
  readUpload,
  type Sheet,
} from '../model/upload.ts';

interface Upload {
  name: string;
  sheet: Sheet;
  column: number;
  header: boolean;
}

interface ListInputProps {
  text: string;
  /**
   * The list changed: typed (`rows` undefined: entries are numbered by their line), or filled from
   * a file's column, one cell a line, `rows[i]` being the file's row of line i + 1.
   */
  onText: (text: string, rows?: number[]) => void;
}

/**
 * The list to vet: typed or pasted, or taken from one column of an uploaded CSV/XLSX file (the
 * column and header guessed, both changeable). The chosen column fills the text box, so what runs
 * is always what the box shows.
 */
export function ListInput({ text, onText }: ListInputProps) {
  const id = useId();
  const [upload, setUpload] = useState<Upload | undefined>();
  const [reading, setReading] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();

  const choose = (next: Upload) => {
    setUpload(next);
    const entries = columnEntries(next.sheet, next.column, next.header);
    onText(
      entries.map((entry) => entry.input).join('\n'),
      entries.map((entry) => entry.position),
    );
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setProblem(undefined);
    setReading(true);
    try {
      const sheet = await readUpload(file);
      const { grid } = sheet;
      if (grid.length === 0) {
        setUpload(undefined);
        setProblem(`${file.name} holds no values.`);
        return;
      }
      const column = likelyColumn(grid);
      choose({ name: file.name, sheet, column, header: detectHeader(grid, column) });
    } catch (error) {
      setUpload(undefined);
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setReading(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <label className={LABEL}>
        USDOT numbers or MC/MX/FF dockets (one per line, or separated by commas or spaces)
        <textarea
          className={`${INPUT} h-36 font-mono`}
          value={text}
          spellCheck={false}
          onChange={(event) => {
            setUpload(undefined);
            onText(event.target.value);
          }}
        />
      </label>
      <label className={LABEL}>
        Or upload a CSV or Excel (.xlsx) file
        <input
          type="file"
          accept=".csv,.tsv,.txt,.xlsx,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          onChange={(event) => void onFile(event)}
          aria-describedby={problem ? `${id}-problem` : undefined}
        />
      </label>
      {reading ? (
        <p role="status" className={MUTED}>
          Reading the file…
        </p>
      ) : null}
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="text-sm text-red-800 dark:text-red-300">
          {problem}
        </p>
      ) : null}
      {upload ? <ColumnPicker upload={upload} onChange={choose} /> : null}
    </div>
  );
}

function ColumnPicker({ upload, onChange }: { upload: Upload; onChange: (next: Upload) => void }) {
  const { grid } = upload.sheet;
  const previews = columnPreviews(grid, upload.header);
  return (
    <fieldset className="rounded-md border border-neutral-300 p-3 dark:border-neutral-700">
      <legend className="px-1 text-sm font-medium">
        Which column of {upload.name} holds the identifiers?
      </legend>
      <p className={MUTED}>
        {formatCount(grid.length)} rows with values, {formatCount(columnCount(grid))}{' '}
        {columnCount(grid) === 1 ? 'column' : 'columns'}. Entries are named by their row in the
        file.
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        {previews.map((preview) => (
          <label
            key={preview.index}
            className="flex max-w-56 min-w-40 cursor-pointer gap-2 rounded-md border border-neutral-300 p-2 text-sm has-checked:border-neutral-900 has-checked:bg-neutral-50 dark:border-neutral-700 dark:has-checked:border-neutral-100 dark:has-checked:bg-neutral-900"
          >
            <input
              type="radio"
              name={`column-${upload.name}`}
              checked={upload.column === preview.index}
              onChange={() => onChange({ ...upload, column: preview.index })}
            />
            <span className="min-w-0">
              <span className="block font-medium">{preview.label}</span>
              <span className="block truncate font-mono text-xs text-neutral-600 dark:text-neutral-400">
                {preview.sample.length ? preview.sample.join(', ') : 'empty'}
                {preview.filled > preview.sample.length ? ', …' : ''}
              </span>
            </span>
          </label>
        ))}
      </div>
      <label className="mt-2 flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={upload.header}
          onChange={(event) => onChange({ ...upload, header: event.target.checked })}
        />
        The first row is a header
      </label>
    </fieldset>
  );
}

/** `text` with the first case-insensitive occurrence of `term` marked. */
export function HighlightMatch({ text, term }: { text: string; term: string }) {
  const needle = term.trim().toLowerCase();
  const at = needle === '' ? -1 : text.toLowerCase().indexOf(needle);
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark className="rounded-sm bg-amber-200 font-semibold text-inherit dark:bg-amber-500/40">
        {text.slice(at, at + needle.length)}
      </mark>
      {text.slice(at + needle.length)}
    </>
  );
}

/** The id of the inbox's list region, the target of "Skip to changes". */
export const INBOX_CHANGES_ID = 'inbox-changes';

/**
 * The inbox's first Tab stop: jumps over bulk watch, the filters and the actions to the list of
 * changes (the focus moves there; the URL keeps its filters). Shown when focused.
 */
export function SkipToChanges() {
  return (
    <a
      href={`#${INBOX_CHANGES_ID}`}
      className="sr-only rounded-md bg-neutral-900 text-sm font-medium text-white focus:not-sr-only focus:mb-3 focus:inline-block focus:px-3 focus:py-2 dark:bg-neutral-100 dark:text-neutral-900"
      onClick={(event) => {
        const target = document.getElementById(INBOX_CHANGES_ID);
        if (!target) return;
        event.preventDefault();
        target.focus();
        target.scrollIntoView({ block: 'start' });
      }}
    >
      Skip to changes
    </a>
  );
}

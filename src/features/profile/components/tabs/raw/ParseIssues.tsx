import type { ParseIssue } from '../../../../../lib/service/index.ts';

/** What the parser could not read, so nothing is silently lost. */
export function ParseIssues({ issues }: { issues: readonly ParseIssue[] }) {
  if (issues.length === 0) {
    return (
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        The parser read every field of this profile.
      </p>
    );
  }
  return (
    <section aria-labelledby="raw-issues" className="text-sm">
      <h3 id="raw-issues" className="font-semibold">
        {issues.length === 1
          ? '1 value could not be read'
          : `${issues.length} values could not be read`}
      </h3>
      <ul className="mt-1 list-disc pl-5">
        {issues.map((issue, index) => (
          <li key={`${issue.path}-${index}`}>
            <code>{issue.path || '(root)'}</code>: {issue.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

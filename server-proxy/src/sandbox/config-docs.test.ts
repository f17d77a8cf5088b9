/** docs/sandbox.md's table and README's sandbox rows name exactly the variables the schema reads. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SANDBOX_ENV_VARIABLES } from './config.ts';

const ROOT = new URL('../../../', import.meta.url);

/** Backticked names in the first cell of the table rows (of `usedBy`'s rows, when given). */
function documentedVariables(file: string, usedBy?: string): string[] {
  const names = new Set<string>();
  for (const line of readFileSync(new URL(file, ROOT), 'utf8').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (!line.startsWith('|') || cells.length < 3) continue;
    if (usedBy !== undefined && !(cells[2] ?? '').split(/,\s*/).includes(usedBy)) continue;
    for (const [, name] of (cells[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(name ?? '');
  }
  return [...names].sort();
}

describe('the documented sandbox environment', () => {
  it('docs/sandbox.md lists every variable the schema reads, and no other', () => {
    const documented = documentedVariables('docs/sandbox.md').filter(
      (name) => name.startsWith('SANDBOX_') || name === 'DATA_DIR',
    );
    expect(documented).toEqual([...SANDBOX_ENV_VARIABLES].sort());
  });

  it("README's table lists the same variables for the sandbox", () => {
    expect(documentedVariables('README.md', 'sandbox')).toEqual([...SANDBOX_ENV_VARIABLES].sort());
  });
});

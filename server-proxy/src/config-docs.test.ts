/**
 * The documented environment is the schema's: docs/proxy.md's Configuration table and README's
 * "Environment variables" table name exactly the variables PROXY_ENV_SCHEMA reads.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROXY_ENV_VARIABLES, loadConfig } from './config.ts';

const ROOT = new URL('../../', import.meta.url);

/** Backticked variable names in the first cell of the table rows of one markdown section. */
function documentedVariables(file: string, heading: string, usedBy?: string): string[] {
  const text = readFileSync(new URL(file, ROOT), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `${file} has the heading "${heading}"`).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n#', start + heading.length + 2);
  const section = text.slice(start, end < 0 ? undefined : end);
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (!line.startsWith('|') || cells.length < 3) continue;
    if (usedBy !== undefined && !(cells[2] ?? '').split(/,\s*/).includes(usedBy)) continue;
    for (const [, name] of (cells[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(name ?? '');
  }
  return [...names].sort();
}

describe('the documented proxy environment', () => {
  it('docs/proxy.md lists every variable the schema reads, and no other', () => {
    expect(documentedVariables('docs/proxy.md', '## Configuration')).toEqual(
      [...PROXY_ENV_VARIABLES].sort(),
    );
  });

  it("README's table lists the same variables for the proxy", () => {
    expect(documentedVariables('README.md', '## Environment variables', 'proxy')).toEqual(
      [...PROXY_ENV_VARIABLES].sort(),
    );
  });

  it('reads nothing outside the documented list', () => {
    // A variable the schema does not know is ignored, not an error: the table is the whole surface.
    expect(() => loadConfig({ SOMETHING_ELSE: 'x' })).not.toThrow();
  });
});

/**
 * Search over a JSON value without rendering it: walks the value once and returns the paths of the
 * matching nodes and of their ancestors (so the tree can show only those), stopping at `limit`
 * matches to stay fast on a 13 MB profile.
 */

/** A node's path: JSON-pointer style, "" for the root, "/inspection_history/0/report_number". */
export function childPath(parent: string, key: string | number): string {
  return `${parent}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

export interface JsonSearchResult {
  /** paths to render: every match and its ancestors */
  visible: Set<string>;
  /** paths that matched themselves (by key or value) */
  matched: Set<string>;
  truncated: boolean;
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null;
}

function entriesOf(value: Record<string, unknown> | unknown[]): [string | number, unknown][] {
  return Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
}

function addAncestors(path: string, visible: Set<string>): void {
  let current = path;
  while (current && !visible.has(current)) {
    visible.add(current);
    current = current.slice(0, current.lastIndexOf('/'));
  }
  visible.add('');
}

/** Nodes whose key (object keys only) or primitive value contains `query`, case-insensitive. */
export function searchJson(root: unknown, query: string, limit = 500): JsonSearchResult {
  const needle = query.trim().toLowerCase();
  const result: JsonSearchResult = { visible: new Set(), matched: new Set(), truncated: false };
  if (!needle) return result;
  const stack: { key: string | number | undefined; value: unknown; path: string }[] = [
    { key: undefined, value: root, path: '' },
  ];
  while (stack.length) {
    const node = stack.pop();
    if (!node) break;
    const keyHit = typeof node.key === 'string' && node.key.toLowerCase().includes(needle);
    const valueHit = !isContainer(node.value) && String(node.value).toLowerCase().includes(needle);
    if (keyHit || valueHit) {
      if (result.matched.size >= limit) {
        result.truncated = true;
        break;
      }
      result.matched.add(node.path);
      addAncestors(node.path, result.visible);
    }
    if (isContainer(node.value)) {
      const entries = entriesOf(node.value);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [key, value] = entries[index] ?? [0, undefined];
        stack.push({ key, value, path: childPath(node.path, key) });
      }
    }
  }
  return result;
}

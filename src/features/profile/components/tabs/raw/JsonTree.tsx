import { createContext, use, useState } from 'react';
import { childPath, type JsonSearchResult } from './json-search.ts';

/** Children rendered per container before a "show more" button. */
const PAGE_SIZE = 50;

interface TreeSettings {
  /** containers start expanded (expand all) or collapsed */
  expanded: boolean;
  /** when searching: only these paths are rendered, and they start expanded */
  search: JsonSearchResult | undefined;
}

const TreeContext = createContext<TreeSettings>({ expanded: false, search: undefined });

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function childEntries(value: Container): [string | number, unknown][] {
  return Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
}

function summary(value: Container): string {
  return Array.isArray(value) ? `[${value.length}]` : `{${Object.keys(value).length}}`;
}

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    return <span className="text-emerald-800 dark:text-emerald-300">"{value}"</span>;
  }
  const tone =
    value === null ? 'text-neutral-500 dark:text-neutral-400' : 'text-sky-800 dark:text-sky-300';
  return <span className={tone}>{String(value)}</span>;
}

function KeyLabel({ name, matched }: { name: string | number | undefined; matched: boolean }) {
  if (name === undefined) return null;
  const mark = matched ? 'rounded bg-amber-200 px-0.5 dark:bg-amber-700/60' : '';
  return <span className={`text-purple-800 dark:text-purple-300 ${mark}`}>{name}: </span>;
}

interface NodeProps {
  name: string | number | undefined;
  value: unknown;
  path: string;
}

function Children({ value, path }: { value: Container; path: string }) {
  const { search } = use(TreeContext);
  const [shown, setShown] = useState(PAGE_SIZE);
  const all = childEntries(value).map(([key, child]) => ({
    key,
    child,
    path: childPath(path, key),
  }));
  const entries = search ? all.filter((entry) => search.visible.has(entry.path)) : all;
  const rest = entries.length - shown;
  return (
    <ul className="ml-4 border-l border-neutral-200 pl-2 dark:border-neutral-800">
      {entries.slice(0, shown).map((entry) => (
        <li key={entry.path}>
          <JsonNode name={entry.key} value={entry.child} path={entry.path} />
        </li>
      ))}
      {rest > 0 && (
        <li>
          <button
            type="button"
            onClick={() => setShown((count) => count + PAGE_SIZE)}
            className="text-sky-800 underline dark:text-sky-300"
          >
            Show {Math.min(rest, PAGE_SIZE)} more of {rest}
          </button>
        </li>
      )}
    </ul>
  );
}

function ContainerNode({ name, value, path }: NodeProps & { value: Container }) {
  const { expanded, search } = use(TreeContext);
  const [open, setOpen] = useState(expanded || search !== undefined);
  const label = name === undefined ? 'root' : String(name);
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="rounded text-left hover:bg-neutral-100 dark:hover:bg-neutral-800"
      >
        <span aria-hidden="true" className="inline-block w-4">
          {open ? '▾' : '▸'}
        </span>
        <KeyLabel name={label} matched={search?.matched.has(path) ?? false} />
        <span className="text-neutral-600 dark:text-neutral-400">{summary(value)}</span>
      </button>
      {open && <Children value={value} path={path} />}
    </>
  );
}

/** One node; containers render their children only once opened. */
function JsonNode({ name, value, path }: NodeProps) {
  const { search } = use(TreeContext);
  if (isContainer(value)) return <ContainerNode name={name} value={value} path={path} />;
  return (
    <span className={search?.matched.has(path) ? 'rounded bg-amber-100 dark:bg-amber-900/50' : ''}>
      <span aria-hidden="true" className="inline-block w-4" />
      <KeyLabel name={name} matched={false} />
      <Scalar value={value} />
    </span>
  );
}

interface JsonTreeProps extends TreeSettings {
  value: unknown;
}

/** A collapsible JSON tree; remount it (change its key) to apply a new `expanded` default. */
export function JsonTree({ value, expanded, search }: JsonTreeProps) {
  return (
    <TreeContext value={{ expanded, search }}>
      <div className="font-mono text-xs leading-6 break-all">
        <JsonNode name={undefined} value={value} path="" />
      </div>
    </TreeContext>
  );
}

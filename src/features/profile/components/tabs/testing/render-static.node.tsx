/**
 * Test helper: renders a profile tab to static markup (react-dom/server) inside a memory router and
 * returns its visible text. Runs in the node environment, where the sandbox dataset loads.
 */
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&nbsp;': ' ',
};

/** The markup and its text (tags removed, entities decoded, whitespace collapsed). */
export function renderStatic(element: ReactElement): { html: string; text: string } {
  const html = renderToStaticMarkup(<MemoryRouter>{element}</MemoryRouter>);
  const text = html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z0-9#]+;/gi, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ');
  return { html, text };
}

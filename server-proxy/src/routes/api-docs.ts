/**
 * GET /api/docs: the OpenAPI document (openapi.ts) as one plain server-rendered page: no script and
 * no inline style, so the proxy's CSP holds as it is (the login page is made the same way), with
 * the browser's own styles in light and dark. Headings per group and route, a table of parameters,
 * the body and answers as JSON Schema. docs/api.md, "Contracts".
 */
import type { FastifyInstance } from 'fastify';
import { apiDocsRoute } from '../../../src/lib/api/reference-contract.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { OpenApiDocument } from './openapi.ts';

type Json = Record<string, unknown>;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** `code` spans for text in backticks, the rest escaped. */
function prose(text: string): string {
  return text
    .split('`')
    .map((part, i) => (i % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part)))
    .join('');
}

function asJson(value: unknown): string {
  return `<pre><code>${escapeHtml(JSON.stringify(value, null, 2))}</code></pre>`;
}

function anchorOf(method: string, path: string): string {
  return `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

function parametersTable(parameters: Json[]): string {
  const rows = parameters.map((parameter) => {
    const schema = (parameter.schema ?? {}) as Json;
    const type = [schema.type, schema.enum ? `one of ${(schema.enum as unknown[]).join(', ')}` : '']
      .filter(Boolean)
      .join('; ');
    return `<tr><th scope="row"><code>${escapeHtml(String(parameter.name))}</code></th><td>${escapeHtml(String(parameter.in))}</td><td>${parameter.required ? 'yes' : 'no'}</td><td>${escapeHtml(type)}</td><td>${prose(String(parameter.description ?? ''))}</td></tr>`;
  });
  return `<table><caption>Parameters</caption><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Required</th><th scope="col">Type</th><th scope="col">Meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function contentOf(content: unknown): string {
  if (typeof content !== 'object' || content === null) return '';
  return Object.entries(content as Record<string, Json>)
    .map(([type, body]) => `<p>${escapeHtml(type)}</p>${asJson(body.schema ?? {})}`)
    .join('');
}

function operationHtml(method: string, path: string, operation: Json): string {
  const id = anchorOf(method, path);
  const parts = [
    `<section aria-labelledby="${id}"><h3 id="${id}"><code>${method.toUpperCase()} ${escapeHtml(path)}</code></h3>`,
    `<p>${prose(String(operation.summary ?? ''))}</p>`,
  ];
  if (typeof operation.description === 'string') {
    for (const paragraph of operation.description.split('\n\n'))
      parts.push(`<p>${prose(paragraph)}</p>`);
  }
  const parameters = (operation.parameters ?? []) as Json[];
  if (parameters.length > 0) parts.push(parametersTable(parameters));
  const body = operation.requestBody as Json | undefined;
  if (body) parts.push(`<h4>Body</h4>${contentOf(body.content)}`);
  parts.push('<h4>Answers</h4><dl>');
  for (const [status, response] of Object.entries(
    (operation.responses ?? {}) as Record<string, Json>,
  )) {
    parts.push(
      `<dt>${escapeHtml(status)}</dt><dd><p>${prose(String(response.description ?? ''))}</p>${status === 'default' ? '' : contentOf(response.content)}</dd>`,
    );
  }
  parts.push('</dl></section>');
  return parts.join('\n');
}

/** The page of `document`. */
function apiDocsPage(document: OpenApiDocument): string {
  const info = (document.info ?? {}) as Json;
  const byTag = new Map<string, string[]>();
  const contents = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, Json>)) {
      const tag = ((operation.tags ?? []) as string[])[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationHtml(method, path, operation)]);
      contents.set(tag, [
        ...(contents.get(tag) ?? []),
        `<li><a href="#${anchorOf(method, path)}"><code>${method.toUpperCase()} ${escapeHtml(path)}</code></a></li>`,
      ]);
    }
  }
  const tags = [...byTag.keys()];
  const tagId = (tag: string) => `tag-${tag.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const components = (document.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Json;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>API reference · carrier-desk</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
<link rel="icon" href="data:,">
</head>
<body>
<header>
<h1>${escapeHtml(String(info.title ?? 'API'))} reference</h1>
<p>${prose(String(info.description ?? ''))}</p>
<p>The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). A walk-through with curl and a typed client: docs/api.md in the repository.</p>
</header>
<nav aria-label="Routes">
<h2>Routes</h2>
${tags.map((tag) => `<h3><a href="#${tagId(tag)}">${escapeHtml(tag)}</a></h3><ul>${(contents.get(tag) ?? []).join('')}</ul>`).join('\n')}
</nav>
<main>
${tags.map((tag) => `<section aria-labelledby="${tagId(tag)}"><h2 id="${tagId(tag)}">${escapeHtml(tag)}</h2>\n${(byTag.get(tag) ?? []).join('\n')}</section>`).join('\n')}
<section aria-labelledby="schemas"><h2 id="schemas">Named schemas</h2>
${Object.entries(schemas)
  .map(
    ([schemaName, schema]) =>
      `<h3 id="schema-${escapeHtml(schemaName)}">${escapeHtml(schemaName)}</h3>${asJson(schema)}`,
  )
  .join('\n')}
</section>
</main>
</body>
</html>
`;
}

/** The page's stylesheet: a file of our own (the CSP allows styles from 'self', none inline). */
const STYLESHEET_PATH = '/api-docs.css';
const STYLESHEET = `body { font-family: system-ui, sans-serif; line-height: 1.5; max-width: 72rem;
  margin: 0 auto; padding: 1rem; }
h1, h2 { line-height: 1.2; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid currentColor; }
h3 { margin-top: 2rem; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.9em; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; padding: 0.5rem;
  border: 1px solid color-mix(in srgb, currentColor 25%, transparent); border-radius: 4px; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
caption { text-align: start; font-weight: 600; }
th, td { text-align: start; vertical-align: top; padding: 0.25rem 0.5rem; overflow-wrap: anywhere;
  border-bottom: 1px solid color-mix(in srgb, currentColor 25%, transparent); }
dt { font-weight: 600; margin-top: 0.75rem; }
a { color: LinkText; }
nav ul { columns: 20rem; }
a:focus-visible { outline: 2px solid currentColor; outline-offset: 2px; }
`;

/** GET /api/docs: the page of the document `document()` answers (built once, on first request). */
export function registerApiDocsRoute(app: FastifyInstance, document: () => OpenApiDocument): void {
  let page: string | undefined;
  contractRoute(app, apiDocsRoute, {}, async (_request, reply) => {
    page ??= apiDocsPage(document());
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
  });
  // outside /api: a file like the SPA's assets, with nothing in it to protect
  app.get(STYLESHEET_PATH, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/css; charset=utf-8').send(STYLESHEET),
  );
}

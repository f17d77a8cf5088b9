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

export interface LoginPageOptions {
  next: string;
  username?: string;
  error?: string;
}

/**
 * The sign-in page: plain server-rendered HTML (no script, no inline style, so the strict CSP holds)
 * with labelled fields, the right autocomplete hints and the error announced in an alert region.
 */
export function loginPage({ next, username = '', error }: LoginPageOptions): string {
  const alert =
    error === undefined ? '' : `<p role="alert" id="login-error">${escapeHtml(error)}</p>`;
  const described = error === undefined ? '' : ' aria-describedby="login-error"';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Sign in · carrier-desk</title>
</head>
<body>
<main>
<h1>Sign in to carrier-desk</h1>
${alert}
<form method="post" action="/api/local/session">
<input type="hidden" name="next" value="${escapeHtml(next)}">
<p><label for="username">User name</label><br>
<input id="username" name="username" type="text" autocomplete="username" required maxlength="64" value="${escapeHtml(username)}"${described}></p>
<p><label for="password">Password</label><br>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${described}></p>
<p><button type="submit">Sign in</button></p>
</form>
</main>
</body>
</html>
`;
}

/** A path on this host: one leading slash, no backslash, whitespace or control characters. */
const LOCAL_PATH = /^\/(?![/\\])[^\s\\\p{Cc}]*$/u;

/** A local path to return to after sign-in; anything else (other hosts, `//x`, `/\x`) becomes `/`. */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048 || !LOCAL_PATH.test(value)) return '/';
  return value.startsWith('/login') || value.startsWith('/api/') ? '/' : value;
}

/** Any origin works here: only whether the URL stays on it matters. */
const HERE = 'http://kamai.invalid';

/**
 * Where signing in returns to (the `redirect` search parameter of /login): a path inside this app
 * ('/tasks/rating', with its search and hash), or undefined for anything else: another site
 * ('//evil.example', 'https://…', '/\evil.example'), a script URL, or the sign-in screens themselves.
 */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  // Control characters: browsers drop tabs and newlines from URLs, which could turn '/\n/x' into '//x'.
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, HERE);
  } catch {
    return undefined;
  }
  if (url.origin !== HERE || url.pathname === '/login' || url.pathname === '/register') return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

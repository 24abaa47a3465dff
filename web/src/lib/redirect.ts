/** Where the login page sends the user afterwards: only a path of this site, never elsewhere. */
export function safeRedirect(raw: string | null, origin: string = window.location.origin): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  try {
    const url = new URL(raw, origin);
    if (url.origin !== origin) return '/';
    if (url.pathname === '/user/login') return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}

/** The login page, asked to come back to `path` afterwards. */
export function loginFor(path: string): string {
  return `/user/login?redirect=${encodeURIComponent(path)}`;
}

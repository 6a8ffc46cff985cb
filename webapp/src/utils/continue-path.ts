// `?continuar=` comes from the address bar, so it is untrusted: only paths inside the dashboard are
// followed, which rules out open redirects (`//evil.example`, `https://…`, `/\evil`).

const PANEL = '/painel';

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) if (value.charCodeAt(index) < 0x20) return true;
  return false;
}

/** The path to return to after signing in, or null when `raw` is missing or not a dashboard path. */
export function safeContinuePath(raw: string | null | undefined): string | null {
  if (!raw) return null;
  if (raw.includes('\\') || hasControlCharacter(raw)) return null;
  if (raw !== PANEL && !raw.startsWith(`${PANEL}/`) && !raw.startsWith(`${PANEL}?`)) return null;
  // Resolving against a fixed origin normalises `/painel/../x` and must not leave that origin.
  const url = new URL(raw, 'https://balcao.invalid');
  if (url.origin !== 'https://balcao.invalid') return null;
  if (url.pathname !== PANEL && !url.pathname.startsWith(`${PANEL}/`)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

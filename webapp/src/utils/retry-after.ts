/**
 * Seconds to wait from a `Retry-After` header: either delay-seconds or an HTTP date
 * (RFC 9110 §10.2.3). Null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function plural(count: number, singular: string, pluralForm: string): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** A wait in words, rounded up: "45 segundos", "2 minutos", "1 hora". */
export function formatWait(seconds: number): string {
  if (seconds < 60) return plural(Math.max(1, Math.ceil(seconds)), 'segundo', 'segundos');
  if (seconds < 3600) return plural(Math.ceil(seconds / 60), 'minuto', 'minutos');
  return plural(Math.ceil(seconds / 3600), 'hora', 'horas');
}

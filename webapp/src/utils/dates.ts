// Dates from the API are RFC 3339 instants; people read them in their own time zone.

const DATE_TIME = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' });
const DATE = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short' });

/** `"2026-11-02T15:30:00Z"` → `"02/11/2026, 12:30"` in São Paulo; an unreadable value is shown as is. */
export function formatDateTime(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : DATE_TIME.format(date);
}

/** `"2026-11-02T15:30:00Z"` → `"02/11/2026"`; an unreadable value is shown as is. */
export function formatDate(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : DATE.format(date);
}

/** The time zone the server counts payment days in (`paid_on`). */
export const SAO_PAULO = 'America/Sao_Paulo';

// en-CA writes dates as AAAA-MM-DD.
const SP_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: SAO_PAULO,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The São Paulo calendar day of `instant`, `AAAA-MM-DD` (the server's days, wherever the browser is). */
export function saoPauloDay(instant: Date): string {
  return SP_DAY.format(instant);
}

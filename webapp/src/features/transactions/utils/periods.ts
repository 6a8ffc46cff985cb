// The screen's periods are São Paulo calendar days, as the server counts them (`paid_on`), so
// "Hoje" at 23:30 in Recife and the day's totals are the same day wherever the browser is.

import { SAO_PAULO, saoPauloDay } from '@/utils/dates';

// Shared with other screens (`@/utils/dates`); the transactions screen's days are defined here.
export { SAO_PAULO, saoPauloDay };

export type PeriodPreset = 'hoje' | '7-dias' | '30-dias' | 'este-mes' | 'personalizado';

export const PERIOD_LABELS: Readonly<Record<PeriodPreset, string>> = {
  hoje: 'Hoje',
  '7-dias': 'Últimos 7 dias',
  '30-dias': 'Últimos 30 dias',
  'este-mes': 'Este mês',
  personalizado: 'Personalizado',
};

/** `day` moved by `days` (negative: back), on the calendar, `AAAA-MM-DD`. */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number);
  const moved = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + days));
  return moved.toISOString().slice(0, 10);
}

/** The first and last São Paulo day of a preset period ending today; null for "Personalizado". */
export function presetDays(preset: PeriodPreset, now: Date): { from: string; to: string } | null {
  const today = saoPauloDay(now);
  switch (preset) {
    case 'hoje':
      return { from: today, to: today };
    case '7-dias':
      return { from: addDays(today, -6), to: today };
    case '30-dias':
      return { from: addDays(today, -29), to: today };
    case 'este-mes':
      return { from: `${today.slice(0, 8)}01`, to: today };
    case 'personalizado':
      return null;
  }
}

const DAY_MONTH = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', day: '2-digit', month: '2-digit' });
const FULL_DAY = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', dateStyle: 'short' });

/** `2026-11-03` → `03/11`. */
export function shortDay(day: string): string {
  return DAY_MONTH.format(new Date(`${day}T00:00:00Z`));
}

/** `2026-11-03` → `03/11/2026`. */
export function longDay(day: string): string {
  return FULL_DAY.format(new Date(`${day}T00:00:00Z`));
}

const SP_DATE_TIME = new Intl.DateTimeFormat('pt-BR', { timeZone: SAO_PAULO, dateStyle: 'short', timeStyle: 'short' });

/** An instant on São Paulo's clock, `03/11/2026, 10:00` (the clock the days are counted by). */
export function saoPauloDateTime(instant: string): string {
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? instant : SP_DATE_TIME.format(date);
}

const SP_PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: SAO_PAULO,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/** How far São Paulo's clock is from UTC at `instant`, in milliseconds (−3 h today). */
function saoPauloOffset(instant: Date): number {
  const part = (type: string) => Number(SP_PARTS.formatToParts(instant).find((p) => p.type === type)?.value ?? 0);
  const clock = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'));
  const minute = 60_000;
  return clock - Math.floor(instant.getTime() / minute) * minute;
}

/** A `datetime-local` value read on São Paulo's clock, as an RFC 3339 instant; null if unreadable. */
export function saoPauloInstant(local: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local.trim());
  if (match === null) return null;
  const [, year, month, day, hour, minute] = match.map(Number);
  const asUtc = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0);
  return new Date(asUtc - saoPauloOffset(new Date(asUtc))).toISOString();
}

// What "Modo balcão" shows, as plain functions of the payments and the clock, so the screen's
// rules (which payments, in what order, how a name and a time read, which card is new) are tested
// without a browser.

import { saoPauloDay } from '@/utils/dates';
import { formatCentavos } from '@/utils/money';

import type { CounterPayment as Payment } from '../api/counter';

/** The screen always shows at least this much of the recent past. */
export const WINDOW_MS = 30 * 60_000;
/** How long a payment that arrived while the screen was open stays highlighted. */
export const HIGHLIGHT_MS = 10_000;

/**
 * Where the list starts: 30 minutes ago, or when the screen was opened if that is earlier — a
 * payment seen on this screen never leaves it while the screen stays open.
 */
export function windowStart(openedAt: number, now: number): number {
  return Math.min(openedAt, now - WINDOW_MS);
}

/**
 * The first São Paulo day the list asks the server for (`de`): the day the window starts on. The
 * server filters by day; the minutes are cut here, by [`inWindow`].
 */
export function firstDay(start: number): string {
  return saoPauloDay(new Date(start));
}

/** Newest payment first, by instant (not as text: RFC 3339 allows any offset), then by reference. */
export function newestFirst(payments: readonly Payment[]): Payment[] {
  return [...payments].sort(
    (a, b) => Date.parse(b.paidAt) - Date.parse(a.paidAt) || b.reference.localeCompare(a.reference),
  );
}

/** The payments paid from `start` on, newest first. */
export function inWindow(payments: readonly Payment[], start: number): Payment[] {
  return newestFirst(payments.filter((payment) => Date.parse(payment.paidAt) >= start));
}

function capitalised(word: string): string {
  const lower = word.toLocaleLowerCase('pt-BR');
  return lower.charAt(0).toLocaleUpperCase('pt-BR') + lower.slice(1);
}

/**
 * The payer's name as the cashier reads it aloud: the first name and the initial of the last
 * ("BEATRIZ LIMA SOUZA" → "Beatriz S."), enough to match the person at the counter without
 * showing the queue their whole name. Null when the bank sent no name (or the role sees none).
 */
export function shortName(full: string | null | undefined): string | null {
  const words = (full ?? '').trim().split(/\s+/).filter(Boolean);
  const first = words[0];
  if (first === undefined) return null;
  const last = words.length > 1 ? words[words.length - 1] : undefined;
  const initial = last === undefined ? '' : ` ${last.charAt(0).toLocaleUpperCase('pt-BR')}.`;
  return `${capitalised(first)}${initial}`;
}

const CLOCK = new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit' });

/** `"agora"` within the first minute, then `"há 3 min"`, then `"há 1 h 5 min"`. */
export function howLongAgo(paidAt: string, now: number): string {
  const minutes = Math.floor((now - Date.parse(paidAt)) / 60_000);
  if (minutes < 1) return 'agora';
  if (minutes < 60) return `há ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `há ${hours} h` : `há ${hours} h ${rest} min`;
}

/** The time of day, `hh:mm`, on the device's clock (the counter's). */
export function clockTime(paidAt: string): string {
  return CLOCK.format(new Date(paidAt));
}

/**
 * When each payment was first seen on this screen: `null` for those already there on the first
 * answer (nothing to announce), the time for those that came later. Returns `seen` itself when
 * nothing is new, so a caller's state does not change for nothing.
 */
export function noteArrivals(
  seen: ReadonlyMap<string, number | null>,
  payments: readonly Payment[],
  now: number,
  firstAnswer: boolean,
): ReadonlyMap<string, number | null> {
  const fresh = payments.filter((payment) => !seen.has(payment.reference));
  if (fresh.length === 0) return seen;
  const next = new Map(seen);
  for (const payment of fresh) next.set(payment.reference, firstAnswer ? null : now);
  return next;
}

/** Whether a payment first seen at `seenAt` is still highlighted at `now`. */
export function isHighlighted(seenAt: number | null | undefined, now: number): boolean {
  return seenAt !== null && seenAt !== undefined && now - seenAt < HIGHLIGHT_MS;
}

/** What a screen reader hears when a payment arrives: the amount, its status and who paid. */
export function announcement(payment: Payment): string {
  const amount = formatCentavos(payment.amountCentavos);
  const name = shortName(payment.payer?.name);
  const who = name === null ? '' : `, de ${name}`;
  const said =
    payment.status === 'voided'
      ? `Pagamento de ${amount} anulado${who}`
      : `Pagamento de ${amount} recebido agora${who}`;
  // A short name already ends with its initial's period.
  return said.endsWith('.') ? said : `${said}.`;
}

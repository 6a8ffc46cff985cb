import { describe, expect, it } from 'vitest';

import type { CounterPayment as Payment } from '../api/counter';
import {
  HIGHLIGHT_MS,
  WINDOW_MS,
  announcement,
  firstDay,
  howLongAgo,
  inWindow,
  isHighlighted,
  noteArrivals,
  shortName,
  windowStart,
} from './counter-view';

const NOW = Date.parse('2026-11-02T15:30:00Z');
const MINUTE = 60_000;

function payment(reference: string, paidAt: string, fields: Partial<Payment> = {}): Payment {
  return {
    reference,
    amountCentavos: 1250,
    refundedCentavos: 0,
    paidAt,
    qrcodeId: 'q1',
    status: 'received',
    ...fields,
  };
}

describe("the payer's name as the cashier reads it", () => {
  it('is the first name and the initial of the last, whatever case the bank sent', () => {
    expect(shortName('BEATRIZ LIMA SOUZA')).toBe('Beatriz S.');
    expect(shortName('joão da silva')).toBe('João S.');
    expect(shortName('  Ana   Paula  ')).toBe('Ana P.');
  });

  it('is the one name when there is only one, and nothing when the bank sent none', () => {
    expect(shortName('Madonna')).toBe('Madonna');
    expect(shortName('')).toBeNull();
    expect(shortName('   ')).toBeNull();
    expect(shortName(null)).toBeNull();
    expect(shortName(undefined)).toBeNull();
  });
});

describe('how long ago a payment arrived', () => {
  it('says "agora" in the first minute, then minutes, then hours and minutes', () => {
    expect(howLongAgo('2026-11-02T15:30:00Z', NOW)).toBe('agora');
    expect(howLongAgo('2026-11-02T15:29:01Z', NOW)).toBe('agora');
    expect(howLongAgo('2026-11-02T15:29:00Z', NOW)).toBe('há 1 min');
    expect(howLongAgo('2026-11-02T15:27:00Z', NOW)).toBe('há 3 min');
    expect(howLongAgo('2026-11-02T14:30:00Z', NOW)).toBe('há 1 h');
    expect(howLongAgo('2026-11-02T14:25:00Z', NOW)).toBe('há 1 h 5 min');
  });

  it('says "agora" for a time a little ahead of the device clock (a bank clock runs fast)', () => {
    expect(howLongAgo('2026-11-02T15:30:20Z', NOW)).toBe('agora');
  });
});

describe('which payments the screen lists', () => {
  it('lists the last 30 minutes, newest first by instant whatever the offset', () => {
    const listed = inWindow(
      [
        payment('E-old', '2026-11-02T14:59:59Z'),
        payment('E-a', '2026-11-02T15:10:00Z'),
        payment('E-b', '2026-11-02T12:20:00-03:00'),
        payment('E-edge', '2026-11-02T15:00:00Z'),
      ],
      windowStart(NOW, NOW),
    );
    expect(listed.map((p) => p.reference)).toEqual(['E-b', 'E-a', 'E-edge']);
  });

  it('keeps everything since the screen opened once that is longer ago than 30 minutes', () => {
    const openedAt = NOW - 45 * MINUTE;
    expect(windowStart(openedAt, NOW)).toBe(openedAt);
    expect(windowStart(NOW - 5 * MINUTE, NOW)).toBe(NOW - WINDOW_MS);
    const listed = inWindow([payment('E-40', '2026-11-02T14:50:00Z')], windowStart(openedAt, NOW));
    expect(listed).toHaveLength(1);
  });

  it('asks the server from the São Paulo day the window starts on', () => {
    // 00:10 in São Paulo on the 3rd: the window starts at 23:40 on the 2nd.
    expect(firstDay(Date.parse('2026-11-03T03:10:00Z') - WINDOW_MS)).toBe('2026-11-02');
    expect(firstDay(NOW - WINDOW_MS)).toBe('2026-11-02');
  });
});

describe('a new arrival', () => {
  it('is not what the first answer already held, but what a later answer brings', () => {
    const first = noteArrivals(new Map(), [payment('E1', '2026-11-02T15:20:00Z')], NOW, true);
    expect(first.get('E1')).toBeNull();
    const later = noteArrivals(
      first,
      [payment('E2', '2026-11-02T15:31:00Z'), payment('E1', '2026-11-02T15:20:00Z')],
      NOW + MINUTE,
      false,
    );
    expect(later.get('E1')).toBeNull();
    expect(later.get('E2')).toBe(NOW + MINUTE);
  });

  it('changes nothing when an answer brings nothing new', () => {
    const seen = noteArrivals(new Map(), [payment('E1', '2026-11-02T15:20:00Z')], NOW, true);
    expect(noteArrivals(seen, [payment('E1', '2026-11-02T15:20:00Z', { status: 'voided' })], NOW, false)).toBe(seen);
  });

  it('is highlighted for some seconds, then no longer; what was there at first never is', () => {
    expect(isHighlighted(NOW, NOW)).toBe(true);
    expect(isHighlighted(NOW, NOW + HIGHLIGHT_MS - 1)).toBe(true);
    expect(isHighlighted(NOW, NOW + HIGHLIGHT_MS)).toBe(false);
    expect(isHighlighted(null, NOW)).toBe(false);
    expect(isHighlighted(undefined, NOW)).toBe(false);
  });

  it('is announced with its amount, status and the short name of who paid', () => {
    const paid = payment('E1', '2026-11-02T15:30:00Z', {
      amountCentavos: 4590,
      payer: { name: 'CARLOS ALBERTO NUNES' },
    });
    expect(announcement(paid)).toBe('Pagamento de R$ 45,90 recebido agora, de Carlos N.');
    expect(announcement({ ...paid, payer: undefined, status: 'voided' })).toBe('Pagamento de R$ 45,90 anulado.');
  });
});

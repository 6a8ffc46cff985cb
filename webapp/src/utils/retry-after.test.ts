import { describe, expect, it } from 'vitest';

import { formatWait, parseRetryAfter } from './retry-after';

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', 0)).toBe(120);
  });

  it('reads an HTTP date as the seconds left until it', () => {
    const now = Date.UTC(2026, 10, 2, 12, 0, 0);
    expect(parseRetryAfter('Mon, 02 Nov 2026 12:01:30 GMT', now)).toBe(90);
  });

  it('gives null for a missing or unreadable header', () => {
    expect(parseRetryAfter(null, 0)).toBeNull();
    expect(parseRetryAfter('logo', 0)).toBeNull();
  });
});

describe('formatWait', () => {
  it('says seconds, minutes or hours, rounding up, with the right plural', () => {
    expect([1, 45, 60, 61, 120, 3599, 3600, 7201].map(formatWait)).toEqual([
      '1 segundo',
      '45 segundos',
      '1 minuto',
      '2 minutos',
      '2 minutos',
      '60 minutos',
      '1 hora',
      '3 horas',
    ]);
  });
});

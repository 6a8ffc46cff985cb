import { describe, expect, it } from 'vitest';

import { formatCentavos, isBrazilianAmount } from './money';

describe('formatCentavos', () => {
  it('writes reais and centavos with a comma', () => {
    expect(formatCentavos(1250)).toBe('R$ 12,50');
  });

  it('pads small amounts', () => {
    expect(formatCentavos(0)).toBe('R$ 0,00');
    expect(formatCentavos(5)).toBe('R$ 0,05');
    expect(formatCentavos(10)).toBe('R$ 0,10');
  });

  it('groups thousands with dots', () => {
    expect(formatCentavos(123_456_789)).toBe('R$ 1.234.567,89');
    expect(formatCentavos(100_000)).toBe('R$ 1.000,00');
  });

  it('is exact where floating point is not (19,99 and the largest amounts)', () => {
    expect(formatCentavos(1999)).toBe('R$ 19,99');
    expect(formatCentavos(999_999_999_999)).toBe('R$ 9.999.999.999,99');
  });

  it('keeps the sign of a negative amount', () => {
    expect(formatCentavos(-1250)).toBe('-R$ 12,50');
  });

  it('refuses a value that is not a whole number of centavos', () => {
    expect(() => formatCentavos(12.5)).toThrow(RangeError);
  });
});

describe('isBrazilianAmount', () => {
  it.each(['12,50', '12', '0,5', '1.234,56', '1234,56', ' 7,00 '])('accepts %s', (value) => {
    expect(isBrazilianAmount(value)).toBe(true);
  });

  it.each(['12.50', '12,505', 'R$ 12', '1,234.56', '-3', 'doze', ','])('refuses %s', (value) => {
    expect(isBrazilianAmount(value)).toBe(false);
  });
});

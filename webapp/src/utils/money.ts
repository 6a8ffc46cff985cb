// Money is integer centavos end to end. Formatting works on the digits, never on a float, so
// 1999 is always "R$ 19,99" (and 10 is "R$ 0,10"), whatever floating point would make of 19.99.

/** `1250` → `"R$ 12,50"`; `123456789` → `"R$ 1.234.567,89"`; negative amounts keep their sign. */
export function formatCentavos(centavos: number): string {
  if (!Number.isSafeInteger(centavos)) throw new RangeError(`Valor em centavos inválido: ${centavos}`);
  const digits = String(Math.abs(centavos)).padStart(3, '0');
  const reais = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const cents = digits.slice(-2);
  return `${centavos < 0 ? '-' : ''}R$ ${reais},${cents}`;
}

/**
 * An amount as people type it in Brazil: `12,50`, `12`, `1.234,5`, `1234,56` (a comma for the
 * centavos, dots optional between thousands). The server parses it; this only catches typos early.
 */
export function isBrazilianAmount(value: string): boolean {
  return /^(\d{1,3}(\.\d{3})+|\d+)(,\d{1,2})?$/.test(value.trim());
}

// The server stores phones as `+55DDNNNNNNNNN`; the form shows and sends the national digits.

const COUNTRY_CODE = '+55';

/** `+5511912345678` → `11912345678`; null → empty. */
export function nationalDigits(stored: string | null): string {
  if (stored === null) return '';
  return stored.startsWith(COUNTRY_CODE) ? stored.slice(COUNTRY_CODE.length) : stored.replace(/\D/g, '');
}

/** A phone with its area code has 10 (landline) or 11 (mobile) digits. */
export function isCompletePhone(digits: string): boolean {
  return /^\d{10,11}$/.test(digits);
}

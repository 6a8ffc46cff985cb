// Apart from the key picker, so a screen that only names keys (the QR code list's filter, the keys
// screen) does not download the picker's form rules and Zod with it.

import { applyMask } from '@/lib/masks';
import type { KeyChoice } from '@/types/pix-key';

type KeyKind = KeyChoice['kind'];

export const KIND_LABELS: Readonly<Record<KeyKind, string>> = {
  cpf: 'CPF',
  cnpj: 'CNPJ',
  email: 'E-mail',
  phone: 'Celular',
  evp: 'Chave aleatória',
};

/** A key in DICT form as people read it: `52998224725` → `529.982.247-25`, `+5511912345678` → `(11) 91234-5678`. */
export function displayKey(kind: KeyKind, dict: string | null): string {
  if (dict === null) return 'Chave ilegível';
  if (kind === 'cpf' || kind === 'cnpj') return applyMask(kind, dict).masked;
  if (kind === 'phone' && dict.startsWith('+55')) return applyMask('phone', dict.slice(3)).masked;
  return dict;
}

/** How a registered key reads in a list: its label (or kind), the key as people write it, and whether it is the default. */
export function keyChoiceName(key: KeyChoice): string {
  const name = key.label ?? KIND_LABELS[key.kind];
  const shown = key.pixKey === null ? '' : displayKey(key.kind, key.pixKey);
  return `${name}: ${shown}${key.isDefault ? ' (padrão)' : ''}`;
}

/**
 * The kind of a key in DICT form when only the key is known (a code carries its key, not its
 * kind): an e-mail has `@`, a phone starts `+`, a CPF is 11 digits, a CNPJ 14 characters ending
 * in two digits; anything else is a random key.
 */
export function kindOfKey(dict: string): KeyKind {
  if (dict.includes('@')) return 'email';
  if (dict.startsWith('+')) return 'phone';
  if (/^\d{11}$/.test(dict)) return 'cpf';
  if (/^[0-9A-Z]{12}\d{2}$/.test(dict)) return 'cnpj';
  return 'evp';
}

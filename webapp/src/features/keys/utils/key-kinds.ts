import { type MaskKind, applyMask } from '@/lib/masks';

import type { KeyKind } from '../api/keys';

/** The kinds a person can choose in the form: `''` lets the server detect it from what was typed. */
export const KIND_CHOICES = [
  { value: '', label: 'Descobrir pelo que eu digitar' },
  { value: 'cpf', label: 'CPF' },
  { value: 'cnpj', label: 'CNPJ' },
  { value: 'email', label: 'E-mail' },
  { value: 'telefone', label: 'Celular' },
  { value: 'aleatoria', label: 'Chave aleatória' },
] as const;

export type KindChoice = (typeof KIND_CHOICES)[number]['value'];

/** The input mask of a chosen kind (CPF, CNPJ and mobile numbers are typed with one). */
export function maskOf(choice: KindChoice): MaskKind | null {
  if (choice === 'cpf' || choice === 'cnpj') return choice;
  if (choice === 'telefone') return 'phone';
  return null;
}

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

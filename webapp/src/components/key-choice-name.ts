// Apart from the key picker, so a screen that only names keys (the QR code list's filter) does not
// download the picker's form rules and Zod with it.

import type { KeyChoice } from '@/types/pix-key';

const KIND_NAMES: Record<KeyChoice['kind'], string> = {
  cpf: 'CPF',
  cnpj: 'CNPJ',
  email: 'E-mail',
  phone: 'Celular',
  evp: 'Chave aleatória',
};

/** How a registered key reads in the list: its label (or kind), the key, and whether it is the default. */
export function keyChoiceName(key: KeyChoice): string {
  const name = key.label ?? KIND_NAMES[key.kind];
  return `${name}: ${key.pixKey ?? ''}${key.isDefault ? ' (padrão)' : ''}`;
}

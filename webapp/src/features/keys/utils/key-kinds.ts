import { MASK_PRESETS, type MaskKind, applyMask } from '@/lib/masks';

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

/** What a key of a masked kind may hold as typed (its characters and its mask's), and how it reads. */
const KIND_SHAPES: Readonly<Record<MaskKind & ('cpf' | 'cnpj' | 'phone'), { chars: RegExp; notIt: string }>> = {
  cpf: {
    chars: /^[\d.\-\s]*$/,
    notIt: 'Isto não é um CPF: um CPF tem 11 números, como 123.456.789-09. Se a chave é outra, mude o tipo acima.',
  },
  cnpj: {
    chars: /^[\dA-Za-z.\-/\s]*$/,
    notIt:
      'Isto não é um CNPJ: um CNPJ tem 14 caracteres, como 12.345.678/0001-95. Se a chave é outra, mude o tipo acima.',
  },
  phone: {
    chars: /^[\d()+\-\s]*$/,
    notIt:
      'Isto não é um celular: digite o DDD e o número, como (11) 91234-5678. Se a chave é outra, mude o tipo acima.',
  },
};

/**
 * Why `text` cannot be a key of the chosen kind, judged by its characters only (an e-mail typed as
 * a CPF); null when it may be (the server checks the rest). What was typed is kept, never dropped.
 */
export function notOfKind(choice: KindChoice, text: string): string | null {
  const mask = maskOf(choice);
  if (mask === null || mask === 'cep') return null;
  const shape = KIND_SHAPES[mask];
  return shape.chars.test(text) ? null : shape.notIt;
}

/** A key of a masked kind as people write it once typed (`52998224725` → `529.982.247-25`); else as it is. */
export function formatTyped(choice: KindChoice, text: string): string {
  const mask = maskOf(choice);
  if (mask === null || notOfKind(choice, text) !== null) return text;
  const bare = mask === 'phone' ? text.replace(/\D/g, '').replace(/^55(?=\d{10,11}$)/, '') : text;
  const masked = applyMask(mask, bare);
  return masked.completed ? masked.masked : text;
}

/** The keyboard a chosen kind is typed with (numbers for CPF, a phone pad for mobiles). */
export function inputModeOf(choice: KindChoice): 'numeric' | 'tel' | 'text' {
  const mask = maskOf(choice);
  return mask === null ? 'text' : MASK_PRESETS[mask].inputMode;
}

/**
 * A key of a masked kind with its mask as far as it is typed (`5299822` → `529.982.2`), for the
 * field to follow the typing; anything that cannot be of the kind, or a mobile typed with its
 * country code (`+55…`, written once typed), stays as it is.
 */
export function maskAsTyped(choice: KindChoice, text: string): string {
  const mask = maskOf(choice);
  if (mask === null || text === '' || notOfKind(choice, text) !== null) return text;
  if (mask === 'phone' && text.trimStart().startsWith('+')) return text;
  return applyMask(mask, text).masked;
}

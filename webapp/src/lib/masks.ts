// Brazilian input masks on top of maska. Tokens: `#` digit, `X` letter or digit, `S` letter,
// `A` letter turned upper-case, `a` letter turned lower-case; `!` escapes the next character
// (maska's own escape), e.g. `!#` is a literal "#".

import { Mask, type MaskInputOptions, type MaskTokens } from 'maska';

export const MASK_TOKENS: MaskTokens = {
  '#': { pattern: /[0-9]/ },
  X: { pattern: /[0-9A-Za-z]/ },
  S: { pattern: /[A-Za-z]/ },
  A: { pattern: /[A-Z]/, transform: (char) => char.toUpperCase() },
  a: { pattern: /[a-z]/, transform: (char) => char.toLowerCase() },
};

export interface MaskPreset {
  /** One mask, or several by length (maska picks the one the input fits). */
  mask: string | string[];
  inputMode: 'numeric' | 'tel' | 'text';
  autoComplete?: string;
  /** Typed letters become upper-case before masking (the alphanumeric CNPJ). */
  upperCase?: boolean;
  placeholder: string;
}

export const MASK_PRESETS = {
  /** Landline `(11) 3456-7890` or mobile `(11) 91234-5678`. */
  phone: {
    mask: ['(##) ####-####', '(##) #####-####'],
    inputMode: 'tel',
    autoComplete: 'tel-national',
    placeholder: '(00) 00000-0000',
  },
  cpf: { mask: '###.###.###-##', inputMode: 'numeric', placeholder: '000.000.000-00' },
  /**
   * From July 2026 the first 12 characters of a CNPJ may be letters (IN RFB 2.229/2024); the two
   * check digits stay numeric. Numeric CNPJs keep fitting the same mask.
   */
  cnpj: { mask: 'XX.XXX.XXX/XXXX-##', inputMode: 'text', upperCase: true, placeholder: '00.000.000/0000-00' },
  cep: { mask: '#####-###', inputMode: 'numeric', autoComplete: 'postal-code', placeholder: '00000-000' },
} as const satisfies Record<string, MaskPreset>;

export type MaskKind = keyof typeof MASK_PRESETS;

/** What a masked field reports on every change. */
export interface MaskedValue {
  masked: string;
  unmasked: string;
  completed: boolean;
}

function maskOptions(preset: MaskPreset) {
  return {
    mask: typeof preset.mask === 'string' ? preset.mask : [...preset.mask],
    tokens: MASK_TOKENS,
    tokensReplace: true,
  };
}

const prepare = (preset: MaskPreset, value: string) => (preset.upperCase ? value.toUpperCase() : value);

/** Options for maska's `MaskInput`, which formats as the user types and keeps the cursor in place. */
export function maskInputOptions(kind: MaskKind, onMaska: (value: MaskedValue) => void): MaskInputOptions {
  const preset: MaskPreset = MASK_PRESETS[kind];
  return { ...maskOptions(preset), preProcess: (value) => prepare(preset, value), onMaska };
}

/** Formats a stored value for display, e.g. `12345678909` → `123.456.789-09`. */
export function applyMask(kind: MaskKind, value: string): MaskedValue {
  const preset: MaskPreset = MASK_PRESETS[kind];
  const mask = new Mask(maskOptions(preset));
  const input = prepare(preset, value);
  return { masked: mask.masked(input), unmasked: mask.unmasked(input), completed: mask.completed(input) };
}

// Per-field checks run before anything is sent; their messages are shown under each field.

export const REQUIRED = 'Campo obrigatório.';
export const INVALID_EMAIL = 'Digite um e-mail válido (ex.: nome@exemplo.com).';
export const WEAK_PASSWORD = 'A senha ainda não atende a todos os itens da lista.';
export const NAME_TOO_LONG = 'Use no máximo 80 caracteres.';

export const MAX_NAME_LENGTH = 80;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(value: string): string | null {
  if (value.trim() === '') return REQUIRED;
  return EMAIL.test(value.trim()) ? null : INVALID_EMAIL;
}

export function checkRequired(value: string): string | null {
  return value.trim() === '' ? REQUIRED : null;
}

export function checkName(value: string): string | null {
  if (value.trim() === '') return REQUIRED;
  return Array.from(value.trim()).length > MAX_NAME_LENGTH ? NAME_TOO_LONG : null;
}

// The checks a field gets before anything is sent, as zod schemas the forms compose (`useApiForm`).
// Each one parses what was typed into what the request takes (trimmed text, null for an empty
// optional field), and its pt-BR message is the one shown under the field.

import { z } from 'zod';

// Zod would probe `new Function` to compile its object parsers; the app's content security policy
// (no 'unsafe-eval') refuses it, and the browser reports each refusal as a policy violation even
// though Zod catches it. The forms are small, so the plain parser is fast enough. The probe runs
// when the first object schema is made, and every module that makes schemas imports this one
// first, so it is set here: Zod stays out of the first download.
z.config({ jitless: true });

export const REQUIRED = 'Campo obrigatório.';
export const INVALID_EMAIL = 'Digite um e-mail válido (ex.: nome@exemplo.com).';
export const WEAK_PASSWORD = 'A senha ainda não atende a todos os itens da lista.';
export const NAME_TOO_LONG = 'Use no máximo 80 caracteres.';

export const MAX_NAME_LENGTH = 80;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Text that must not be blank; sent trimmed. */
export const requiredText = () => z.string().trim().min(1, { error: REQUIRED, abort: true });

/**
 * A password being confirmed: must not be blank, and is sent exactly as typed (spaces are
 * characters of a password like any other).
 */
export const requiredSecret = () => z.string().refine((value) => value.trim() !== '', { error: REQUIRED, abort: true });

/** An e-mail address; sent trimmed. The server still decides whether mail can reach it. */
export const emailAddress = () => requiredText().regex(EMAIL, { error: INVALID_EMAIL, abort: true });

/** A person's name: not blank, at most 80 characters (code points, as the server counts); sent trimmed. */
export const personName = () =>
  requiredText().refine((value) => Array.from(value).length <= MAX_NAME_LENGTH, { error: NAME_TOO_LONG, abort: true });

/** Optional text: sent trimmed, or null when left blank. */
export const optionalText = () =>
  z
    .string()
    .trim()
    .transform((value) => (value === '' ? null : value));

/**
 * A group of checkboxes sharing one name, each with a value of `options`: what react-hook-form
 * reads (a list, a lone value when one is checked, `false` when none) becomes the list of checked
 * values; `empty` is the message when none is checked.
 */
export const checkedValues = <T extends string>(options: readonly [T, ...T[]], empty: string) =>
  z
    .union([z.array(z.string()), z.string(), z.literal(false)])
    .transform((value) => (value === false ? [] : typeof value === 'string' ? [value] : value))
    .pipe(z.array(z.enum(options)).min(1, empty));

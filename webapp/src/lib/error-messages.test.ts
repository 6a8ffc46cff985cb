import { describe, expect, it } from 'vitest';

import { type ApiError, KNOWN_ERROR_CODES } from './api-error';
import { ERROR_MESSAGES, UNEXPECTED_ERROR_MESSAGE, errorMessage } from './error-messages';

const error = (fields: Partial<ApiError>): ApiError => ({
  status: 400,
  code: 'x',
  serverMessage: null,
  retryAfterSeconds: null,
  field: null,
  ...fields,
});

describe('errorMessage', () => {
  it('has one pt-BR message for every documented code', () => {
    for (const code of KNOWN_ERROR_CODES) {
      expect(errorMessage(error({ code }))).toBe(ERROR_MESSAGES[code]);
    }
  });

  it('words wrong-password and user-not-found exactly like invalid-credential', () => {
    expect(ERROR_MESSAGES['wrong-password']).toBe(ERROR_MESSAGES['invalid-credential']);
    expect(ERROR_MESSAGES['user-not-found']).toBe(ERROR_MESSAGES['invalid-credential']);
  });

  it('adds the wait from Retry-After to too-many-requests', () => {
    expect(errorMessage(error({ status: 429, code: 'too-many-requests', retryAfterSeconds: 300 }))).toBe(
      'Muitas tentativas seguidas. Tente de novo em 5 minutos.',
    );
  });

  it('shows the server’s pt-BR message for a 4xx code it does not know', () => {
    expect(errorMessage(error({ code: 'weak-password', serverMessage: 'Senha fraca demais.' }))).toBe(
      'Senha fraca demais.',
    );
  });

  it('never shows a 5xx body, only a generic apology', () => {
    expect(errorMessage(error({ status: 500, code: 'internal', serverMessage: 'panic at db.rs:42' }))).toBe(
      UNEXPECTED_ERROR_MESSAGE,
    );
  });
});

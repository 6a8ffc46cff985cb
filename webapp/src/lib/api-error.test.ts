import { describe, expect, it } from 'vitest';

import { errorField, toApiError } from './api-error';

const NOW = Date.UTC(2026, 10, 2, 12, 0, 0);

describe('toApiError', () => {
  it('reads the code and message of the API’s envelope and the Retry-After header', () => {
    const response = new Response(null, { status: 429, headers: { 'Retry-After': '30' } });
    const data = { error: { code: 'too-many-requests', message: 'Calma.' } };
    expect(toApiError({ status: 429, data }, response, NOW)).toEqual({
      status: 429,
      code: 'too-many-requests',
      serverMessage: 'Calma.',
      retryAfterSeconds: 30,
      field: null,
    });
  });

  it('keeps the field a 422 is about, so the form can show the message under it', () => {
    const data = { error: { code: 'invalid-amount', message: 'Valor inválido.', field: 'amount' } };
    expect(toApiError({ status: 422, data }, undefined, NOW)).toMatchObject({
      code: 'invalid-amount',
      field: 'amount',
    });
  });

  it('keeps every field problem the envelope lists, and drops malformed entries', () => {
    const data = {
      error: {
        code: 'invalid-argument',
        message: 'Informe a chave Pix.',
        field: 'pixKey',
        problems: [
          { field: 'pixKey', message: 'Informe a chave Pix.' },
          { field: 'amount', line: 3, message: 'Valor inválido.' },
          { field: 7, message: 'sem campo' },
          'solto',
        ],
      },
    };
    expect(toApiError({ status: 422, data }, undefined, NOW).problems).toEqual([
      { field: 'pixKey', message: 'Informe a chave Pix.' },
      { field: 'amount', line: 3, message: 'Valor inválido.' },
    ]);
  });

  it('keeps the details an error carries as an object, and nothing else', () => {
    const amostra = { separador: ';', linhas: [['Quando', 'Quanto']] };
    const data = { error: { code: 'statement-unknown-csv-layout', message: 'Colunas?', details: { amostra } } };
    expect(toApiError({ status: 422, data }, undefined, NOW).details).toEqual({ amostra });
    const odd = { error: { code: 'x', message: 'y', details: ['not', 'an', 'object'] } };
    expect(toApiError({ status: 422, data: odd }, undefined, NOW).details).toBeUndefined();
  });

  it('turns a failed fetch into network-request-failed', () => {
    expect(toApiError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, undefined, NOW).code).toBe(
      'network-request-failed',
    );
    expect(toApiError({ status: 'TIMEOUT_ERROR', error: 'timeout' }, undefined, NOW).code).toBe(
      'network-request-failed',
    );
  });

  it('treats a bare 429 from a proxy as too-many-requests', () => {
    expect(
      toApiError({ status: 'PARSING_ERROR', originalStatus: 429, data: '<html>', error: 'x' }, undefined, NOW),
    ).toMatchObject({
      status: 429,
      code: 'too-many-requests',
    });
  });

  it('marks any other body as an unexpected response', () => {
    expect(toApiError({ status: 502, data: 'Bad Gateway' }, undefined, NOW)).toMatchObject({
      status: 502,
      code: 'unexpected-response',
    });
  });
});

describe('errorField', () => {
  const fieldError = (field: string | null) =>
    toApiError({ status: 422, data: { error: { code: 'x', message: 'y', field } } }, undefined, NOW);

  it('names the form field the error is about', () => {
    expect(errorField(fieldError('amount'), ['pixKey', 'amount'])).toBe('amount');
  });

  it('follows an alias for another spelling of the same field', () => {
    expect(errorField(fieldError('merchant_name'), ['merchantName'], { merchant_name: 'merchantName' })).toBe(
      'merchantName',
    );
  });

  it('is null for an error about the whole request or a field the form does not have', () => {
    expect(errorField(fieldError(null), ['amount'])).toBeNull();
    expect(errorField(fieldError('crc'), ['amount'])).toBeNull();
  });
});

import { HttpResponse } from 'msw';

/** The API's error envelope. */
export function apiError(status: number, code: string, message: string, headers?: Record<string, string>) {
  return HttpResponse.json({ error: { code, message } }, { status, ...(headers ? { headers } : {}) });
}

/** A 422 about one request field (`error.field`), as the BR Code and form checks answer. */
export function fieldError(code: string, message: string, field: string, status = 422) {
  return HttpResponse.json({ error: { code, message, field } }, { status });
}

import { HttpResponse } from 'msw';

/** The API's error envelope. */
export function apiError(status: number, code: string, message: string, headers?: Record<string, string>) {
  return HttpResponse.json({ error: { code, message } }, { status, ...(headers ? { headers } : {}) });
}

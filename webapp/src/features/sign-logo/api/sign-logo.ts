// The account's sign logo: `PUT`, `GET` and `DELETE /api/accounts/{accountId}/sign-logo`. The
// upload goes through XMLHttpRequest, the one browser API that reports an upload's progress.

import { env } from '@/config/env';
import { type ApiError, toApiError } from '@/lib/api-error';

const url = (accountId: string) => `${env.apiOrigin}/api/accounts/${encodeURIComponent(accountId)}/sign-logo`;

/** A failed call, carrying the {@link ApiError} the rest of the app reads. */
export class SignLogoFailure extends Error {
  readonly apiError: ApiError;

  constructor(apiError: ApiError) {
    super(apiError.serverMessage ?? apiError.code);
    this.name = 'SignLogoFailure';
    this.apiError = apiError;
  }
}

const noResponse: ApiError = {
  status: null,
  code: 'network-request-failed',
  serverMessage: null,
  retryAfterSeconds: null,
  field: null,
};

/** What a failed call answered, as the rest of the app reads errors. */
async function failure(response: Response): Promise<SignLogoFailure> {
  let data: unknown = undefined;
  try {
    data = await response.json();
  } catch {
    // not the JSON envelope
  }
  return new SignLogoFailure(toApiError({ status: response.status, data }, response, Date.now()));
}

/**
 * Sends `file` as the logo, reporting progress (0 to 1) as the bytes leave. Resolves when stored;
 * rejects with a {@link SignLogoFailure}.
 */
export function uploadSignLogo(
  accountId: string,
  token: string,
  file: Blob,
  onProgress: (fraction: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url(accountId));
    request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve();
        return;
      }
      const headers = new Headers();
      const retryAfter = request.getResponseHeader('Retry-After');
      if (retryAfter !== null) headers.set('Retry-After', retryAfter);
      void failure(new Response(request.responseText || null, { status: request.status, headers })).then(reject);
    };
    request.onerror = () => reject(new SignLogoFailure(noResponse));
    request.onabort = () => reject(new SignLogoFailure(noResponse));
    request.send(file);
  });
}

/**
 * The stored logo as a `data:` URL (the dashboard's CSP allows images from itself and `data:`
 * only), or null when the account has none.
 */
export async function fetchSignLogo(accountId: string, token: string): Promise<string | null> {
  const response = await fetch(url(accountId), { headers: { Authorization: `Bearer ${token}` } });
  if (response.status === 404) return null;
  if (!response.ok) throw await failure(response);
  const blob = await response.blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : null);
    reader.onerror = () => reject(new SignLogoFailure(noResponse));
    reader.readAsDataURL(blob);
  });
}

/** Removes the logo (also when there is none). */
export async function deleteSignLogo(accountId: string, token: string): Promise<void> {
  const response = await fetch(url(accountId), { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) throw await failure(response);
}

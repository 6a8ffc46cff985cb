import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';

import { parseRetryAfter } from '@/utils/retry-after';

/** The error codes the API documents, plus `network-request-failed`, which only the client raises. */
export const KNOWN_ERROR_CODES = [
  'email-already-in-use',
  'wrong-password',
  'invalid-credential',
  'user-not-found',
  'too-many-requests',
  'user-disabled',
  'expired-action-code',
  'network-request-failed',
] as const;

export type KnownErrorCode = (typeof KNOWN_ERROR_CODES)[number];

/** Every failed request ends up as one of these, whatever went wrong. */
export interface ApiError {
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /**
   * The server's `error.code`; `network-request-failed` when no response arrived; `token-expired`
   * when an authenticated call was not sent because the access token is (about to be) expired;
   * `unexpected-response` when the body was not the documented envelope.
   */
  code: string;
  /** The server's pt-BR `error.message`, when it sent one. */
  serverMessage: string | null;
  /** Seconds the server asked us to wait (`Retry-After`), when it said so. */
  retryAfterSeconds: number | null;
}

interface Envelope {
  error: { code: string; message?: unknown };
}

function isEnvelope(data: unknown): data is Envelope {
  if (typeof data !== 'object' || data === null || !('error' in data)) return false;
  const inner: unknown = data.error;
  return typeof inner === 'object' && inner !== null && 'code' in inner && typeof inner.code === 'string';
}

export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    'code' in value &&
    typeof value.code === 'string' &&
    'retryAfterSeconds' in value
  );
}

export function isKnownErrorCode(code: string): code is KnownErrorCode {
  return (KNOWN_ERROR_CODES as readonly string[]).includes(code);
}

/** Turns what `fetchBaseQuery` reports (plus the response, for its headers) into an `ApiError`. */
export function toApiError(error: FetchBaseQueryError, response: Response | undefined, now: number): ApiError {
  const retryAfterSeconds = parseRetryAfter(response?.headers.get('Retry-After') ?? null, now);
  if (error.status === 'FETCH_ERROR' || error.status === 'TIMEOUT_ERROR') {
    return { status: null, code: 'network-request-failed', serverMessage: null, retryAfterSeconds: null };
  }
  if (error.status === 'CUSTOM_ERROR') {
    return { status: null, code: error.error, serverMessage: null, retryAfterSeconds: null };
  }
  const status = error.status === 'PARSING_ERROR' ? error.originalStatus : error.status;
  if (isEnvelope(error.data)) {
    const message = error.data.error.message;
    return {
      status,
      code: error.data.error.code,
      serverMessage: typeof message === 'string' && message.trim() !== '' ? message : null,
      retryAfterSeconds,
    };
  }
  // A proxy or the platform may answer 429 without our envelope; it still means "wait".
  const code = status === 429 ? 'too-many-requests' : 'unexpected-response';
  return { status, code, serverMessage: null, retryAfterSeconds };
}

/** For `catch (error)` blocks around `unwrap()`: anything that is not an `ApiError` is a bug. */
export function asApiError(value: unknown): ApiError {
  if (isApiError(value)) return value;
  throw value;
}

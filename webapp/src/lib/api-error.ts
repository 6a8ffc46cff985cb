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
  'unsupported-photo-type',
  'photo-too-large',
  'member-already-invited',
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
  /**
   * The request field the error is about (`error.field`, e.g. `merchantName` on a 422), so a form
   * can show the message under that input; null when the error is about the request as a whole.
   */
  field: string | null;
  /**
   * Every field problem, when the server found several at once (`error.problems`: each names its
   * field, the batch line when there is one, and a pt-BR message); absent or empty otherwise.
   */
  problems?: readonly FieldProblem[];
  /**
   * What the server added to put the request right (`error.details`), e.g. the first rows of a
   * CSV whose columns the owner must name; absent otherwise. Read it with a type guard.
   */
  details?: Record<string, unknown>;
}

/** One entry of the API error's `problems` list. */
export interface FieldProblem {
  field: string;
  line?: number;
  message: string;
}

interface Envelope {
  error: { code: string; message?: unknown; field?: unknown; problems?: unknown; details?: unknown };
}

function isFieldProblem(value: unknown): value is FieldProblem {
  return (
    typeof value === 'object' &&
    value !== null &&
    'field' in value &&
    typeof value.field === 'string' &&
    'message' in value &&
    typeof value.message === 'string'
  );
}

/** The envelope's `problems`, keeping only well-formed entries. */
function problemsOf(value: unknown): FieldProblem[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isFieldProblem).map((problem) => ({
    field: problem.field,
    ...(typeof problem.line === 'number' ? { line: problem.line } : {}),
    message: problem.message,
  }));
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
    return { status: null, code: 'network-request-failed', serverMessage: null, retryAfterSeconds: null, field: null };
  }
  if (error.status === 'CUSTOM_ERROR') {
    return { status: null, code: error.error, serverMessage: null, retryAfterSeconds: null, field: null };
  }
  const status = error.status === 'PARSING_ERROR' ? error.originalStatus : error.status;
  if (isEnvelope(error.data)) {
    const { message, field } = error.data.error;
    const problems = problemsOf(error.data.error.problems);
    const details: unknown = error.data.error.details;
    return {
      status,
      code: error.data.error.code,
      serverMessage: typeof message === 'string' && message.trim() !== '' ? message : null,
      retryAfterSeconds,
      field: typeof field === 'string' && field !== '' ? field : null,
      ...(problems.length > 0 ? { problems } : {}),
      ...(typeof details === 'object' && details !== null && !Array.isArray(details)
        ? { details: details as Record<string, unknown> }
        : {}),
    };
  }
  // A proxy or the platform may answer 429 without our envelope; it still means "wait".
  const code = status === 429 ? 'too-many-requests' : 'unexpected-response';
  return { status, code, serverMessage: null, retryAfterSeconds, field: null };
}

/** For `catch (error)` blocks around `unwrap()`: anything that is not an `ApiError` is a bug. */
export function asApiError(value: unknown): ApiError {
  if (isApiError(value)) return value;
  throw value;
}

/**
 * Which of a form's `fields` the error is about (`error.field`), so its message goes under that
 * input; `aliases` maps other spellings the server may use (e.g. the BR Code's `merchant_name`).
 */
export function errorField<F extends string>(
  error: ApiError,
  fields: readonly F[],
  aliases: Readonly<Record<string, F>> = {},
): F | null {
  if (error.field === null) return null;
  if ((fields as readonly string[]).includes(error.field)) return error.field as F;
  return aliases[error.field] ?? null;
}

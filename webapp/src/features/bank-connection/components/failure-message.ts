import type { ApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';

export const MANAGE_FORBIDDEN = 'Seu papel nesta conta não permite conectar bancos: o titular e os gerentes conectam.';

/**
 * What to tell the owner about a refused bank call. The bank's own failures (`bank-…`, a 502 or
 * 504 when the bank is down or slow) carry a pt-BR message that says what to do, so it is shown
 * as it is, where other 5xx get the generic apology.
 */
export function bankFailureMessage(error: ApiError): string {
  if (error.code.startsWith('bank-') && error.serverMessage) return error.serverMessage;
  if (isForbidden(error)) return MANAGE_FORBIDDEN;
  if (isNotFound(error)) return WORKSPACE_NOT_FOUND;
  return errorMessage(error);
}

// The one map from error codes to what the user reads. Sign-in never reveals whether an e-mail has an
// account: wrong-password and user-not-found read exactly like invalid-credential.

import { formatWait } from '@/utils/retry-after';

import { type ApiError, type KnownErrorCode, isKnownErrorCode } from './api-error';

const WRONG_CREDENTIALS = 'E-mail ou senha incorretos. Confira os dados e tente novamente.';

export const ERROR_MESSAGES: Readonly<Record<KnownErrorCode, string>> = {
  'email-already-in-use': 'Este e-mail já está em uso. Entre na sua conta ou recupere a senha.',
  'wrong-password': WRONG_CREDENTIALS,
  'invalid-credential': WRONG_CREDENTIALS,
  'user-not-found': WRONG_CREDENTIALS,
  'too-many-requests': 'Muitas tentativas seguidas. Aguarde alguns minutos e tente de novo.',
  'user-disabled': 'Esta conta está desativada. Se você acha que é um engano, fale com a gente.',
  'expired-action-code': 'Este link expirou ou já foi usado.',
  'network-request-failed': 'Não foi possível conectar. Verifique sua internet e tente novamente.',
};

export const UNEXPECTED_ERROR_MESSAGE = 'Algo deu errado do nosso lado. Tente novamente em instantes.';

/** What to tell the user about a failed request. */
export function errorMessage(error: ApiError): string {
  if (error.code === 'too-many-requests' && error.retryAfterSeconds !== null && error.retryAfterSeconds > 0) {
    return `Muitas tentativas seguidas. Tente de novo em ${formatWait(error.retryAfterSeconds)}.`;
  }
  if (isKnownErrorCode(error.code)) return ERROR_MESSAGES[error.code];
  // Other 4xx codes (e.g. a password the server's policy refuses) carry a pt-BR message meant for
  // the user; a 5xx or a malformed answer gets the generic apology.
  if (error.status !== null && error.status < 500 && error.serverMessage) return error.serverMessage;
  return UNEXPECTED_ERROR_MESSAGE;
}

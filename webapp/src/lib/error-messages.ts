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
  'unsupported-photo-type': 'Use uma foto em JPEG, PNG ou WebP.',
  'photo-too-large': 'A foto passa de 1 MB. Escolha uma imagem menor.',
  'member-already-invited': 'Este e-mail já foi convidado para esta conta.',
};

/**
 * Screens of a signed-in person that ask for the password again (change e-mail or password, delete
 * the account): the account is already known there, so saying the password is wrong reveals nothing.
 */
export const WRONG_CURRENT_PASSWORD = 'Senha incorreta. Confira e tente de novo.';

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

/** A 404 on `/api/accounts/{id}/…`: the account is gone, or the person no longer works in it. */
export const WORKSPACE_NOT_FOUND =
  'Esta conta não foi encontrada: talvez você não faça mais parte dela. Escolha outra em “Conta em uso”.';

/** The role in the selected account lacks the right (403 `forbidden`). */
export const isForbidden = (error: ApiError): boolean => error.status === 403 || error.code === 'forbidden';

/** The account in the path is none of the person's (404 `not-found`). */
export const isNotFound = (error: ApiError): boolean => error.status === 404 || error.code === 'not-found';

import { type FakeUser, db, userByUid } from '../db';
import { apiError } from './api-error';

/** The account whose access token the request carries, if any. */
export function bearerUser(request: Request): FakeUser | undefined {
  const token = request.headers.get('Authorization')?.replace(/^Bearer /, '');
  const uid = token === undefined ? undefined : db.accessTokens.get(token);
  return uid === undefined ? undefined : userByUid(uid);
}

/** The 401 every authenticated endpoint answers without a valid token. */
export const unauthorized = () => apiError(401, 'invalid-credential', 'Token inválido.');

export const noContent = () => new Response(null, { status: 204 });

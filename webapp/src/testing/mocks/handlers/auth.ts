// A working fake of the gateway's /api/auth endpoints, per the contract in webapp/README.md.

import { HttpResponse, http } from 'msw';

import { passwordRules } from '@/features/auth/utils/password-rules';

import { type FakeUser, createActionCode, db, issueAccessToken, seedUser, toAuthUser, userByUid } from '../db';
import { apiError } from './api-error';

const WRONG = () => apiError(400, 'invalid-credential', 'E-mail ou senha incorretos.');
const DISABLED = () => apiError(400, 'user-disabled', 'Conta desativada.');

function signInResponse(user: FakeUser) {
  db.refreshCookie = user.uid;
  return HttpResponse.json({
    accessToken: issueAccessToken(user.uid),
    expiresIn: db.tokenLifetimeSeconds,
    user: toAuthUser(user),
  });
}

function bearerUser(request: Request): FakeUser | undefined {
  const token = request.headers.get('Authorization')?.replace(/^Bearer /, '');
  const uid = token === undefined ? undefined : db.accessTokens.get(token);
  return uid === undefined ? undefined : userByUid(uid);
}

export const authHandlers = [
  http.get('/api/auth/password-policy', () => HttpResponse.json(db.passwordPolicy)),

  http.post('/api/auth/signup', async ({ request }) => {
    const body = (await request.json()) as { email: string; password: string; displayName: string };
    if (db.users.has(body.email.toLowerCase())) return apiError(400, 'email-already-in-use', 'E-mail em uso.');
    if (!passwordRules(db.passwordPolicy, body.password).every((rule) => rule.met)) {
      return apiError(400, 'weak-password', 'A senha não atende à política de senhas.');
    }
    const user = seedUser({
      email: body.email,
      password: body.password,
      displayName: body.displayName,
      emailVerified: false,
    });
    return signInResponse(user);
  }),

  http.post('/api/auth/login', async ({ request }) => {
    const body = (await request.json()) as { email: string; password: string };
    const user = db.users.get(body.email.toLowerCase());
    if (user === undefined || user.password !== body.password) return WRONG();
    if (user.disabled) return DISABLED();
    return signInResponse(user);
  }),

  http.post('/api/auth/token', async ({ request }) => {
    const form = new URLSearchParams(await request.text());
    if (form.get('grant_type') !== 'refresh_token') return apiError(400, 'invalid-request', 'grant_type inválido.');
    const user = db.refreshCookie === null ? undefined : userByUid(db.refreshCookie);
    if (user === undefined) return apiError(401, 'invalid-credential', 'Sessão inválida.');
    if (user.disabled) return DISABLED();
    return HttpResponse.json({ accessToken: issueAccessToken(user.uid), expiresIn: db.tokenLifetimeSeconds });
  }),

  http.post('/api/auth/revoke', async ({ request }) => {
    const body = (await request.json()) as { allDevices: boolean };
    const uid = db.refreshCookie;
    db.refreshCookie = null;
    if (body.allDevices && uid !== null) {
      for (const [token, owner] of db.accessTokens) if (owner === uid) db.accessTokens.delete(token);
    }
    return new HttpResponse(null, { status: 204 });
  }),

  http.get('/api/auth/me', ({ request }) => {
    const user = bearerUser(request);
    return user === undefined
      ? apiError(401, 'invalid-credential', 'Token inválido.')
      : HttpResponse.json(toAuthUser(user));
  }),

  http.post('/api/auth/recover', async ({ request }) => {
    const body = (await request.json()) as { email: string };
    const user = db.users.get(body.email.toLowerCase());
    if (user !== undefined) createActionCode(user, 'reset');
    return new HttpResponse(null, { status: 204 });
  }),

  http.post('/api/auth/reset', async ({ request }) => {
    const body = (await request.json()) as { oobCode: string; newPassword: string };
    const code = db.actionCodes.get(body.oobCode);
    const user = code === undefined ? undefined : userByUid(code.uid);
    if (code === undefined || code.used || code.purpose !== 'reset' || user === undefined) {
      return apiError(400, 'expired-action-code', 'Link expirado.');
    }
    code.used = true;
    user.password = body.newPassword;
    return new HttpResponse(null, { status: 204 });
  }),

  http.post('/api/auth/verify-email', async ({ request }) => {
    const body = (await request.json()) as { oobCode: string };
    const code = db.actionCodes.get(body.oobCode);
    const user = code === undefined ? undefined : userByUid(code.uid);
    if (code === undefined || code.used || code.purpose !== 'verify-email' || user === undefined) {
      return apiError(400, 'expired-action-code', 'Link expirado.');
    }
    code.used = true;
    user.emailVerified = true;
    return new HttpResponse(null, { status: 204 });
  }),
];

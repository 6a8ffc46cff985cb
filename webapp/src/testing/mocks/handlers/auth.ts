// A working fake of the gateway's /api/auth endpoints, per the contract in webapp/README.md.

import { HttpResponse, http } from 'msw';

import { passwordRules } from '@/features/auth/utils/password-rules';

import {
  type FakeUser,
  createActionCode,
  db,
  endBrowserSession,
  issueAccessToken,
  seedUser,
  startBrowserSession,
  toAuthUser,
  userByUid,
} from '../db';
import { apiError } from './api-error';
import { bearerUser, noContent, unauthorized } from './bearer';

const WRONG = () => apiError(400, 'invalid-credential', 'E-mail ou senha incorretos.');
const DISABLED = () => apiError(400, 'user-disabled', 'Conta desativada.');

function signInResponse(user: FakeUser) {
  startBrowserSession(user);
  return HttpResponse.json({
    accessToken: issueAccessToken(user.uid),
    expiresIn: db.tokenLifetimeSeconds,
    user: toAuthUser(user),
  });
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
    const session = db.browserSessionId === null ? undefined : db.sessions.get(db.browserSessionId);
    if (session !== undefined) session.lastUsedAt = new Date().toISOString();
    return HttpResponse.json({ accessToken: issueAccessToken(user.uid), expiresIn: db.tokenLifetimeSeconds });
  }),

  http.post('/api/auth/revoke', async ({ request }) => {
    const body = (await request.json()) as { allDevices: boolean };
    const uid = db.refreshCookie;
    endBrowserSession();
    if (body.allDevices && uid !== null) {
      for (const [token, owner] of db.accessTokens) if (owner === uid) db.accessTokens.delete(token);
      for (const [id, session] of db.sessions) if (session.uid === uid) db.sessions.delete(id);
    }
    return noContent();
  }),

  http.get('/api/auth/me', ({ request }) => {
    const user = bearerUser(request);
    return user === undefined ? unauthorized() : HttpResponse.json(toAuthUser(user));
  }),

  http.post('/api/auth/recover', async ({ request }) => {
    const body = (await request.json()) as { email: string };
    const user = db.users.get(body.email.toLowerCase());
    if (user !== undefined) createActionCode(user, 'reset');
    return noContent();
  }),

  http.post('/api/auth/reset/check', async ({ request }) => {
    const body = (await request.json()) as { oobCode: string };
    const code = db.actionCodes.get(body.oobCode);
    if (code === undefined || code.used || code.purpose !== 'reset') {
      return apiError(410, 'expired-action-code', 'Link expirado.');
    }
    return noContent();
  }),

  http.post('/api/auth/reset', async ({ request }) => {
    const body = (await request.json()) as { oobCode: string; newPassword: string };
    const code = db.actionCodes.get(body.oobCode);
    const user = code === undefined ? undefined : userByUid(code.uid);
    if (code === undefined || code.used || code.purpose !== 'reset' || user === undefined) {
      return apiError(410, 'expired-action-code', 'Link expirado.');
    }
    code.used = true;
    user.password = body.newPassword;
    return noContent();
  }),

  // One endpoint for both links: the code says whether it confirms the address or moves the account
  // to a new one (a change of e-mail), as the real server decides.
  http.post('/api/auth/verify-email', async ({ request }) => {
    const body = (await request.json()) as { oobCode: string };
    const code = db.actionCodes.get(body.oobCode);
    const user = code === undefined ? undefined : userByUid(code.uid);
    const purposeFits = code?.purpose === 'verify-email' || code?.purpose === 'change-email';
    if (code === undefined || code.used || !purposeFits || user === undefined) {
      return apiError(410, 'expired-action-code', 'Link expirado.');
    }
    code.used = true;
    if (code.purpose === 'change-email' && code.newEmail !== undefined) {
      db.users.delete(user.email.toLowerCase());
      user.email = code.newEmail;
      db.users.set(user.email.toLowerCase(), user);
    }
    user.emailVerified = true;
    return noContent();
  }),

  http.post('/api/auth/send-verification', ({ request }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    createActionCode(user, 'verify-email');
    return noContent();
  }),

  http.get('/api/auth/sessions', ({ request }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const sessions = [...db.sessions.values()]
      .filter((session) => session.uid === user.uid)
      .map((session) => ({
        id: session.id,
        createdAt: session.createdAt,
        lastUsedAt: session.lastUsedAt,
        userAgent: session.userAgent,
        current: session.id === db.browserSessionId,
      }));
    return HttpResponse.json({ sessions });
  }),

  http.delete('/api/auth/sessions/:id', ({ request, params }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const session = db.sessions.get(String(params.id));
    if (session === undefined || session.uid !== user.uid) return apiError(404, 'not-found', 'Sessão não encontrada.');
    if (session.id === db.browserSessionId) endBrowserSession();
    else db.sessions.delete(session.id);
    return noContent();
  }),
];

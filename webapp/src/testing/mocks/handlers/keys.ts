// A working fake of /api/accounts/{id}/keys: owners and managers manage keys, operators list them;
// the same key twice is 409; a key of another account is 404.

import { HttpResponse, http } from 'msw';

import { type FakePixKey, db, roleIn } from '../db';
import { apiError, fieldError } from './api-error';
import { bearerUser, noContent, unauthorized } from './bearer';
import { FORBIDDEN, NOT_FOUND } from './team';

const keyJson = (key: FakePixKey) => ({ ...key, accountId: undefined });

/** A rough stand-in for the server's engine: digits of CPF/phone, e-mail lower-cased. */
function dictForm(typed: string, kind: string | null): { kind: FakePixKey['kind']; pixKey: string } | null {
  const text = typed.trim();
  const digits = text.replace(/\D/g, '');
  if (kind === 'email' || (kind === null && text.includes('@'))) return { kind: 'email', pixKey: text.toLowerCase() };
  if (kind === 'telefone' || (kind === null && text.startsWith('('))) return { kind: 'phone', pixKey: `+55${digits}` };
  if (kind === 'cnpj' || (kind === null && text.replace(/[./-]/g, '').length === 14))
    return { kind: 'cnpj', pixKey: text.replace(/[./-]/g, '').toUpperCase() };
  if (kind === 'cpf' || (kind === null && digits.length === 11)) return { kind: 'cpf', pixKey: digits };
  if (kind === 'aleatoria') return { kind: 'evp', pixKey: text.toLowerCase() };
  return null;
}

function access(request: Request, accountId: string, manage: boolean): Response | null {
  const user = bearerUser(request);
  if (user === undefined) return unauthorized();
  const role = roleIn(accountId, user.uid);
  if (role === undefined) return NOT_FOUND();
  if (manage && role === 'operator') return FORBIDDEN();
  return null;
}

const active = (accountId: string) =>
  db.pixKeys
    .filter((key) => key.accountId === accountId && key.removedAt === null)
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault));

export const keyHandlers = [
  http.get('/api/accounts/:accountId/keys', ({ request, params }) => {
    const accountId = String(params.accountId);
    const refused = access(request, accountId, false);
    if (refused) return refused;
    return HttpResponse.json({ keys: active(accountId).map(keyJson) });
  }),

  http.post('/api/accounts/:accountId/keys', async ({ request, params }) => {
    const accountId = String(params.accountId);
    const refused = access(request, accountId, true);
    if (refused) return refused;
    const body = (await request.json()) as {
      pixKey: string;
      keyKind: string | null;
      holderName: string;
      label: string | null;
      makeDefault: boolean;
    };
    const parsed = dictForm(body.pixKey, body.keyKind);
    if (parsed === null) {
      return fieldError(
        'key-unrecognised',
        `Não reconhecemos “${body.pixKey}” como chave Pix. Use CPF, CNPJ, e-mail, celular com DDD ou chave aleatória.`,
        'pixKey',
      );
    }
    if (active(accountId).some((key) => key.pixKey === parsed.pixKey)) {
      return fieldError('pix-key-already-registered', 'Esta chave Pix já está cadastrada nesta conta.', 'pixKey', 409);
    }
    const makeDefault = body.makeDefault || active(accountId).length === 0;
    if (makeDefault) for (const key of db.pixKeys) if (key.accountId === accountId) key.isDefault = false;
    const key: FakePixKey = {
      id: `chave-${db.nextId++}`,
      accountId,
      kind: parsed.kind,
      pixKey: parsed.pixKey,
      label: body.label,
      holderName: body.holderName,
      isDefault: makeDefault,
      createdAt: new Date().toISOString(),
      removedAt: null,
    };
    db.pixKeys.push(key);
    return HttpResponse.json(keyJson(key), { status: 201 });
  }),

  http.post('/api/accounts/:accountId/keys/:keyId/default', ({ request, params }) => {
    const accountId = String(params.accountId);
    const refused = access(request, accountId, true);
    if (refused) return refused;
    const chosen = active(accountId).find((key) => key.id === params.keyId);
    if (chosen === undefined) return apiError(404, 'not-found', 'Chave Pix não encontrada nesta conta.');
    for (const key of db.pixKeys) if (key.accountId === accountId) key.isDefault = key === chosen;
    return HttpResponse.json(keyJson(chosen));
  }),

  http.delete('/api/accounts/:accountId/keys/:keyId', ({ request, params }) => {
    const accountId = String(params.accountId);
    const refused = access(request, accountId, true);
    if (refused) return refused;
    const key = db.pixKeys.find((k) => k.accountId === accountId && k.id === params.keyId);
    if (key === undefined) return apiError(404, 'not-found', 'Chave Pix não encontrada nesta conta.');
    if (key.removedAt === null) {
      key.removedAt = new Date().toISOString();
      const wasDefault = key.isDefault;
      key.isDefault = false;
      const next = active(accountId)[0];
      if (wasDefault && next !== undefined) next.isDefault = true;
    }
    return noContent();
  }),
];

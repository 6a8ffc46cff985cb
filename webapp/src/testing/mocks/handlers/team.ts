// A working fake of the team and workspace endpoints: members, invitations, workspaces.

import { HttpResponse, http } from 'msw';

import { INVITABLE_ROLES, type InvitableRole } from '@/lib/roles';

import { type FakeMember, type FakeUser, createActionCode, db, roleIn, userByUid } from '../db';
import { apiError, fieldError } from './api-error';
import { bearerUser, noContent, unauthorized } from './bearer';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const NOT_FOUND = () => apiError(404, 'not-found', 'Conta não encontrada.');
export const FORBIDDEN = () => apiError(403, 'forbidden', 'Seu papel nesta conta não permite isso.');

const memberJson = (member: FakeMember) => ({
  invitationId: member.invitationId,
  email: member.email,
  role: member.role,
  status: member.status,
  invitedAt: member.invitedAt,
  joinedAt: member.joinedAt,
});

/** The signed-in owner of `accountId`, or the response that refuses the call. */
function ownerOf(request: Request, accountId: string): FakeUser | Response {
  const user = bearerUser(request);
  if (user === undefined) return unauthorized();
  const role = roleIn(accountId, user.uid);
  if (role === undefined) return NOT_FOUND();
  if (role !== 'owner') return FORBIDDEN();
  return user;
}

export const teamHandlers = [
  http.get('/api/workspaces', ({ request }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const own = {
      accountId: user.uid,
      displayName: user.displayName ?? user.email,
      role: 'owner',
      defaultMerchantName: user.defaultMerchantName,
      defaultMerchantCity: user.defaultMerchantCity,
    };
    const others = [...db.members.values()]
      .filter((member) => member.memberUid === user.uid && member.status === 'active')
      .map((member) => {
        const owner = userByUid(member.accountId);
        return {
          accountId: member.accountId,
          displayName: owner?.displayName ?? owner?.email ?? '',
          role: member.role,
          defaultMerchantName: owner?.defaultMerchantName ?? null,
          defaultMerchantCity: owner?.defaultMerchantCity ?? null,
        };
      });
    return HttpResponse.json({ workspaces: [own, ...others] });
  }),

  http.get('/api/accounts/:accountId/members', ({ request, params }) => {
    const owner = ownerOf(request, String(params.accountId));
    if (owner instanceof Response) return owner;
    const members = [...db.members.values()].filter((member) => member.accountId === owner.uid).map(memberJson);
    return HttpResponse.json({ members });
  }),

  http.post('/api/accounts/:accountId/members', async ({ request, params }) => {
    const owner = ownerOf(request, String(params.accountId));
    if (owner instanceof Response) return owner;
    const body = (await request.json()) as { email: string; role: string };
    const email = body.email.trim();
    if (!EMAIL.test(email)) return fieldError('invalid-email', 'Digite um e-mail válido.', 'email');
    if (!(INVITABLE_ROLES as readonly string[]).includes(body.role)) {
      return fieldError('invalid-role', 'Escolha Gerente ou Operador.', 'role');
    }
    if (email.toLowerCase() === owner.email.toLowerCase()) {
      return fieldError('cannot-invite-self', 'Você não pode convidar o seu próprio e-mail.', 'email');
    }
    const taken = [...db.members.values()].some(
      (member) => member.accountId === owner.uid && member.email.toLowerCase() === email.toLowerCase(),
    );
    if (taken) return apiError(409, 'member-already-invited', 'Este e-mail já foi convidado.');
    const member: FakeMember = {
      invitationId: `convite-${db.nextId++}`,
      accountId: owner.uid,
      email,
      role: body.role as InvitableRole,
      status: 'invited',
      memberUid: null,
      invitedAt: new Date().toISOString(),
      joinedAt: null,
    };
    db.members.set(member.invitationId, member);
    createActionCode(owner, 'invitation', { invitationId: member.invitationId });
    return HttpResponse.json(memberJson(member), { status: 201 });
  }),

  http.delete('/api/accounts/:accountId/members/:invitationId', ({ request, params }) => {
    const owner = ownerOf(request, String(params.accountId));
    if (owner instanceof Response) return owner;
    const member = db.members.get(String(params.invitationId));
    if (member === undefined || member.accountId !== owner.uid) return NOT_FOUND();
    db.members.delete(member.invitationId);
    return noContent();
  }),

  // No session needed: the code is read, never spent. Who invites is named only to a caller signed
  // in with the invited address: holding the code is not proof of being the invitee.
  http.post('/api/invitations/check', async ({ request }) => {
    const body = (await request.json()) as { code: string };
    const code = db.actionCodes.get(body.code);
    const member = code?.invitationId === undefined ? undefined : db.members.get(code.invitationId);
    const owner = member === undefined ? undefined : userByUid(member.accountId);
    if (code === undefined || code.used || code.purpose !== 'invitation' || member === undefined) {
      return apiError(410, 'expired-action-code', 'Convite expirado.');
    }
    const invitee = bearerUser(request)?.email.toLowerCase() === member.email.toLowerCase();
    return HttpResponse.json({ displayName: invitee ? (owner?.displayName ?? null) : null, role: member.role });
  }),

  http.post('/api/invitations/accept', async ({ request }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const body = (await request.json()) as { code: string };
    const code = db.actionCodes.get(body.code);
    const member = code?.invitationId === undefined ? undefined : db.members.get(code.invitationId);
    if (code === undefined || code.used || code.purpose !== 'invitation' || member === undefined) {
      return apiError(410, 'expired-action-code', 'Convite expirado.');
    }
    // Only the account of the invited address accepts; using the code also proves that address.
    if (member.email.toLowerCase() !== user.email.toLowerCase()) {
      return apiError(
        403,
        'invitation-for-another-email',
        'Este convite foi enviado para outro e-mail. Saia desta conta e abra o link de novo para entrar, ou criar uma conta, com o e-mail que recebeu o convite.',
      );
    }
    user.emailVerified = true;
    code.used = true;
    member.status = 'active';
    member.memberUid = user.uid;
    member.joinedAt = new Date().toISOString();
    return HttpResponse.json({ accountId: member.accountId, role: member.role });
  }),
];

// The fake backend's memory: one browser (one refresh cookie) talking to one server.

import type { PasswordPolicy } from '@/features/auth/utils/password-rules';
import type { InvitableRole, Role } from '@/lib/roles';
import type { AuthUser } from '@/types/user';

export interface FakeUser {
  uid: string;
  email: string;
  password: string;
  displayName: string | null;
  emailVerified: boolean;
  disabled: boolean;
  /** As the server stores it: `+55DDNNNNNNNNN`. */
  phoneNumber: string | null;
  /** The stored photo's type and version (the `?v=` of its URL), or null. */
  photo: { type: string; version: number } | null;
  defaultMerchantName: string | null;
  defaultMerchantCity: string | null;
}

export type ActionPurpose = 'reset' | 'verify-email' | 'change-email' | 'invitation';

interface ActionCode {
  uid: string;
  purpose: ActionPurpose;
  used: boolean;
  /** change-email: the address the account moves to once the link is opened. */
  newEmail?: string;
  /** invitation: the invitation the code accepts. */
  invitationId?: string;
}

/** A signed-in device (one refresh token family). */
export interface FakeSession {
  id: string;
  uid: string;
  createdAt: string;
  lastUsedAt: string;
  userAgent: string | null;
}

/** Someone invited to (or working in) another person's account. */
export interface FakeMember {
  invitationId: string;
  /** The owner's account. */
  accountId: string;
  email: string;
  role: InvitableRole;
  status: 'invited' | 'active';
  memberUid: string | null;
  invitedAt: string;
  joinedAt: string | null;
}

export interface FakeQrCode {
  id: string;
  accountId: string;
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  amountCentavos: number | null;
  description: string | null;
  /** The txid the code carries (absent: as codes made before txids). */
  txid?: string;
  payload: string;
  createdAt: string;
  createdBy: string;
  /** Made for one sale (absent: reusable). */
  singleUse?: boolean;
  /** When a single-use code was paid. */
  paidAt?: string | null;
  /** A charge the key's bank made: until when it may be paid (absent: not a charge). */
  chargeExpiresAt?: string | null;
}

/** A sign the account keeps (`/api/accounts/{id}/placas`). */
export interface FakeSign {
  id: string;
  accountId: string;
  qrcodeId: string;
  name: string;
  template: string;
  size: string;
  theme: string;
  headline: string | null;
  footer: string | null;
  withLogo: boolean;
  duplicateOf: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface FakePixKey {
  id: string;
  accountId: string;
  kind: 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';
  pixKey: string;
  label: string | null;
  holderName: string;
  isDefault: boolean;
  createdAt: string;
  removedAt: string | null;
}

/** A connected key, as `GET …/bank-connections` shows it, plus its account. */
export interface FakeBankConnection {
  accountId: string;
  keyId: string;
  pixKey: string;
  bank: string;
  bankName: string;
  environment: 'producao' | 'homologacao';
  certificateNotAfter: string;
  connectedAt: string;
  lastTest: { ok: boolean; message: string | null; at: string } | null;
  webhook: { state: 'registered' | 'failed' | 'not-registered'; message: string | null; at: string | null };
  catchUp: {
    checkedUntil: string | null;
    lastSuccessAt: string | null;
    failingSince: string | null;
    lastProblem: string | null;
  } | null;
}

const DEFAULT_POLICY: PasswordPolicy = {
  minLength: 8,
  requireLowercase: true,
  requireUppercase: true,
  requireNumeric: true,
  requireNonAlphanumeric: false,
};

/** Where every fake timestamp starts (the fake clock's T0). */
export const SEED_TIME = '2026-11-02T12:00:00.000Z';

const BROWSER_USER_AGENT = 'Mozilla/5.0 (jsdom)';

function emptyDb() {
  return {
    users: new Map<string, FakeUser>(),
    /** access token → uid */
    accessTokens: new Map<string, string>(),
    /** The uid whose refresh cookie this browser holds, or null (no cookie). */
    refreshCookie: null as string | null,
    /** The session this browser's cookie belongs to. */
    browserSessionId: null as string | null,
    sessions: new Map<string, FakeSession>(),
    actionCodes: new Map<string, ActionCode>(),
    members: new Map<string, FakeMember>(),
    qrcodes: [] as FakeQrCode[],
    pixKeys: [] as FakePixKey[],
    /** Connected keys' banks (`/bank-connections`), as the API shows them. */
    bankConnections: [] as FakeBankConnection[],
    /** The bodies `POST …/qrcodes/cobrancas` received, oldest first. */
    charges: [] as unknown[],
    signs: [] as FakeSign[],
    passwordPolicy: DEFAULT_POLICY,
    tokenLifetimeSeconds: 3600,
    latestBuildId: 'build-em-teste',
    nextId: 1,
  };
}

export const db = emptyDb();

export function resetDb(): void {
  Object.assign(db, emptyDb());
}

export function seedUser(fields: Partial<FakeUser> & { email: string }): FakeUser {
  const user: FakeUser = {
    uid: `uid-${db.nextId++}`,
    password: 'Senha123',
    displayName: 'Ana Souza',
    emailVerified: true,
    disabled: false,
    phoneNumber: null,
    photo: null,
    defaultMerchantName: null,
    defaultMerchantCity: null,
    ...fields,
  };
  db.users.set(user.email.toLowerCase(), user);
  return user;
}

/** A signed-in device of `user` (not this browser unless `giveBrowserSessionTo` says so). */
export function seedSession(user: FakeUser, fields: Partial<Omit<FakeSession, 'id' | 'uid'>> = {}): FakeSession {
  const session: FakeSession = {
    id: `sessao-${db.nextId++}`,
    uid: user.uid,
    createdAt: SEED_TIME,
    lastUsedAt: SEED_TIME,
    userAgent: BROWSER_USER_AGENT,
    ...fields,
  };
  db.sessions.set(session.id, session);
  return session;
}

/** The browser now holds a refresh cookie for `user`, in a session of its own. */
export function startBrowserSession(user: FakeUser): FakeSession {
  const session = seedSession(user, { createdAt: new Date().toISOString(), lastUsedAt: new Date().toISOString() });
  db.refreshCookie = user.uid;
  db.browserSessionId = session.id;
  return session;
}

/** The browser already holds a valid refresh cookie for `user` (e.g. from yesterday's visit). */
export function giveBrowserSessionTo(user: FakeUser): void {
  startBrowserSession(user);
}

/** The browser's cookie is gone (signed out, or its session ended). */
export function endBrowserSession(): void {
  if (db.browserSessionId !== null) db.sessions.delete(db.browserSessionId);
  db.refreshCookie = null;
  db.browserSessionId = null;
}

export function issueAccessToken(uid: string): string {
  const token = `token-${db.nextId++}`;
  db.accessTokens.set(token, uid);
  return token;
}

export function createActionCode(
  user: FakeUser,
  purpose: ActionPurpose,
  extra: Pick<ActionCode, 'newEmail' | 'invitationId'> = {},
): string {
  const code = `codigo-${db.nextId++}`;
  db.actionCodes.set(code, { uid: user.uid, purpose, used: false, ...extra });
  return code;
}

export function userByUid(uid: string): FakeUser | undefined {
  return [...db.users.values()].find((user) => user.uid === uid);
}

/** `owner` invited `email` as `role`; returns the invitation and the code its e-mail links to. */
export function seedInvitation(
  owner: FakeUser,
  email: string,
  role: InvitableRole,
): { member: FakeMember; code: string } {
  const member: FakeMember = {
    invitationId: `convite-${db.nextId++}`,
    accountId: owner.uid,
    email,
    role,
    status: 'invited',
    memberUid: null,
    invitedAt: SEED_TIME,
    joinedAt: null,
  };
  db.members.set(member.invitationId, member);
  const code = createActionCode(owner, 'invitation', { invitationId: member.invitationId });
  return { member, code };
}

/** `member` already works in `owner`'s account as `role`. */
export function seedMembership(owner: FakeUser, member: FakeUser, role: InvitableRole): FakeMember {
  const { member: invitation } = seedInvitation(owner, member.email, role);
  invitation.status = 'active';
  invitation.memberUid = member.uid;
  invitation.joinedAt = SEED_TIME;
  return invitation;
}

/** `uid`'s role in `accountId`, or undefined when the account is none of theirs (→ 404). */
export function roleIn(accountId: string, uid: string): Role | undefined {
  if (accountId === uid && userByUid(uid) !== undefined) return 'owner';
  for (const member of db.members.values()) {
    if (member.accountId === accountId && member.memberUid === uid && member.status === 'active') return member.role;
  }
  return undefined;
}

export function seedQrCode(owner: FakeUser, fields: Partial<FakeQrCode> = {}): FakeQrCode {
  const qrcode: FakeQrCode = {
    id: `qr-${db.nextId++}`,
    accountId: owner.uid,
    pixKey: owner.email,
    merchantName: 'ANA SOUZA',
    merchantCity: 'SAO PAULO',
    amountCentavos: null,
    description: null,
    payload: '00020126360014br.gov.bcb.pix',
    createdAt: SEED_TIME,
    createdBy: owner.uid,
    ...fields,
  };
  db.qrcodes.push(qrcode);
  return qrcode;
}

export const photoUrlOf = (user: FakeUser): string | null =>
  user.photo === null ? null : `/fotos/${user.uid}?v=${user.photo.version}`;

export function toAuthUser(user: FakeUser): AuthUser {
  return {
    uid: user.uid,
    email: user.email,
    emailVerified: user.emailVerified,
    displayName: user.displayName,
    photoURL: photoUrlOf(user),
    phoneNumber: user.phoneNumber,
    isAnonymous: false,
    providerData: [{ providerId: 'password', uid: user.email, email: user.email }],
    creationTime: 'Mon, 02 Nov 2026 12:00:00 GMT',
    lastSignInTime: 'Mon, 02 Nov 2026 12:00:00 GMT',
  };
}

export function seedPixKey(owner: FakeUser, fields: Partial<FakePixKey> = {}): FakePixKey {
  const key: FakePixKey = {
    id: `chave-${db.nextId++}`,
    accountId: owner.uid,
    kind: 'email',
    pixKey: owner.email,
    label: null,
    holderName: owner.displayName ?? 'Ana Souza',
    isDefault: false,
    createdAt: SEED_TIME,
    removedAt: null,
    ...fields,
  };
  db.pixKeys.push(key);
  return key;
}

export function seedSign(owner: FakeUser, qrcode: FakeQrCode, fields: Partial<FakeSign> = {}): FakeSign {
  const sign: FakeSign = {
    id: `placa-${db.nextId++}`,
    accountId: owner.uid,
    qrcodeId: qrcode.id,
    name: 'Balcão da frente',
    template: 'classico',
    size: 'a4',
    theme: 'verde',
    headline: null,
    footer: null,
    withLogo: true,
    duplicateOf: null,
    createdBy: owner.uid,
    createdAt: SEED_TIME,
    updatedAt: SEED_TIME,
    ...fields,
  };
  db.signs.push(sign);
  return sign;
}

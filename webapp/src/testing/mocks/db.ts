// The fake backend's memory: one browser (one refresh cookie) talking to one server.

import type { PasswordPolicy } from '@/features/auth/utils/password-rules';
import type { AuthUser } from '@/types/user';

export interface FakeUser {
  uid: string;
  email: string;
  password: string;
  displayName: string | null;
  emailVerified: boolean;
  disabled: boolean;
}

interface ActionCode {
  uid: string;
  purpose: 'reset' | 'verify-email';
  used: boolean;
}

const DEFAULT_POLICY: PasswordPolicy = {
  minLength: 8,
  requireLowercase: true,
  requireUppercase: true,
  requireNumeric: true,
  requireNonAlphanumeric: false,
};

function emptyDb() {
  return {
    users: new Map<string, FakeUser>(),
    /** access token → uid */
    accessTokens: new Map<string, string>(),
    /** The uid whose refresh cookie this browser holds, or null (no cookie). */
    refreshCookie: null as string | null,
    actionCodes: new Map<string, ActionCode>(),
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
    ...fields,
  };
  db.users.set(user.email.toLowerCase(), user);
  return user;
}

/** The browser already holds a valid refresh cookie for `user` (e.g. from yesterday's visit). */
export function giveBrowserSessionTo(user: FakeUser): void {
  db.refreshCookie = user.uid;
}

export function issueAccessToken(uid: string): string {
  const token = `token-${db.nextId++}`;
  db.accessTokens.set(token, uid);
  return token;
}

export function createActionCode(user: FakeUser, purpose: ActionCode['purpose']): string {
  const code = `codigo-${db.nextId++}`;
  db.actionCodes.set(code, { uid: user.uid, purpose, used: false });
  return code;
}

export function userByUid(uid: string): FakeUser | undefined {
  return [...db.users.values()].find((user) => user.uid === uid);
}

export function toAuthUser(user: FakeUser): AuthUser {
  return {
    uid: user.uid,
    email: user.email,
    emailVerified: user.emailVerified,
    displayName: user.displayName,
    photoURL: null,
    phoneNumber: null,
    isAnonymous: false,
    providerData: [{ providerId: 'password', uid: user.email, email: user.email }],
    creationTime: 'Mon, 02 Nov 2026 12:00:00 GMT',
    lastSignInTime: 'Mon, 02 Nov 2026 12:00:00 GMT',
  };
}

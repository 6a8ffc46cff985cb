/** One sign-in method linked to the account, as `GET /api/auth/me` lists it. */
export interface ProviderInfo {
  providerId: string;
  uid: string;
  email?: string | null;
  displayName?: string | null;
}

/** The signed-in account, as `GET /api/auth/me` (and sign-in / sign-up) return it. */
export interface AuthUser {
  uid: string;
  email: string;
  emailVerified: boolean;
  displayName: string | null;
  photoURL: string | null;
  phoneNumber: string | null;
  isAnonymous: boolean;
  providerData: ProviderInfo[];
  creationTime: string;
  lastSignInTime: string;
}

/** What `POST /api/auth/token` returns. */
export interface TokenResponse {
  accessToken: string;
  /** Lifetime of the access token, in seconds. */
  expiresIn: number;
}

/** What sign-in and sign-up return. */
export interface SignInResponse extends TokenResponse {
  user: AuthUser;
}

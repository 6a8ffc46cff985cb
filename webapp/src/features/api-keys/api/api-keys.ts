import { api } from '@/lib/api';

/** What a key may do, as the server spells it. */
export type ApiKeyScope = 'qrcodes:read' | 'qrcodes:write' | 'payments:read' | 'payment-links:write' | 'webhooks:write';

/** A developer API key, as `GET /api/accounts/{id}/api-keys` lists it (never its secret). */
export interface ApiKey {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  /** The secret's first characters, to tell keys apart. */
  tokenHint: string;
  createdBy: string;
  createdAt: string;
  /** When it stops working by itself (RFC 3339), or null for never. */
  expiresAt: string | null;
  revokedAt: string | null;
  /** When it was last used, to the minute, or null for never. */
  lastUsedAt: string | null;
}

/** The list and what each scope allows, in the server's words. */
export interface ApiKeyList {
  apiKeys: ApiKey[];
  scopes: { scope: ApiKeyScope; label: string }[];
}

export interface NewApiKey {
  name: string;
  scopes: ApiKeyScope[];
  /** Last day it works (`AAAA-MM-DD`), or null for until revoked. */
  expiresOn: string | null;
}

/** A key just made: its secret is in this answer and nowhere else, ever. */
export interface CreatedApiKey {
  id: string;
  accountId: string;
  name: string;
  scopes: ApiKeyScope[];
  tokenHint: string;
  expiresAt: string | null;
  secret: string;
}

const keysUrl = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/api-keys`;

export const apiKeysApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/accounts/{accountId}/api-keys`: owners and managers. */
    listApiKeys: build.query<ApiKeyList, string>({
      query: (accountId) => keysUrl(accountId),
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, accountId) => [{ type: 'ApiKeys', id: accountId }],
    }),
    /** `POST /api/accounts/{accountId}/api-keys`: 201 with the secret; field problems are 422 with `problems`. */
    createApiKey: build.mutation<CreatedApiKey, { accountId: string; key: NewApiKey }>({
      query: ({ accountId, key }) => ({ url: keysUrl(accountId), method: 'POST', body: key }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'ApiKeys', id: accountId }],
    }),
    /** `DELETE /api/accounts/{accountId}/api-keys/{keyId}`: 204. */
    revokeApiKey: build.mutation<null, { accountId: string; keyId: string }>({
      query: ({ accountId, keyId }) => ({
        url: `${keysUrl(accountId)}/${encodeURIComponent(keyId)}`,
        method: 'DELETE',
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'ApiKeys', id: accountId }],
    }),
  }),
});

export const { useListApiKeysQuery, useCreateApiKeyMutation, useRevokeApiKeyMutation } = apiKeysApi;

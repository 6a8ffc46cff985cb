import { api } from '@/lib/api';

/** The stored kinds of Pix key (`GET /api/accounts/{id}/keys`). */
export type KeyKind = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';

/** A registered Pix key, as the API shows it. */
export interface PixKey {
  id: string;
  kind: KeyKind;
  /** The key in DICT form, as written in codes (`+5511912345678`, `12ABC34501DE35`…). */
  pixKey: string | null;
  label: string | null;
  /** The holder's name as the bank shows it to the payer. */
  holderName: string | null;
  isDefault: boolean;
  createdAt: string;
  removedAt: string | null;
}

/** What the register form sends. `keyKind` null lets the server detect it. */
export interface NewPixKey {
  pixKey: string;
  keyKind: string | null;
  holderName: string;
  label: string | null;
  makeDefault: boolean;
}

export interface PixKeyNames {
  holderName: string;
  label: string | null;
}

const keysUrl = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/keys`;
const keyUrl = (accountId: string, keyId: string) => `${keysUrl(accountId)}/${encodeURIComponent(keyId)}`;
const tags = (accountId: string) => [{ type: 'PixKeys' as const, id: accountId }];

export const keysApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/accounts/{accountId}/keys`: the active keys, the default first. */
    listPixKeys: build.query<PixKey[], string>({
      query: (accountId) => keysUrl(accountId),
      extraOptions: { authenticated: true },
      transformResponse: (response: { keys: PixKey[] }) => response.keys,
      providesTags: (_result, _error, accountId) => tags(accountId),
    }),
    /** `POST …/keys`: 201 the key; 409 `pix-key-already-registered`; 422 with `field`. */
    registerPixKey: build.mutation<PixKey, { accountId: string; key: NewPixKey }>({
      query: ({ accountId, key }) => ({ url: keysUrl(accountId), method: 'POST', body: key }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** `PATCH …/keys/{keyId}`: new holder name and label. */
    renamePixKey: build.mutation<PixKey, { accountId: string; keyId: string; names: PixKeyNames }>({
      query: ({ accountId, keyId, names }) => ({ url: keyUrl(accountId, keyId), method: 'PATCH', body: names }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** `POST …/keys/{keyId}/default`. */
    choosePixKeyDefault: build.mutation<PixKey, { accountId: string; keyId: string }>({
      query: ({ accountId, keyId }) => ({ url: `${keyUrl(accountId, keyId)}/default`, method: 'POST', body: {} }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** `DELETE …/keys/{keyId}`: 204; codes made with it keep working. */
    removePixKey: build.mutation<null, { accountId: string; keyId: string }>({
      query: ({ accountId, keyId }) => ({ url: keyUrl(accountId, keyId), method: 'DELETE' }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
  }),
});

export const {
  useListPixKeysQuery,
  useRegisterPixKeyMutation,
  useRenamePixKeyMutation,
  useChoosePixKeyDefaultMutation,
  useRemovePixKeyMutation,
} = keysApi;

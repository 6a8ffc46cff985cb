import { api } from '@/lib/api';

/** What a sign is printed with: the choices the sign routes read (`?modelo=&tamanho=&tema=&titulo=&rodape=&logo=`). */
export interface SignChoices {
  /** Template slug: `classico`, `faixa`, `moldura`, `minimalista` or `codigo`. */
  template: string;
  /** Paper size slug: `a4`, `a5`, `a6`, `10x15`, `display-de-mesa`, `adesivos` or `quadrado`. */
  size: string;
  /** Theme slug: `verde`, `azul`, `grafite` or `vinho`. */
  theme: string;
  /** The headline; null prints "Pague com Pix". */
  headline: string | null;
  footer: string | null;
  /** Whether the account's logo is drawn (when its plan allows one). */
  withLogo: boolean;
}

/** A sign the account keeps, as `GET /api/accounts/{id}/placas` lists it. */
export interface SavedSign extends SignChoices {
  id: string;
  name: string;
  qrcodeId: string;
  duplicateOf: string | null;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** The code it prints; null while the server's list of codes is catching up. */
  code: {
    merchantName: string;
    amountCentavos: number | null;
    txid: string;
    description: string | null;
    archived: boolean;
  } | null;
  /** The sign routes' addresses with the sign's choices (the PNG at 300 dpi). */
  files: { pdf: string; png: string; svg: string };
}

/** The body of `POST …/placas`. */
export interface NewSign extends SignChoices {
  qrcodeId: string;
  name: string;
}

/** The body of `PATCH …/placas/{id}`: every choice and the name (a sign keeps its code). */
export type SignChange = SignChoices & { name: string };

const signsUrl = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/placas`;
const signUrl = (accountId: string, signId: string) => `${signsUrl(accountId)}/${encodeURIComponent(signId)}`;

export const signsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/accounts/{accountId}/placas`: every sign for owners and managers, their own for operators. */
    listSigns: build.query<SavedSign[], string>({
      query: (accountId) => signsUrl(accountId),
      extraOptions: { authenticated: true },
      transformResponse: (response: { signs: SavedSign[] }) => response.signs,
      providesTags: (_result, _error, accountId) => [{ type: 'Signs', id: accountId }],
    }),
    /** `POST /api/accounts/{accountId}/placas`: 201 with the sign; a refused value is 422 with `field`. */
    createSign: build.mutation<SavedSign, { accountId: string; sign: NewSign }>({
      query: ({ accountId, sign }) => ({ url: signsUrl(accountId), method: 'POST', body: sign }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'Signs', id: accountId }],
    }),
    /** `PATCH /api/accounts/{accountId}/placas/{id}`. */
    updateSign: build.mutation<SavedSign, { accountId: string; signId: string; change: SignChange }>({
      query: ({ accountId, signId, change }) => ({ url: signUrl(accountId, signId), method: 'PATCH', body: change }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'Signs', id: accountId }],
    }),
    /** `POST /api/accounts/{accountId}/placas/{id}/duplicar`: 201 with the copy. */
    duplicateSign: build.mutation<SavedSign, { accountId: string; signId: string }>({
      query: ({ accountId, signId }) => ({ url: `${signUrl(accountId, signId)}/duplicar`, method: 'POST', body: {} }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'Signs', id: accountId }],
    }),
    /** `DELETE /api/accounts/{accountId}/placas/{id}`: 204. */
    deleteSign: build.mutation<void, { accountId: string; signId: string }>({
      query: ({ accountId, signId }) => ({ url: signUrl(accountId, signId), method: 'DELETE' }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'Signs', id: accountId }],
    }),
  }),
});

export const {
  useListSignsQuery,
  useCreateSignMutation,
  useUpdateSignMutation,
  useDuplicateSignMutation,
  useDeleteSignMutation,
} = signsApi;

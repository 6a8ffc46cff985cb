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

/**
 * The list after a write, from the write's own answer. The server answers a write once the list
 * has it, or, when its read model is late, with what the list will show; refetching instead could
 * bring back a list from before the write and keep it, so the mutations below change the cached
 * list themselves and invalidate nothing.
 */
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
      async onQueryStarted({ accountId }, { dispatch, queryFulfilled }) {
        const made = await answered(queryFulfilled);
        if (made) dispatch(signsApi.util.updateQueryData('listSigns', accountId, (list) => addFirst(list, made)));
      },
    }),
    /** `PATCH /api/accounts/{accountId}/placas/{id}`. */
    updateSign: build.mutation<SavedSign, { accountId: string; signId: string; change: SignChange }>({
      query: ({ accountId, signId, change }) => ({ url: signUrl(accountId, signId), method: 'PATCH', body: change }),
      extraOptions: { authenticated: true },
      async onQueryStarted({ accountId }, { dispatch, queryFulfilled }) {
        const changed = await answered(queryFulfilled);
        if (changed)
          dispatch(
            signsApi.util.updateQueryData('listSigns', accountId, (list) =>
              list.map((sign) => (sign.id === changed.id ? changed : sign)),
            ),
          );
      },
    }),
    /** `POST /api/accounts/{accountId}/placas/{id}/duplicar`: 201 with the copy. */
    duplicateSign: build.mutation<SavedSign, { accountId: string; signId: string }>({
      query: ({ accountId, signId }) => ({ url: `${signUrl(accountId, signId)}/duplicar`, method: 'POST', body: {} }),
      extraOptions: { authenticated: true },
      async onQueryStarted({ accountId }, { dispatch, queryFulfilled }) {
        const copy = await answered(queryFulfilled);
        if (copy) dispatch(signsApi.util.updateQueryData('listSigns', accountId, (list) => addFirst(list, copy)));
      },
    }),
    /** `DELETE /api/accounts/{accountId}/placas/{id}`: 204. */
    deleteSign: build.mutation<void, { accountId: string; signId: string }>({
      query: ({ accountId, signId }) => ({ url: signUrl(accountId, signId), method: 'DELETE' }),
      extraOptions: { authenticated: true },
      async onQueryStarted({ accountId, signId }, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return; // the button shows the error from its own `unwrap()`
        }
        dispatch(
          signsApi.util.updateQueryData('listSigns', accountId, (list) => list.filter((sign) => sign.id !== signId)),
        );
      },
    }),
  }),
});

/** What a write answered; null when it failed (the form or the button shows the error from its own `unwrap()`). */
async function answered<T>(fulfilled: Promise<{ data: T }>): Promise<T | null> {
  try {
    return (await fulfilled).data;
  } catch {
    return null;
  }
}

/** `sign` first (the list is newest first), once. */
function addFirst(list: SavedSign[], sign: SavedSign): SavedSign[] {
  return [sign, ...list.filter((other) => other.id !== sign.id)];
}

export const {
  useListSignsQuery,
  useCreateSignMutation,
  useUpdateSignMutation,
  useDuplicateSignMutation,
  useDeleteSignMutation,
} = signsApi;

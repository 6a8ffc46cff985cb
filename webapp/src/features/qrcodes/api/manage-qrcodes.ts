import { api } from '@/lib/api';

import type { QrCode } from './list-qrcodes';

/** One problem of a creation or a batch (`POST …/qrcodes/conferir`), each naming its field. */
export interface FieldProblem {
  field: string;
  /** The batch line it is about (1-based), if any. */
  line?: number;
  message: string;
}

/** What the server will write, and every problem, before anything is made. */
export interface CheckedQrCode {
  merchantName: string | null;
  merchantCity: string | null;
  pixKey: string | null;
  changes: string[];
  problems: FieldProblem[];
}

/** The body of a creation, a batch and a check (`json::CodeBody` on the server). */
export interface QrCodeRequest {
  keyId?: string | null;
  pixKey?: string | null;
  merchantName: string;
  merchantCity: string;
  amount?: string | null;
  description?: string | null;
  txid?: string | null;
  singleUse?: boolean;
  prefix?: string | null;
  count?: number | null;
  lines?: string | null;
}

export interface CreatedBatch {
  batchId: string;
  qrcodes: QrCode[];
}

/** The list's filters (`GET …/qrcodes?busca=&chave=&arquivados=&depois=`). */
export interface QrCodeFilters {
  accountId: string;
  search: string;
  keyId: string;
  archived: 'nao' | 'sim' | 'todos';
  after: string | null;
}

export interface QrCodePage {
  qrcodes: QrCode[];
  next: string | null;
}

const base = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/qrcodes`;

export const manageQrCodesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST …/qrcodes/conferir`: every problem at once and the normalised name and city. */
    checkQrCode: build.mutation<CheckedQrCode, { accountId: string; request: QrCodeRequest }>({
      query: ({ accountId, request }) => ({ url: `${base(accountId)}/conferir`, method: 'POST', body: request }),
      extraOptions: { authenticated: true },
    }),
    /** `POST …/qrcodes/lote`: one code per line, all or none. */
    createBatch: build.mutation<CreatedBatch, { accountId: string; request: QrCodeRequest }>({
      query: ({ accountId, request }) => ({ url: `${base(accountId)}/lote`, method: 'POST', body: request }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'QrCodes', id: accountId }],
    }),
    /** `POST …/qrcodes/{id}/arquivar`, `…/desarquivar`, `…/duplicar`. */
    changeQrCode: build.mutation<
      QrCode,
      { accountId: string; id: string; action: 'arquivar' | 'desarquivar' | 'duplicar' }
    >({
      query: ({ accountId, id, action }) => ({
        url: `${base(accountId)}/${encodeURIComponent(id)}/${action}`,
        method: 'POST',
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'QrCodes', id: accountId }],
    }),
    /** One page of the filtered list. */
    searchQrCodes: build.query<QrCodePage, QrCodeFilters>({
      query: ({ accountId, search, keyId, archived, after }) => {
        const params = new URLSearchParams({ arquivados: archived, limite: '50' });
        if (search.trim() !== '') params.set('busca', search.trim());
        if (keyId !== '') params.set('chave', keyId);
        if (after !== null) params.set('depois', after);
        return `${base(accountId)}?${params.toString()}`;
      },
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, { accountId }) => [{ type: 'QrCodes', id: accountId }],
    }),
  }),
});

export const { useCheckQrCodeMutation, useCreateBatchMutation, useChangeQrCodeMutation, useSearchQrCodesQuery } =
  manageQrCodesApi;

import { api } from '@/lib/api';

import type { QrCode } from './list-qrcodes';

export interface NewQrCode {
  /** A registered key of the account; null when the key is typed. */
  keyId: string | null;
  /** The typed key; null when a registered key is chosen. */
  pixKey: string | null;
  merchantName: string;
  merchantCity: string;
  /** As typed in pt-BR (`"12,50"`), or null for a code where the payer types the amount. */
  amount: string | null;
  description: string | null;
  /** Typed by the person; blank or absent: the server generates one. */
  txid?: string | null;
  /** Made for one sale (needs an amount): once paid, its payer page says so to everyone. */
  singleUse?: boolean;
}

export const createQrCodeApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `POST /api/accounts/{accountId}/qrcodes`: 201 with the code; BR Code problems are 422 with `field`. */
    createQrCode: build.mutation<QrCode, { accountId: string; qrcode: NewQrCode }>({
      query: ({ accountId, qrcode }) => ({
        url: `/api/accounts/${encodeURIComponent(accountId)}/qrcodes?qr=svg`,
        method: 'POST',
        body: qrcode,
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'QrCodes', id: accountId }],
    }),
  }),
});

export const { useCreateQrCodeMutation } = createQrCodeApi;

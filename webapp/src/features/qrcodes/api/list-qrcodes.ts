import { api } from '@/lib/api';

/** A QR code, as `GET /api/accounts/{id}/qrcodes` lists it. */
export interface QrCode {
  id: string;
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  /** Integer centavos; null when the payer types the amount. */
  amountCentavos: number | null;
  description: string | null;
  /** The BR Code text ("Pix copia e cola"). */
  payload: string;
  createdAt: string;
  /** The account id of whoever created it (null for codes older than that record). */
  createdBy: string | null;
  paymentUrl: string;
  /** How the bank reports payments to this code (absent from codes made before txids). */
  txid?: string;
  /** When it was archived; null while it takes payments. */
  archivedAt?: string | null;
  /** The registered key it was made from, if any. */
  keyId?: string | null;
  /** The batch it was made in, if any. */
  batchId?: string | null;
  /** Made for one sale: once paid, its payer page says "já foi pago" to everyone. */
  singleUse?: boolean;
  /** When a single-use code was paid; null while it waits for its payment (and for reusable codes). */
  paidAt?: string | null;
  /** A charge the key's connected bank made: until when it may be paid; null for every other code. */
  chargeExpiresAt?: string | null;
  /** The QR code as SVG markup (only in a creation's answer). */
  qrSvg?: string;
}

export const listQrCodesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/accounts/{accountId}/qrcodes`: all of them for owners and managers, their own for operators. */
    listQrCodes: build.query<QrCode[], string>({
      query: (accountId) => `/api/accounts/${encodeURIComponent(accountId)}/qrcodes`,
      extraOptions: { authenticated: true },
      transformResponse: (response: { qrcodes: QrCode[] }) => response.qrcodes,
      providesTags: (_result, _error, accountId) => [{ type: 'QrCodes', id: accountId }],
    }),
  }),
});

export const { useListQrCodesQuery } = listQrCodesApi;

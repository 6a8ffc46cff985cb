import { api } from '@/lib/api';

/** What the screen shows of a code (`GET …/qrcodes/{id}` answers more). */
export interface CounterCode {
  id: string;
  /** The key in DICT form. */
  pixKey: string;
  merchantName: string;
  /** Integer centavos; null when the payer types the amount. */
  amountCentavos: number | null;
  description: string | null;
  /** When it was archived; null while it takes payments. */
  archivedAt?: string | null;
}

/** What the screen shows of a payment (`GET …/payments` answers more). */
export interface CounterPayment {
  reference: string;
  amountCentavos: number;
  refundedCentavos: number;
  /** RFC 3339. */
  paidAt: string;
  qrcodeId: string | null;
  status: 'received' | 'voided';
  /** Only for roles that may see who paid (owner, manager). */
  payer?: { name: string | null };
}

export interface CounterPage {
  payments: CounterPayment[];
}

/** The most payments the screen asks for at once: more than a counter sees in its window. */
export const COUNTER_PAGE = 100;

const account = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}`;

export const counterApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET …/qrcodes/{id}`: the code the screen follows (an operator's own, or 403). */
    getQrCode: build.query<CounterCode, { accountId: string; id: string }>({
      query: ({ accountId, id }) => `${account(accountId)}/qrcodes/${encodeURIComponent(id)}`,
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, { accountId }) => [{ type: 'QrCodes', id: accountId }],
    }),
    /**
     * `GET …/payments?qrcode={id}&de={day}`: the code's payments from a São Paulo day on, newest
     * first; tagged `Payment`, so the live stream's events fetch it again.
     */
    counterPayments: build.query<CounterPage, { accountId: string; qrcodeId: string; from: string }>({
      query: ({ accountId, qrcodeId, from }) => {
        const params = new URLSearchParams({ qrcode: qrcodeId, de: from, limite: String(COUNTER_PAGE) });
        return `${account(accountId)}/payments?${params.toString()}`;
      },
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, { accountId }) => [{ type: 'Payment', id: accountId }],
    }),
  }),
});

export const { useGetQrCodeQuery, useCounterPaymentsQuery } = counterApi;

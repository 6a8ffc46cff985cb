import { api } from '@/lib/api';

/** One period's figures: payments that stand (voided ones count nowhere), amounts in centavos. */
export interface PeriodFigures {
  payments: number;
  receivedCentavos: number;
  refundedCentavos: number;
  /** Received over the number of payments, rounded to the centavo; 0 without payments. */
  averageTicketCentavos: number;
}

/** A recent payment as `GET …/summary` lists it (as `GET …/payments` does). */
export interface RecentPayment {
  reference: string;
  amountCentavos: number;
  refundedCentavos: number;
  paidAt: string;
  qrcodeId: string | null;
  /** The payment link it paid, if any. */
  paymentLinkId?: string | null;
  source: 'api-pix' | 'manual' | 'sandbox' | 'extrato' | 'api-pix-consulta';
  status: 'received' | 'voided';
  note: string | null;
}

/** `GET /api/accounts/{accountId}/summary`: the home's figures (São Paulo days, today included). */
export interface HomeSummary {
  /** Today in São Paulo, `AAAA-MM-DD`. */
  today: string;
  periods: { today: PeriodFigures; last7Days: PeriodFigures; last30Days: PeriodFigures };
  recent: RecentPayment[];
}

export const homeSummaryApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Every role; operators get the figures of the codes they made. */
    getHomeSummary: build.query<HomeSummary, string>({
      query: (accountId) => `/api/accounts/${encodeURIComponent(accountId)}/summary`,
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, accountId) => [{ type: 'PaymentSummary', id: accountId }],
    }),
  }),
});

export const { useGetHomeSummaryQuery } = homeSummaryApi;

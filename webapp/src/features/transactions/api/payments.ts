import { api } from '@/lib/api';

/**
 * The tag every payment read carries. Whatever learns of a new or changed payment (a manual
 * record, a void, the live updates' event stream) invalidates it, and every list, total and
 * history on screen is fetched again.
 */
export const PAYMENT_TAG = 'Payment' as const;

export type PaymentSource = 'api-pix' | 'manual' | 'sandbox' | 'extrato' | 'api-pix-consulta';
export type PaymentStatus = 'received' | 'voided';

/**
 * A refund's status: the bank's (`EM_PROCESSAMENTO`, `DEVOLVIDO`, `NAO_REALIZADO`), or, for one
 * asked for through Balcão, `SOLICITADA` before the bank answered and `RECUSADA` when it refused.
 */
export type RefundStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO' | 'SOLICITADA' | 'RECUSADA';

export interface Refund {
  id: string;
  rtrId: string;
  amountCentavos: number;
  status: RefundStatus;
  /** Why it was refused or not carried out. */
  reason?: string;
  /** What the payer reads, for a refund asked for through Balcão. */
  description?: string;
}

/** `POST …/payments/{reference}/refunds`: the amount as typed in Brazil and what the payer reads. */
export interface NewRefund {
  amount: string;
  description: string | null;
}

/** The payment after a refund was asked for, with how far the bank got. */
export type RefundAnswer = Payment & {
  refund: { id: string; status: RefundStatus; reason?: string; problem?: string };
};

/** A payment as `GET /api/accounts/{id}/payments` lists it. */
export interface Payment {
  reference: string;
  endToEndId: string | null;
  amountCentavos: number;
  refundedCentavos: number;
  paidAt: string;
  /** The São Paulo calendar day of `paidAt`, `AAAA-MM-DD`. */
  day: string;
  txid: string | null;
  /** Null: paid with no code (a payment link, or "sem QR code"). */
  qrcodeId: string | null;
  codeDescription?: string | null;
  /** The payment link it paid, if any. */
  paymentLinkId?: string | null;
  linkDescription?: string | null;
  source: PaymentSource;
  confirmedBy: PaymentSource | null;
  status: PaymentStatus;
  note: string | null;
  recordedBy: string | null;
  voidReason: string | null;
  recordedAt: string;
  refunds: Refund[];
  /**
   * Only in a single read, for owner and manager: whether the key that received it has a
   * connected bank, so the payment can be refunded from here.
   */
  refundViaBank?: boolean;
  /** Only for roles that may see who paid (owner, manager). */
  payer?: { name: string | null; document: string | null; info: string | null };
}

/** The screen's filters, as the query string names them (`filters.rs` on the server). */
export interface PaymentFilters {
  /** First and last São Paulo day, `AAAA-MM-DD`; empty: open. */
  from: string;
  to: string;
  /** A code's id, `sem` for payments with no code nor link, `links` for payment links, or empty. */
  qrcode: string;
  keyId: string;
  source: '' | PaymentSource;
  status: '' | 'received' | 'voided' | 'refunded';
  /** Amounts as typed in Brazil (`12,50`). */
  min: string;
  max: string;
  text: string;
}

export const NO_FILTERS: PaymentFilters = {
  from: '',
  to: '',
  qrcode: '',
  keyId: '',
  source: '',
  status: '',
  min: '',
  max: '',
  text: '',
};

/** What the plan shows of the history: null for all of it; on Grátis the first day shown and a pt-BR note. */
export type HistoryWindow = { from: string; note: string } | null;

export interface PaymentPage {
  payments: Payment[];
  next: string | null;
  history?: HistoryWindow;
}

export interface DayTotals {
  day: string;
  payments: number;
  receivedCentavos: number;
  refundedCentavos: number;
  voided: number;
}

export interface PaymentSummary {
  total: Omit<DayTotals, 'day'> & { netCentavos: number };
  days: DayTotals[];
  history?: HistoryWindow;
}

/** One event of a payment's audit trail, as the event log holds it. */
export interface PaymentEventEntry {
  eventId: string;
  version: number;
  /** `PaymentRecorded`, `PaymentConfirmed`, `PaymentRefunded`, `PaymentVoided` (a newer one as named). */
  type: string;
  /** When Balcão recorded the event. */
  at: string;
  source?: PaymentSource;
  amountCentavos?: number;
  paidAt?: string;
  note?: string | null;
  reason?: string;
  refund?: {
    id: string;
    amountCentavos?: number;
    status?: RefundStatus;
    description?: string | null;
    reason?: string | null;
  };
  /** A payment recorded from an imported bank statement: the file, its line and the import. */
  statement?: { arquivo: string; linha: number; importacao: string };
  /** The Pix end-to-end id a bank's confirmation taught a payment recorded without one. */
  endToEndId?: string;
  by: { kind: 'person' | 'bank' | 'sandbox' | 'system' | 'unknown'; id?: string; name?: string | null };
  correlationId: string | null;
  causationId: string | null;
  requestId: string | null;
}

export interface NewPayment {
  qrcodeId: string | null;
  amount: string;
  /** RFC 3339; absent: now. */
  paidAt?: string;
  note?: string | null;
  endToEndId?: string | null;
}

/** A CSV export ready to save: an object URL of the bytes the server streamed, and its name. */
export interface CsvFile {
  url: string;
  filename: string;
}

const base = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/payments`;

/** Each filter's query parameter: also the name a problem with it comes under. */
export const FILTER_PARAMS: Readonly<Record<keyof PaymentFilters, string>> = {
  from: 'de',
  to: 'ate',
  qrcode: 'qrcode',
  keyId: 'chave',
  source: 'origem',
  status: 'situacao',
  min: 'minimo',
  max: 'maximo',
  text: 'busca',
};

/** The query string of `filters` (empty values left out). */
export function filterParams(filters: PaymentFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of Object.keys(FILTER_PARAMS) as (keyof PaymentFilters)[]) {
    const value = filters[name].trim();
    if (value !== '') params.set(FILTER_PARAMS[name], value);
  }
  return params;
}

const tags = (accountId: string) => [{ type: PAYMENT_TAG, id: accountId }];

export const paymentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One keyset page of the filtered payments, newest first. */
    searchPayments: build.query<PaymentPage, { accountId: string; filters: PaymentFilters; after: string | null }>({
      query: ({ accountId, filters, after }) => {
        const params = filterParams(filters);
        params.set('limite', '50');
        if (after !== null) params.set('depois', after);
        return `${base(accountId)}?${params.toString()}`;
      },
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** Totals of the filtered payments, and their São Paulo days. */
    getPaymentSummary: build.query<PaymentSummary, { accountId: string; filters: PaymentFilters }>({
      query: ({ accountId, filters }) => `${base(accountId)}/summary?${filterParams(filters).toString()}`,
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** `GET …/payments/{reference}`: one payment as it stands. */
    getPayment: build.query<Payment, { accountId: string; reference: string }>({
      query: ({ accountId, reference }) => `${base(accountId)}/${encodeURIComponent(reference)}`,
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** The payment's events, read from the event log. */
    getPaymentHistory: build.query<PaymentEventEntry[], { accountId: string; reference: string }>({
      query: ({ accountId, reference }) => `${base(accountId)}/${encodeURIComponent(reference)}/history`,
      extraOptions: { authenticated: true },
      transformResponse: (response: { events: PaymentEventEntry[] }) => response.events,
      providesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** `POST …/payments`: a payment typed in by hand. */
    recordPayment: build.mutation<Payment, { accountId: string; payment: NewPayment }>({
      query: ({ accountId, payment }) => ({ url: base(accountId), method: 'POST', body: payment }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /** `POST …/payments/{reference}/void`. */
    voidPayment: build.mutation<Payment, { accountId: string; reference: string; reason: string }>({
      query: ({ accountId, reference, reason }) => ({
        url: `${base(accountId)}/${encodeURIComponent(reference)}/void`,
        method: 'POST',
        body: { reason },
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /**
     * `POST …/payments/{reference}/refunds`: pays (part of) the Pix back through the bank that holds
     * its key. `idempotencyKey` is drawn once per form, so a retried request is the same refund.
     */
    refundPayment: build.mutation<
      RefundAnswer,
      { accountId: string; reference: string; refund: NewRefund; idempotencyKey: string }
    >({
      query: ({ accountId, reference, refund, idempotencyKey }) => ({
        url: `${base(accountId)}/${encodeURIComponent(reference)}/refunds`,
        method: 'POST',
        body: refund,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => tags(accountId),
    }),
    /**
     * `GET …/payments/csv`: the file the server streams, kept as it came (BOM included) behind an
     * object URL; the caller saves it and revokes the URL.
     */
    exportPayments: build.mutation<CsvFile, { accountId: string; filters: PaymentFilters }>({
      query: ({ accountId, filters }) => ({
        url: `${base(accountId)}/csv?${filterParams(filters).toString()}`,
        cache: 'no-store',
        // An error answer is the API's JSON; only a file becomes an object URL.
        responseHandler: async (response) => {
          if (!response.ok) return (await response.json()) as unknown;
          const disposition = response.headers.get('content-disposition') ?? '';
          const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'transacoes.csv';
          return { url: URL.createObjectURL(await response.blob()), filename } satisfies CsvFile;
        },
      }),
      extraOptions: { authenticated: true },
    }),
  }),
});

export const {
  useSearchPaymentsQuery,
  useGetPaymentSummaryQuery,
  useGetPaymentQuery,
  useGetPaymentHistoryQuery,
  useRecordPaymentMutation,
  useVoidPaymentMutation,
  useRefundPaymentMutation,
  useExportPaymentsMutation,
} = paymentsApi;

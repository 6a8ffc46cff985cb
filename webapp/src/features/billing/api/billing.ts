import { api } from '@/lib/api';

/** What a plan allows, as `GET /api/plans` sends it. */
export interface PlanLimits {
  pixKeys: number;
  qrcodesPerMonth: number;
  extraAccounts: number;
  logoOnSigns: boolean;
  apiPixEndpoints: number;
  /** Days of history shown; null for all of it. */
  historyDays: number | null;
}

export type PlanId = 'gratis' | 'premium-mensal' | 'premium-anual';

export interface Plan {
  id: PlanId;
  name: string;
  priceCentavos: number;
  period: 'free' | 'month' | 'year';
  limits: PlanLimits;
}

/** One Pix charge of the subscription. */
export interface Charge {
  id: string;
  plan: PlanId;
  renewal: boolean;
  amountCentavos: number;
  provider: 'sandbox' | 'asaas';
  status: 'open' | 'overdue' | 'paid' | 'deleted' | 'refunded' | 'cancelled';
  /** Its Pix can no longer be paid (expired or closed). */
  expired: boolean;
  pixPayload: string;
  /** The QR code as SVG, only while it can be paid. */
  qrSvg: string | null;
  expiresAt: string;
  createdAt: string;
  paidAt: string | null;
  periodUntil: string | null;
  checkoutUrl: string;
}

export interface Usage {
  pixKeys: number;
  qrcodesThisMonth: number;
  extraAccounts: number;
  apiPixEndpoints: number;
}

/** `GET /api/accounts/{id}/subscription`. */
export interface Subscription {
  /** The plan in force now. */
  plan: Plan;
  status: 'gratis' | 'checkout' | 'active' | 'cancelling' | 'expired';
  activeUntil: string | null;
  renewalFrom: string | null;
  usage: Usage;
  sandbox: boolean;
  charges: Charge[];
  /** Said after a cancellation whose renewal had been paid first (Premium runs to that period's end). */
  notice?: string;
}

export interface ChargeAnswer {
  charge: Charge;
  plan: Plan;
  sandbox: boolean;
}

export interface UpgradeRequest {
  plan: Exclude<PlanId, 'gratis'>;
  payerName: string;
  document: string;
}

const subscriptionUrl = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/subscription`;

export const billingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/plans`: public. */
    listPlans: build.query<Plan[], void>({
      query: () => '/api/plans',
      transformResponse: (response: { plans: Plan[] }) => response.plans,
    }),
    /** `GET /api/accounts/{accountId}/subscription`: the owner. */
    getSubscription: build.query<Subscription, string>({
      query: (accountId) => subscriptionUrl(accountId),
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, accountId) => [{ type: 'Subscription', id: accountId }],
    }),
    /** `POST …/subscription/upgrade`: 201 (or 200 with the charge still open) `{chargeId, checkoutUrl}`. */
    upgradePlan: build.mutation<{ chargeId: string; checkoutUrl: string }, { accountId: string } & UpgradeRequest>({
      query: ({ accountId, ...body }) => ({ url: `${subscriptionUrl(accountId)}/upgrade`, method: 'POST', body }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'Subscription', id: accountId }],
    }),
    /** `GET …/subscription/charges/{chargeId}`: asked again when its live stream announces a change. */
    getCharge: build.query<ChargeAnswer, { accountId: string; chargeId: string }>({
      query: ({ accountId, chargeId }) => `${subscriptionUrl(accountId)}/charges/${encodeURIComponent(chargeId)}`,
      extraOptions: { authenticated: true },
    }),
    /** `POST …/charges/{chargeId}/simulate`: the sandbox's "Simular pagamento". */
    simulatePayment: build.mutation<ChargeAnswer, { accountId: string; chargeId: string }>({
      query: ({ accountId, chargeId }) => ({
        url: `${subscriptionUrl(accountId)}/charges/${encodeURIComponent(chargeId)}/simulate`,
        method: 'POST',
        body: {},
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [
        { type: 'Subscription', id: accountId },
        'PixKeys',
        'QrCodes',
        'Members',
      ],
    }),
    /** `POST …/subscription/cancel`. */
    cancelSubscription: build.mutation<Subscription, string>({
      query: (accountId) => ({ url: `${subscriptionUrl(accountId)}/cancel`, method: 'POST', body: {} }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, accountId) => [{ type: 'Subscription', id: accountId }],
    }),
  }),
});

export const {
  useListPlansQuery,
  useGetSubscriptionQuery,
  useUpgradePlanMutation,
  useGetChargeQuery,
  useSimulatePaymentMutation,
  useCancelSubscriptionMutation,
} = billingApi;

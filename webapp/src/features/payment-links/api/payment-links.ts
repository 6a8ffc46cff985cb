import { api } from '@/lib/api';

/** A payment link, as `GET /api/accounts/{id}/payment-links` lists it. */
export interface PaymentLink {
  id: string;
  /** The signed `/pagar` address to send to the payer. */
  url: string;
  pixKey: string;
  merchantName: string;
  merchantCity: string;
  amountCentavos: number;
  description: string | null;
  /** When it stops taking payments (RFC 3339), or null for never. */
  expiresAt: string | null;
  createdAt: string;
  revokedAt: string | null;
  /** When a payment of it arrived (RFC 3339): a link is sold once, so it is then `paid`. */
  paidAt: string | null;
  status: 'active' | 'expired' | 'revoked' | 'paid';
}

export interface NewPaymentLink {
  /** A registered key of the account; null when the key is typed. */
  keyId: string | null;
  /** The typed key; null when a registered key is chosen. */
  pixKey: string | null;
  merchantName: string;
  merchantCity: string;
  /** As typed in pt-BR (`"45,90"`). */
  amount: string;
  description: string | null;
  /** Last day it takes payments (`AAAA-MM-DD`), or null for never. */
  expiresOn: string | null;
}

const linksUrl = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/payment-links`;

export const paymentLinksApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/accounts/{accountId}/payment-links`: owners and managers. */
    listPaymentLinks: build.query<PaymentLink[], string>({
      query: (accountId) => linksUrl(accountId),
      extraOptions: { authenticated: true },
      transformResponse: (response: { paymentLinks: PaymentLink[] }) => response.paymentLinks,
      providesTags: (_result, _error, accountId) => [{ type: 'PaymentLinks', id: accountId }],
    }),
    /** `POST /api/accounts/{accountId}/payment-links`: 201 with the link; field problems are 422 with `field`. */
    createPaymentLink: build.mutation<PaymentLink, { accountId: string; link: NewPaymentLink }>({
      query: ({ accountId, link }) => ({ url: linksUrl(accountId), method: 'POST', body: link }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'PaymentLinks', id: accountId }],
    }),
    /** `POST /api/accounts/{accountId}/payment-links/{id}/revoke`. */
    revokePaymentLink: build.mutation<PaymentLink, { accountId: string; linkId: string }>({
      query: ({ accountId, linkId }) => ({
        url: `${linksUrl(accountId)}/${encodeURIComponent(linkId)}/revoke`,
        method: 'POST',
        body: {},
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'PaymentLinks', id: accountId }],
    }),
  }),
});

export const { useListPaymentLinksQuery, useCreatePaymentLinkMutation, useRevokePaymentLinkMutation } = paymentLinksApi;

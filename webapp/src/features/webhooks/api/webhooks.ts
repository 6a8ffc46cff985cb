import { api } from '@/lib/api';

/** What an address can be told of, as the server spells it. */
export type WebhookEvent = 'pagamento.recebido' | 'pagamento.devolvido';

/** An address, as `GET /api/accounts/{id}/webhooks` lists it (never its secret). */
export interface Webhook {
  id: string;
  url: string;
  events: WebhookEvent[];
  createdAt: string;
  /** Deliveries still being tried. */
  pending: number;
  /** Deliveries given up after three days. */
  givenUp: number;
}

export interface WebhookList {
  webhooks: Webhook[];
  events: { event: WebhookEvent; label: string }[];
}

export interface NewWebhook {
  url: string;
  events: WebhookEvent[];
}

/** An address just registered: its signing secret is in this answer and nowhere else, ever. */
export interface CreatedWebhook {
  id: string;
  url: string;
  events: WebhookEvent[];
  secret: string;
}

/** One delivery of an address's log. */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  event: WebhookEvent;
  status: 'entregue' | 'tentando' | 'desistiu';
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

const hooksUrl = (accountId: string) => `/api/accounts/${encodeURIComponent(accountId)}/webhooks`;

export const webhooksApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** `GET /api/accounts/{accountId}/webhooks`: owners and managers. */
    listWebhooks: build.query<WebhookList, string>({
      query: (accountId) => hooksUrl(accountId),
      extraOptions: { authenticated: true },
      providesTags: (_result, _error, accountId) => [{ type: 'Webhooks', id: accountId }],
    }),
    /** `POST /api/accounts/{accountId}/webhooks`: 201 with the secret; field problems are 422 with `problems`. */
    createWebhook: build.mutation<CreatedWebhook, { accountId: string; webhook: NewWebhook }>({
      query: ({ accountId, webhook }) => ({ url: hooksUrl(accountId), method: 'POST', body: webhook }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'Webhooks', id: accountId }],
    }),
    /** `DELETE /api/accounts/{accountId}/webhooks/{endpointId}`: 204. */
    removeWebhook: build.mutation<null, { accountId: string; webhookId: string }>({
      query: ({ accountId, webhookId }) => ({
        url: `${hooksUrl(accountId)}/${encodeURIComponent(webhookId)}`,
        method: 'DELETE',
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { accountId }) => [{ type: 'Webhooks', id: accountId }],
    }),
    /** `POST /api/accounts/{accountId}/webhooks/{endpointId}/segredo`: a new secret; the old one signs beside it for a day. */
    replaceSecret: build.mutation<
      { secret: string; previousValidUntil: string },
      { accountId: string; webhookId: string }
    >({
      query: ({ accountId, webhookId }) => ({
        url: `${hooksUrl(accountId)}/${encodeURIComponent(webhookId)}/segredo`,
        method: 'POST',
        body: {},
      }),
      extraOptions: { authenticated: true },
    }),
    /** `GET /api/accounts/{accountId}/webhooks/{endpointId}/entregas`: the latest 50. */
    listDeliveries: build.query<WebhookDelivery[], { accountId: string; webhookId: string }>({
      query: ({ accountId, webhookId }) => `${hooksUrl(accountId)}/${encodeURIComponent(webhookId)}/entregas`,
      extraOptions: { authenticated: true },
      transformResponse: (response: { deliveries: WebhookDelivery[] }) => response.deliveries,
      providesTags: (_result, _error, { webhookId }) => [{ type: 'Webhooks', id: `entregas-${webhookId}` }],
    }),
    /** `POST /api/accounts/{accountId}/webhooks/entregas/{deliveryId}/reenviar`: 202. */
    redeliver: build.mutation<null, { accountId: string; webhookId: string; deliveryId: string }>({
      query: ({ accountId, deliveryId }) => ({
        url: `${hooksUrl(accountId)}/entregas/${encodeURIComponent(deliveryId)}/reenviar`,
        method: 'POST',
        body: {},
      }),
      extraOptions: { authenticated: true },
      invalidatesTags: (_result, _error, { webhookId }) => [{ type: 'Webhooks', id: `entregas-${webhookId}` }],
    }),
  }),
});

export const {
  useListWebhooksQuery,
  useCreateWebhookMutation,
  useRemoveWebhookMutation,
  useListDeliveriesQuery,
  useRedeliverMutation,
  useReplaceSecretMutation,
} = webhooksApi;

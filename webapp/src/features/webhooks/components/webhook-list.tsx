import { useState } from 'react';

import { BreakableText } from '@/components/breakable-text';
import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { SecretOnce } from '@/components/secret-once';
import { asApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { formatDateTime } from '@/utils/dates';

import {
  type Webhook,
  type WebhookDelivery,
  useListDeliveriesQuery,
  useListWebhooksQuery,
  useRedeliverMutation,
  useRemoveWebhookMutation,
  useReplaceSecretMutation,
} from '../api/webhooks';
import { EVENT_LABELS } from './webhook-form';

export const LIST_FORBIDDEN = 'Seu papel nesta conta não permite ver os webhooks.';

const STATUS_LABEL: Record<WebhookDelivery['status'], string> = {
  entregue: 'Entregue',
  tentando: 'Tentando de novo',
  desistiu: 'Não entregue',
};

function answerOf(delivery: WebhookDelivery): string {
  if (delivery.lastStatus !== null) return `resposta ${delivery.lastStatus}`;
  if (delivery.lastError !== null) return delivery.lastError;
  return 'ainda não tentado';
}

function DeliveryItem({
  accountId,
  webhookId,
  delivery,
}: {
  accountId: string;
  webhookId: string;
  delivery: WebhookDelivery;
}) {
  const [redeliver, { isLoading, error }] = useRedeliverMutation();
  return (
    <li className="delivery">
      <p>
        <strong>{EVENT_LABELS[delivery.event]}</strong>{' '}
        <span className={`badge ${delivery.status}`}>{STATUS_LABEL[delivery.status]}</span>
      </p>
      <p className="hint">
        {formatDateTime(delivery.createdAt)} · {delivery.attempts}{' '}
        {delivery.attempts === 1 ? 'tentativa' : 'tentativas'} · {answerOf(delivery)}
        {delivery.nextAttemptAt === null ? null : <> · próxima em {formatDateTime(delivery.nextAttemptAt)}</>}
      </p>
      {error ? <FormAlert>{errorMessage(asApiError(error))}</FormAlert> : null}
      {delivery.status === 'entregue' ? null : (
        <p className="actions">
          <button
            type="button"
            className="button secondary"
            disabled={isLoading}
            onClick={() => void redeliver({ accountId, webhookId, deliveryId: delivery.id })}
          >
            {isLoading ? 'Reenviando…' : 'Reenviar'}
          </button>
        </p>
      )}
    </li>
  );
}

function Deliveries({ accountId, webhookId }: { accountId: string; webhookId: string }) {
  const { data, error, isLoading } = useListDeliveriesQuery({ accountId, webhookId }, { pollingInterval: 5_000 });
  if (data === undefined) {
    if (isLoading) return <PageStatus>Carregando as entregas…</PageStatus>;
    return (
      <FormAlert>Não foi possível carregar as entregas. {error ? errorMessage(asApiError(error)) : null}</FormAlert>
    );
  }
  if (data.length === 0) return <p>Nenhum aviso enviado ainda. O próximo pagamento aparece aqui.</p>;
  return (
    <ul className="deliveries">
      {data.map((delivery) => (
        <DeliveryItem key={delivery.id} accountId={accountId} webhookId={webhookId} delivery={delivery} />
      ))}
    </ul>
  );
}

function WebhookItem({ accountId, webhook }: { accountId: string; webhook: Webhook }) {
  const [asking, setAsking] = useState(false);
  const [showing, setShowing] = useState(false);
  const [remove, { isLoading, error }] = useRemoveWebhookMutation();
  const [replace, replacing] = useReplaceSecretMutation();
  const replaced = replacing.data;
  return (
    <li className="card webhook" aria-label={webhook.url}>
      <h3 className="link-url">
        <BreakableText text={webhook.url} />
      </h3>
      <dl className="facts">
        <dt>Avisa</dt>
        <dd>{webhook.events.map((event) => EVENT_LABELS[event]).join('; ')}</dd>
        <dt>Cadastrado em</dt>
        <dd>{formatDateTime(webhook.createdAt)}</dd>
        <dt>Entregas</dt>
        <dd>
          {webhook.pending === 0 ? 'Nenhuma pendente' : `${webhook.pending} tentando de novo`}
          {webhook.givenUp === 0 ? null : `; ${webhook.givenUp} não entregues em três dias`}
        </dd>
      </dl>
      <p className="actions">
        <button type="button" className="button secondary" onClick={() => setShowing((shown) => !shown)}>
          {showing ? 'Esconder entregas' : 'Ver entregas'}
        </button>
      </p>
      {showing ? <Deliveries accountId={accountId} webhookId={webhook.id} /> : null}
      {replaced ? (
        <div role="status">
          <p>
            Novo segredo. Guarde-o no seu sistema: ele não será mostrado de novo. Até{' '}
            {formatDateTime(replaced.previousValidUntil)} cada aviso leva também a assinatura com o segredo anterior.
          </p>
          <SecretOnce
            key={replaced.secret}
            secret={replaced.secret}
            copyLabel="Copiar segredo"
            copiedLabel="Segredo copiado"
          />
        </div>
      ) : (
        <p className="actions">
          <button
            type="button"
            className="button secondary"
            disabled={replacing.isLoading}
            onClick={() => void replace({ accountId, webhookId: webhook.id })}
          >
            {replacing.isLoading ? 'Trocando…' : 'Trocar segredo'}
          </button>
        </p>
      )}
      {replacing.error ? <FormAlert>{errorMessage(asApiError(replacing.error))}</FormAlert> : null}
      {error ? <FormAlert>{errorMessage(asApiError(error))}</FormAlert> : null}
      {asking ? (
        <ConfirmBox
          confirmLabel="Sim, remover o endereço"
          busyLabel="Removendo…"
          busy={isLoading}
          onCancel={() => setAsking(false)}
          onConfirm={() => {
            void remove({ accountId, webhookId: webhook.id })
              .unwrap()
              .then(
                () => setAsking(false),
                () => undefined,
              );
          }}
        >
          O Balcão para de avisar este endereço na mesma hora, e os avisos ainda pendentes não serão enviados.
        </ConfirmBox>
      ) : (
        <p className="actions">
          <button type="button" className="button secondary" onClick={() => setAsking(true)}>
            Remover<span className="visually-hidden"> o endereço {webhook.url}</span>
          </button>
        </p>
      )}
    </li>
  );
}

/** The account's webhook addresses, each with its deliveries and a way to remove it. */
export function WebhookList({ accountId }: { accountId: string }) {
  const { data, error, isLoading } = useListWebhooksQuery(accountId);
  if (data === undefined) {
    if (isLoading) return <PageStatus>Carregando os webhooks…</PageStatus>;
    const apiError = error === undefined ? undefined : asApiError(error);
    if (apiError !== undefined && isForbidden(apiError)) return <p className="notice">{LIST_FORBIDDEN}</p>;
    if (apiError !== undefined && isNotFound(apiError)) return <FormAlert>{WORKSPACE_NOT_FOUND}</FormAlert>;
    return (
      <FormAlert>
        Não foi possível carregar os webhooks. {apiError === undefined ? null : errorMessage(apiError)}
      </FormAlert>
    );
  }
  if (data.webhooks.length === 0)
    return <p>Nenhum endereço cadastrado ainda. Cadastre o primeiro no formulário acima.</p>;
  return (
    <ul className="webhooks">
      {data.webhooks.map((webhook) => (
        <WebhookItem key={webhook.id} accountId={accountId} webhook={webhook} />
      ))}
    </ul>
  );
}

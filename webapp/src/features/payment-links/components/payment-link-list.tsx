import { useState } from 'react';

import { BreakableText } from '@/components/breakable-text';
import { ConfirmBox } from '@/components/confirm-box';
import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { asApiError } from '@/lib/api-error';
import { WORKSPACE_NOT_FOUND, errorMessage, isForbidden, isNotFound } from '@/lib/error-messages';
import { formatDate, formatDateTime } from '@/utils/dates';
import { formatCentavos } from '@/utils/money';

import { type PaymentLink, useListPaymentLinksQuery, useRevokePaymentLinkMutation } from '../api/payment-links';

export const LIST_FORBIDDEN = 'Seu papel nesta conta não permite ver os links de pagamento.';

const STATUS_LABEL: Record<PaymentLink['status'], string> = {
  active: 'Ativo',
  expired: 'Expirado',
  revoked: 'Cancelado',
  paid: 'Pago',
};

/** The day a link's expiry falls on: it ends at 00:00 of the next day in Brasília, so one second before. */
function lastDay(expiresAt: string): string {
  return formatDate(new Date(Date.parse(expiresAt) - 1000).toISOString());
}

function LinkItem({ accountId, link }: { accountId: string; link: PaymentLink }) {
  const [asking, setAsking] = useState(false);
  const [revoke, { isLoading, error }] = useRevokePaymentLinkMutation();
  const amount = formatCentavos(link.amountCentavos);
  const summary = `${link.merchantName}, ${amount}`;
  return (
    <li className="card payment-link" aria-label={summary}>
      <h3>
        {link.merchantName} · {amount} <span className={`badge ${link.status}`}>{STATUS_LABEL[link.status]}</span>
      </h3>
      <dl className="facts">
        {link.description ? (
          <>
            <dt>Descrição</dt>
            <dd>{link.description}</dd>
          </>
        ) : null}
        <dt>Chave Pix</dt>
        <dd className="key">
          <BreakableText text={link.pixKey} />
        </dd>
        <dt>Validade</dt>
        <dd>{link.expiresAt === null ? 'Até ser cancelado' : `Até ${lastDay(link.expiresAt)}`}</dd>
        <dt>Criado em</dt>
        <dd>{formatDateTime(link.createdAt)}</dd>
        {link.paidAt === null ? null : (
          <>
            <dt>Pago em</dt>
            <dd>{formatDateTime(link.paidAt)}</dd>
          </>
        )}
      </dl>
      {link.status === 'paid' ? (
        <p className="link-url">
          <a href={link.url}>
            Ver a página do link<span className="visually-hidden"> de {summary}</span>
          </a>{' '}
          (quem abrir verá que ele já foi pago)
        </p>
      ) : null}
      {link.status === 'active' ? (
        <>
          <p className="link-url">
            <a href={link.url}>
              Abrir o link<span className="visually-hidden"> de {summary}</span>
            </a>
          </p>
          {error ? <FormAlert>{errorMessage(asApiError(error))}</FormAlert> : null}
          {asking ? (
            <ConfirmBox
              confirmLabel="Sim, cancelar o link"
              busyLabel="Cancelando…"
              busy={isLoading}
              onCancel={() => setAsking(false)}
              onConfirm={() => {
                void revoke({ accountId, linkId: link.id })
                  .unwrap()
                  .then(
                    () => setAsking(false),
                    () => undefined,
                  );
              }}
            >
              Quem abrir este link verá que ele foi cancelado e não poderá mais pagar por ele. Não dá para desfazer.
            </ConfirmBox>
          ) : (
            <p className="actions">
              <button type="button" className="button secondary" onClick={() => setAsking(true)}>
                Cancelar link<span className="visually-hidden"> de {summary}</span>
              </button>
            </p>
          )}
        </>
      ) : null}
    </li>
  );
}

/** The account's payment links, newest first, each with its address and a way to cancel it. */
export function PaymentLinkList({ accountId }: { accountId: string }) {
  const { data: links, error, isLoading } = useListPaymentLinksQuery(accountId);

  if (links === undefined) {
    if (isLoading) return <PageStatus>Carregando os links…</PageStatus>;
    const apiError = error === undefined ? undefined : asApiError(error);
    if (apiError !== undefined && isForbidden(apiError)) return <p className="notice">{LIST_FORBIDDEN}</p>;
    if (apiError !== undefined && isNotFound(apiError)) return <FormAlert>{WORKSPACE_NOT_FOUND}</FormAlert>;
    return (
      <FormAlert>
        Não foi possível carregar os links. {apiError === undefined ? null : errorMessage(apiError)}
      </FormAlert>
    );
  }
  if (links.length === 0) return <p>Nenhum link de pagamento ainda. Crie o primeiro no formulário acima.</p>;
  return (
    <ul className="payment-links">
      {links.map((link) => (
        <LinkItem key={link.id} accountId={accountId} link={link} />
      ))}
    </ul>
  );
}

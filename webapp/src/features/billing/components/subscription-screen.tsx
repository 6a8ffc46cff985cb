import { useState } from 'react';
import { Link } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { WorkspaceLine } from '@/components/workspace-line';
import { paths } from '@/config/paths';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';
import { formatDate, formatDateTime } from '@/utils/dates';
import { formatCentavos } from '@/utils/money';

import { type Charge, type Subscription, useCancelSubscriptionMutation, useGetSubscriptionQuery } from '../api/billing';
import { priceText } from './plan-cards';

const STATUS: Record<Subscription['status'], string> = {
  gratis: 'Plano Grátis',
  checkout: 'Plano Grátis, com um Pix de assinatura à espera do pagamento',
  active: 'Premium ativo',
  cancelling: 'Premium cancelado: vale até o fim do período pago',
  expired: 'Plano Grátis (o Premium terminou; tudo o que você criou continua aqui)',
};

const CHARGE_STATUS: Record<Charge['status'], string> = {
  open: 'Aguardando pagamento',
  overdue: 'Vencida',
  paid: 'Paga',
  deleted: 'Removida',
  refunded: 'Devolvida',
  cancelled: 'Cancelada',
};

function UsageTable({ subscription }: { subscription: Subscription }) {
  const { usage, plan } = subscription;
  const rows: [string, number, number][] = [
    ['Chaves Pix cadastradas', usage.pixKeys, plan.limits.pixKeys],
    ['QR codes criados neste mês', usage.qrcodesThisMonth, plan.limits.qrcodesPerMonth],
    ['Pessoas na equipe (com convites em aberto)', usage.extraAccounts, plan.limits.extraAccounts],
    ['Webhooks API Pix ligados', usage.apiPixEndpoints, plan.limits.apiPixEndpoints],
  ];
  return (
    <table className="data-table">
      <caption className="visually-hidden">Uso desta conta e limites do plano</caption>
      <thead>
        <tr>
          <th scope="col">Recurso</th>
          <th scope="col">Em uso</th>
          <th scope="col">Limite do plano</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, used, limit]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{used.toLocaleString('pt-BR')}</td>
            <td>{limit.toLocaleString('pt-BR')}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">Logotipo nas placas</th>
          <td colSpan={2}>{plan.limits.logoOnSigns ? 'Incluído' : 'Só no Premium'}</td>
        </tr>
        <tr>
          <th scope="row">Exportação em CSV</th>
          <td colSpan={2}>Incluída em todos os planos</td>
        </tr>
        <tr>
          <th scope="row">Histórico</th>
          <td colSpan={2}>
            {plan.limits.historyDays === null
              ? 'Completo'
              : `Últimos ${plan.limits.historyDays} dias (os anteriores ficam guardados e voltam com o Premium)`}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

function Charges({ charges }: { charges: Charge[] }) {
  if (charges.length === 0) return <p>Nenhuma cobrança ainda.</p>;
  return (
    <table className="data-table">
      <caption className="visually-hidden">Cobranças da assinatura</caption>
      <thead>
        <tr>
          <th scope="col">Data</th>
          <th scope="col">Valor</th>
          <th scope="col">Situação</th>
        </tr>
      </thead>
      <tbody>
        {charges.map((charge) => (
          <tr key={charge.id}>
            <td>{formatDateTime(charge.createdAt)}</td>
            <td>
              {formatCentavos(charge.amountCentavos)}
              {charge.renewal ? ' (renovação)' : ''}
            </td>
            <td>
              {CHARGE_STATUS[charge.status]}
              {charge.paidAt ? ` em ${formatDateTime(charge.paidAt)}` : ''}
              {(charge.status === 'open' || charge.status === 'overdue') && !charge.expired ? (
                <>
                  {' · '}
                  <Link to={charge.checkoutUrl}>Pagar</Link>
                </>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** /painel/assinatura: the plan, usage against each limit, the charges, the renewal date, cancel. */
export function SubscriptionScreen({ workspace }: { workspace: CurrentWorkspace }) {
  const isOwner = workspace.role === 'owner';
  const { data, error } = useGetSubscriptionQuery(workspace.accountId, { skip: !isOwner });
  const [cancel, cancelling] = useCancelSubscriptionMutation();
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>Plano e assinatura</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        Plano e assinatura
      </h1>
      <WorkspaceLine workspace={workspace} />
      {!isOwner ? (
        <p className="notice">Só o proprietário desta conta vê e muda a assinatura.</p>
      ) : data === undefined ? (
        error ? (
          <FormAlert>{errorMessage(asApiError(error))}</FormAlert>
        ) : (
          <PageStatus>Carregando…</PageStatus>
        )
      ) : (
        <>
          <p className="lead">
            <strong>{data.plan.name}</strong> · {priceText(data.plan)}
          </p>
          <p>{STATUS[data.status]}</p>
          {cancelling.data?.notice ? (
            <p className="notice" role="status">
              {cancelling.data.notice}
            </p>
          ) : null}
          {data.activeUntil ? (
            <p>
              {data.status === 'cancelling' ? 'Termina em ' : 'Pago até '}
              <strong>{formatDate(data.activeUntil)}</strong>.
              {data.renewalFrom
                ? ` O Pix da renovação é gerado a partir de ${formatDate(data.renewalFrom)} e aparece nas cobranças abaixo.`
                : ''}
            </p>
          ) : null}
          {data.plan.period === 'free' ? (
            <p className="actions">
              <Link className="button" to={paths.panel.premium}>
                Conhecer o Premium
              </Link>
            </p>
          ) : null}
          <h2>Uso e limites</h2>
          <UsageTable subscription={data} />
          <h2>Cobranças</h2>
          <Charges charges={data.charges} />
          {data.status === 'active' ? (
            <section aria-labelledby="titulo-cancelar">
              <h2 id="titulo-cancelar">Cancelar</h2>
              {cancelling.error ? <FormAlert takeFocus>{errorMessage(asApiError(cancelling.error))}</FormAlert> : null}
              {confirming ? (
                <div className="confirm">
                  <p>
                    O Premium continua até {data.activeUntil ? formatDate(data.activeUntil) : 'o fim do período'} e não
                    é renovado. Depois, a conta volta ao Grátis sem perder nada.
                  </p>
                  <p className="actions">
                    <button
                      type="button"
                      className="button danger"
                      disabled={cancelling.isLoading}
                      onClick={() => void cancel(workspace.accountId)}
                    >
                      Cancelar a assinatura
                    </button>
                    <button type="button" className="button secondary" onClick={() => setConfirming(false)}>
                      Manter
                    </button>
                  </p>
                </div>
              ) : (
                <button type="button" className="button secondary" onClick={() => setConfirming(true)}>
                  Cancelar no fim do período
                </button>
              )}
            </section>
          ) : null}
        </>
      )}
    </section>
  );
}

import { Link } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';
import { formatDate } from '@/utils/dates';

import { useGetSubscriptionQuery } from '../api/billing';
import { limitLines } from './plan-cards';

/**
 * /painel/assinatura-realizada: the payment confirmed, and what it unlocked. The title says the
 * state: an account still on Grátis reads that the payment is not confirmed yet, not "realizada".
 */
export function SubscriptionDoneScreen({ workspace }: { workspace: CurrentWorkspace }) {
  const { data, error } = useGetSubscriptionQuery(workspace.accountId, { refetchOnMountOrArgChange: true });
  const title =
    data === undefined
      ? 'Assinatura'
      : data.plan.period === 'free'
        ? 'Pagamento ainda não confirmado'
        : 'Assinatura realizada';
  return (
    <section aria-labelledby="titulo-tela">
      <PageTitle>{title}</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        {title}
      </h1>
      {data === undefined ? (
        error ? (
          <FormAlert>{errorMessage(asApiError(error))}</FormAlert>
        ) : (
          <PageStatus>Carregando…</PageStatus>
        )
      ) : data.plan.period === 'free' ? (
        <>
          <p className="notice">
            Esta conta continua no plano Grátis: o pagamento ainda não foi confirmado. Assim que for, o Premium vale na
            hora.
          </p>
          <Link to={paths.panel.subscription}>Ver a assinatura</Link>
        </>
      ) : (
        <>
          <p className="lead" role="status">
            Pagamento confirmado. Sua conta é <strong>{data.plan.name}</strong>
            {data.activeUntil ? ` até ${formatDate(data.activeUntil)}` : ''}.
          </p>
          <h2>O que está liberado agora</h2>
          <ul className="checklist">
            {limitLines(data.plan.limits).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="actions">
            <Link className="button" to={paths.panel.qrCodes}>
              Ir para os QR codes
            </Link>
            <Link className="button secondary" to={paths.panel.subscription}>
              Ver a assinatura
            </Link>
          </p>
        </>
      )}
    </section>
  );
}

import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { asApiError } from '@/lib/api-error';
import { errorMessage, isNotFound } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';
import { formatDateTime } from '@/utils/dates';
import { formatCentavos } from '@/utils/money';

import { useGetChargeQuery, useSimulatePaymentMutation } from '../api/billing';

/** How often the page asks whether the Pix was paid. */
export const POLL_MS = 3_000;
/** How long it keeps asking on its own; after that a button asks again (bounded, so a forgotten tab stops). */
export const POLL_FOR_MS = 15 * 60_000;

/** /pagar_asaas?cobranca=…: the Pix of a subscription charge, its live status, and the sandbox's "Simular pagamento". */
export function CheckoutScreen({ workspace, chargeId }: { workspace: CurrentWorkspace; chargeId: string | null }) {
  const navigate = useNavigate();
  const [startedAt, setStartedAt] = useState(() => Date.now());
  const [now, setNow] = useState(() => Date.now());
  const watching = now - startedAt < POLL_FOR_MS;
  const { data, error, refetch } = useGetChargeQuery(
    { accountId: workspace.accountId, chargeId: chargeId ?? '' },
    { skip: chargeId === null, pollingInterval: watching ? POLL_MS : 0, skipPollingIfUnfocused: false },
  );
  const [simulate, simulating] = useSimulatePaymentMutation();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), POLL_MS);
    return () => window.clearInterval(timer);
  }, []);
  const paid = data?.charge.status === 'paid';
  useEffect(() => {
    if (paid && chargeId !== null)
      void navigate(`${paths.panel.subscriptionDone}?cobranca=${encodeURIComponent(chargeId)}`);
  }, [paid, chargeId, navigate]);

  const title = 'Pagar a assinatura';
  const header = (
    <>
      <PageTitle>{title}</PageTitle>
      <h1 id="titulo-tela" tabIndex={-1}>
        {title}
      </h1>
    </>
  );
  if (chargeId === null || (error && isNotFound(asApiError(error)))) {
    return (
      <section aria-labelledby="titulo-tela">
        {header}
        <p className="notice">Cobrança não encontrada nesta conta.</p>
        <Link to={paths.panel.premium}>Ver os planos</Link>
      </section>
    );
  }
  if (data === undefined) {
    return (
      <section aria-labelledby="titulo-tela">
        {header}
        {error ? <FormAlert>{errorMessage(asApiError(error))}</FormAlert> : <PageStatus>Carregando…</PageStatus>}
      </section>
    );
  }
  const { charge } = data;
  const copy = async () => {
    await navigator.clipboard.writeText(charge.pixPayload);
    setCopied(true);
  };
  return (
    <section aria-labelledby="titulo-tela" className="checkout">
      {header}
      <p className="lead">
        {formatCentavos(charge.amountCentavos)} · {charge.plan === 'premium-anual' ? 'Premium anual' : 'Premium mensal'}
      </p>
      {paid ? (
        <p role="status">Pagamento confirmado. Abrindo a sua assinatura…</p>
      ) : charge.expired ? (
        <>
          <p className="notice" role="status">
            Este Pix não pode mais ser pago (
            {charge.status === 'open' ? 'o prazo terminou' : 'a cobrança foi encerrada'}). Gere uma nova cobrança para
            assinar.
          </p>
          <p className="actions">
            <Link className="button" to={`${paths.panel.premium}?plano=${charge.plan}`}>
              Gerar nova cobrança
            </Link>
          </p>
        </>
      ) : (
        <>
          <p>Abra o app do seu banco, escolha pagar com Pix e leia o QR code ou cole o código.</p>
          {charge.qrSvg ? (
            <div
              className="qr"
              role="img"
              aria-label="QR code Pix da assinatura"
              dangerouslySetInnerHTML={{ __html: charge.qrSvg }}
            />
          ) : null}
          <label htmlFor="pix-copia-e-cola">Pix Copia e Cola</label>
          <textarea id="pix-copia-e-cola" className="pix-code" readOnly rows={4} value={charge.pixPayload} />
          <p className="actions">
            <button type="button" className="button secondary" onClick={() => void copy()}>
              {copied ? 'Código copiado' : 'Copiar código'}
            </button>
          </p>
          <p className="hint">Válido até {formatDateTime(charge.expiresAt)}.</p>
          <p role="status" aria-live="polite">
            {watching
              ? 'Aguardando o pagamento… esta página muda sozinha quando ele for confirmado.'
              : 'Paramos de conferir sozinhos.'}
          </p>
          {!watching ? (
            <button
              type="button"
              className="button secondary"
              onClick={() => {
                setStartedAt(Date.now());
                void refetch();
              }}
            >
              Conferir o pagamento
            </button>
          ) : null}
          {data.sandbox ? (
            <div className="notice">
              <p>
                Ambiente de testes: nenhum banco paga este código. Simule o pagamento para ver a assinatura funcionar.
              </p>
              {simulating.error ? <FormAlert takeFocus>{errorMessage(asApiError(simulating.error))}</FormAlert> : null}
              <button
                type="button"
                className="button"
                disabled={simulating.isLoading}
                onClick={() => void simulate({ accountId: workspace.accountId, chargeId: charge.id })}
              >
                Simular pagamento
              </button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

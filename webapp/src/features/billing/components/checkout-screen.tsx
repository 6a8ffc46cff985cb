import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { PageTitle } from '@/components/page-title';
import { paths } from '@/config/paths';
import { useEventStream } from '@/hooks/use-event-stream';
import { asApiError } from '@/lib/api-error';
import { errorMessage, isNotFound } from '@/lib/error-messages';
import type { CurrentWorkspace } from '@/types/workspace';
import { formatDateTime } from '@/utils/dates';
import { formatCentavos } from '@/utils/money';

import { type Charge, useGetChargeQuery, useSimulatePaymentMutation } from '../api/billing';

/** The charge's live stream: `cobranca` `{status}` on connect and whenever the charge changes. */
export function chargeEventsPath(accountId: string, chargeId: string): string {
  return `/api/accounts/${encodeURIComponent(accountId)}/subscription/charges/${encodeURIComponent(chargeId)}/events`;
}

/** The status a `cobranca` event carries, or null when it carries none. */
export function announcedStatus(data: string): Charge['status'] | null {
  try {
    const parsed: unknown = JSON.parse(data);
    if (typeof parsed === 'object' && parsed !== null && 'status' in parsed && typeof parsed.status === 'string')
      return parsed.status as Charge['status'];
  } catch {
    // Not JSON: nothing announced.
  }
  return null;
}

/**
 * /pagar_asaas?cobranca=…: the Pix of a subscription charge, its live status (server-sent events:
 * the page asks for the charge again only when the server announces a change, never on a timer),
 * its expiry (a local timer at `expiresAt`), and the sandbox's "Simular pagamento".
 */
export function CheckoutScreen({ workspace, chargeId }: { workspace: CurrentWorkspace; chargeId: string | null }) {
  const navigate = useNavigate();
  const { data, error, refetch } = useGetChargeQuery(
    { accountId: workspace.accountId, chargeId: chargeId ?? '' },
    { skip: chargeId === null },
  );
  const [simulate, simulating] = useSimulatePaymentMutation();
  const [copied, setCopied] = useState(false);
  const known = data?.charge.status;
  const live = useEventStream(
    chargeId === null || data === undefined ? undefined : chargeEventsPath(workspace.accountId, chargeId),
    {
      onEvent: (event) => {
        if (event.event !== 'cobranca') return;
        const status = announcedStatus(event.data);
        if (status !== null && status !== known) void refetch();
      },
    },
  );

  // The Pix stops being payable at `expiresAt`: switch then, without asking the server.
  const expiresAt = data === undefined ? null : Date.parse(data.charge.expiresAt);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (expiresAt === null || Number.isNaN(expiresAt)) return;
    const timer = window.setTimeout(() => setNow(Date.now()), Math.max(0, expiresAt - Date.now() + 50));
    return () => window.clearTimeout(timer);
  }, [expiresAt]);
  const lapsed = expiresAt !== null && now >= expiresAt;

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
      ) : charge.expired || lapsed ? (
        <>
          <p className="notice" role="status">
            Este Pix não pode mais ser pago (
            {charge.status === 'open' || charge.status === 'overdue' ? 'o prazo terminou' : 'a cobrança foi encerrada'}
            ). Gere uma nova cobrança para assinar.
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
            {live === 'live'
              ? 'Aguardando o pagamento… esta página muda sozinha quando ele for confirmado.'
              : live === 'off'
                ? 'Não foi possível acompanhar o pagamento ao vivo.'
                : 'Conectando para acompanhar o pagamento…'}
          </p>
          {live === 'off' || live === 'retrying' ? (
            <button type="button" className="button secondary" onClick={() => void refetch()}>
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

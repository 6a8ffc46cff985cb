import { useEffect, useRef } from 'react';

import { FormAlert } from '@/components/form-alert';
import { PageStatus } from '@/components/page-status';
import { asApiError } from '@/lib/api-error';
import { errorMessage } from '@/lib/error-messages';
import { formatCentavos } from '@/utils/money';

import { type Payment, useGetPaymentQuery } from '../api/payments';
import { codeLabel, refundStatusLabel, sourceLabel, statusLabel } from '../utils/labels';
import { saoPauloDateTime } from '../utils/periods';
import { PaymentHistory } from './payment-history';
import { RefundPaymentForm } from './refund-payment-form';
import { VoidPaymentForm } from './void-payment-form';

function Facts({ accountId, payment }: { accountId: string; payment: Payment }) {
  const canVoid = payment.source === 'manual' && payment.status === 'received' && payment.confirmedBy === null;
  return (
    <>
      <dl className="facts">
        <dt>Valor</dt>
        <dd>{formatCentavos(payment.amountCentavos)}</dd>
        <dt>Pago em</dt>
        <dd>{saoPauloDateTime(payment.paidAt)}</dd>
        <dt>Situação</dt>
        <dd>{statusLabel(payment)}</dd>
        <dt>Origem</dt>
        <dd>
          {sourceLabel(payment.source)}
          {payment.confirmedBy === null ? null : `, confirmado: ${sourceLabel(payment.confirmedBy)}`}
        </dd>
        <dt>QR code</dt>
        <dd>{codeLabel(payment)}</dd>
        {payment.txid ? (
          <>
            <dt>Txid</dt>
            <dd className="key">{payment.txid}</dd>
          </>
        ) : null}
        <dt>{payment.endToEndId ? 'E2E' : 'Referência'}</dt>
        <dd className="key">{payment.endToEndId ?? payment.reference}</dd>
        {payment.payer?.name || payment.payer?.document ? (
          <>
            <dt>Pagador</dt>
            <dd>{[payment.payer.name, payment.payer.document].filter(Boolean).join(' · ')}</dd>
          </>
        ) : null}
        {payment.payer?.info ? (
          <>
            <dt>Mensagem</dt>
            <dd>{payment.payer.info}</dd>
          </>
        ) : null}
        {payment.note ? (
          <>
            <dt>Observação</dt>
            <dd>{payment.note}</dd>
          </>
        ) : null}
        {payment.voidReason ? (
          <>
            <dt>Motivo da anulação</dt>
            <dd>{payment.voidReason}</dd>
          </>
        ) : null}
      </dl>
      {payment.refunds.length > 0 ? (
        <>
          <h3>Devoluções</h3>
          <ul>
            {payment.refunds.map((refund) => (
              <li key={refund.id}>
                {formatCentavos(refund.amountCentavos)}, {refundStatusLabel(refund.status)}
                {refund.reason ? `: ${refund.reason}` : ''}
                {refund.description ? ` · “${refund.description}”` : ''} (id {refund.id})
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {canVoid ? <VoidPaymentForm key={payment.reference} accountId={accountId} payment={payment} /> : null}
      {payment.refundViaBank === true ? (
        <RefundPaymentForm key={payment.reference} accountId={accountId} payment={payment} />
      ) : null}
      {payment.refundViaBank === false && payment.source !== 'manual' && payment.source !== 'sandbox' ? (
        <p className="hint">
          Para devolver este Pix pelo Balcão, conecte o banco da chave que o recebeu em Chaves → Conectar banco. Sem
          isso, devolva pelo app do banco.
        </p>
      ) : null}
    </>
  );
}

export interface PaymentDetailProps {
  accountId: string;
  /** The row clicked: shown at once, then as the server has it now. */
  payment: Payment;
  onClose: () => void;
}

/** The panel of one payment: its facts, voiding when it may be voided, and its whole history. */
export function PaymentDetail({ accountId, payment, onClose }: PaymentDetailProps) {
  const { data, error } = useGetPaymentQuery({ accountId, reference: payment.reference });
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const node = heading.current;
    node?.focus();
    // jsdom has no scrollIntoView; browsers do.
    if (node && 'scrollIntoView' in node) node.scrollIntoView({ block: 'start' });
  }, [payment.reference]);
  // The list's row has the code's description; the single read does not.
  const current = data === undefined ? payment : { ...data, codeDescription: payment.codeDescription };
  return (
    <section className="payment-detail" aria-labelledby="detalhe-pagamento">
      <div className="detail-head">
        <h2 id="detalhe-pagamento" ref={heading} tabIndex={-1}>
          Pagamento de {formatCentavos(current.amountCentavos)}
        </h2>
        <button type="button" className="button secondary small" onClick={onClose}>
          Fechar<span className="visually-hidden"> detalhes</span>
        </button>
      </div>
      {error === undefined ? null : <FormAlert>{errorMessage(asApiError(error))}</FormAlert>}
      <Facts accountId={accountId} payment={current} />
      <h3>Histórico</h3>
      <p className="hint">Cada registro, como está guardado no Balcão: o que aconteceu, quando, de onde e por quem.</p>
      {data === undefined && error === undefined ? <PageStatus>Carregando…</PageStatus> : null}
      <PaymentHistory accountId={accountId} reference={payment.reference} />
    </section>
  );
}

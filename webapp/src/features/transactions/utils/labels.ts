// How the screen words a payment's source, status and each event of its history.

import { formatCentavos } from '@/utils/money';

import type { Payment, PaymentEventEntry, PaymentSource, Refund, RefundStatus } from '../api/payments';

export const SOURCE_LABELS: Readonly<Record<PaymentSource, string>> = {
  'api-pix': 'Banco (API Pix)',
  manual: 'Registrado à mão',
  sandbox: 'Simulação',
  extrato: 'Extrato bancário',
  'api-pix-consulta': 'Banco (consulta API Pix)',
};

export function sourceLabel(source: string): string {
  return source in SOURCE_LABELS ? SOURCE_LABELS[source as PaymentSource] : source;
}

const REFUND_STATUS: Readonly<Record<RefundStatus, string>> = {
  EM_PROCESSAMENTO: 'em processamento',
  DEVOLVIDO: 'devolvida',
  NAO_REALIZADO: 'não realizada',
  SOLICITADA: 'pedida ao banco, aguardando resposta',
  RECUSADA: 'recusada pelo banco',
};

/** Refunds that hold part of the amount: every one not refused nor left undone. */
export function refundsHolding(refunds: readonly Refund[]): Refund[] {
  return refunds.filter((refund) => refund.status !== 'RECUSADA' && refund.status !== 'NAO_REALIZADO');
}

/** What is left to refund, in centavos. */
export function refundableCentavos(payment: Pick<Payment, 'amountCentavos' | 'refunds'>): number {
  const held = refundsHolding(payment.refunds).reduce((sum, refund) => sum + refund.amountCentavos, 0);
  return Math.max(0, payment.amountCentavos - held);
}

export function refundStatusLabel(status: string): string {
  return status in REFUND_STATUS ? REFUND_STATUS[status as RefundStatus] : status;
}

/** "Recebido", "Anulado", "Recebido, com devolução", "Recebido, devolução em andamento". */
export function statusLabel(payment: Pick<Payment, 'status' | 'refunds'>): string {
  if (payment.status === 'voided') return 'Anulado';
  if (payment.refunds.some((refund) => refund.status === 'DEVOLVIDO')) return 'Recebido, com devolução';
  if (payment.refunds.some((refund) => refund.status === 'SOLICITADA' || refund.status === 'EM_PROCESSAMENTO'))
    return 'Recebido, devolução em andamento';
  return 'Recebido';
}

/** The code (or payment link) a payment paid, as the table names it. */
export function codeLabel(
  payment: Pick<Payment, 'qrcodeId' | 'codeDescription' | 'paymentLinkId' | 'linkDescription'>,
): string {
  if (payment.qrcodeId === null) {
    if (payment.paymentLinkId == null) return 'Sem QR code';
    const link = payment.linkDescription?.trim();
    return link ? `Link de pagamento: ${link}` : 'Link de pagamento sem descrição';
  }
  const description = payment.codeDescription?.trim();
  return description ? description : 'QR code sem descrição';
}

/** What happened, in one sentence. */
export function eventSentence(entry: PaymentEventEntry): string {
  const amount = entry.amountCentavos === undefined ? '' : ` de ${formatCentavos(entry.amountCentavos)}`;
  switch (entry.type) {
    case 'PaymentRecorded':
      if (entry.source === 'manual') return `Pagamento${amount} registrado à mão.`;
      if (entry.source === 'sandbox') return `Pagamento${amount} simulado na página de pagamento.`;
      if (entry.source === 'extrato')
        return entry.statement === undefined
          ? `Pagamento${amount} importado do extrato do banco.`
          : `Pagamento${amount} importado do extrato do banco (${entry.statement.arquivo}, linha ${entry.statement.linha}).`;
      return `Pagamento${amount} informado pelo banco.`;
    case 'PaymentConfirmed':
      return entry.endToEndId === undefined
        ? `O banco confirmou o pagamento${amount}.`
        : `O banco confirmou o pagamento${amount} (E2E ${entry.endToEndId}).`;
    case 'PaymentRefunded':
      if (entry.refund?.amountCentavos === undefined || entry.refund.status === undefined)
        return 'Devolução informada pelo banco.';
      return `Devolução de ${formatCentavos(entry.refund.amountCentavos)} ${refundStatusLabel(entry.refund.status)}${
        entry.refund.reason ? `: ${entry.refund.reason}` : ''
      } (id ${entry.refund.id}).`;
    case 'PaymentVoided':
      return `Pagamento anulado${entry.reason ? `: ${entry.reason}` : '.'}`;
    case 'PaymentRefundRequested':
      return entry.refund?.amountCentavos === undefined
        ? 'Devolução pedida ao banco.'
        : `Devolução de ${formatCentavos(entry.refund.amountCentavos)} pedida ao banco${
            entry.refund.description ? ` (“${entry.refund.description}”)` : ''
          }.`;
    case 'PaymentRefundRefused':
      return `O banco recusou a devolução${entry.reason ? `: ${entry.reason}` : '.'}`;
    default:
      return entry.type;
  }
}

/** Balcão's own workers, as the log names them (`CommandMetadata::by`). */
const SYSTEM_ACTORS: Readonly<Record<string, string>> = {
  'bank-catch-up': 'O Balcão, ao conferir os Pix no banco',
  'bank-refunds': 'O Balcão, ao acompanhar a devolução no banco',
};

/** Who acted, as people read it. */
export function actorLabel(by: PaymentEventEntry['by']): string {
  switch (by.kind) {
    case 'person':
      return by.name ?? 'Uma pessoa que não está mais no Balcão';
    case 'bank':
      return 'O banco, pelo endereço de confirmações';
    case 'sandbox':
      return 'Simulação (Simular pagamento)';
    case 'system':
      return (by.id === undefined ? undefined : SYSTEM_ACTORS[by.id]) ?? 'Balcão';
    default:
      return 'Não registrado';
  }
}

// How the screen words a payment's source, status and each event of its history.

import { formatCentavos } from '@/utils/money';

import type { Payment, PaymentEventEntry, PaymentSource, Refund } from '../api/payments';

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

const REFUND_STATUS: Readonly<Record<Refund['status'], string>> = {
  EM_PROCESSAMENTO: 'em processamento',
  DEVOLVIDO: 'devolvida',
  NAO_REALIZADO: 'não realizada',
};

export function refundStatusLabel(status: string): string {
  return status in REFUND_STATUS ? REFUND_STATUS[status as Refund['status']] : status;
}

/** "Recebido", "Anulado", "Recebido, com devolução". */
export function statusLabel(payment: Pick<Payment, 'status' | 'refunds'>): string {
  if (payment.status === 'voided') return 'Anulado';
  return payment.refunds.length > 0 ? 'Recebido, com devolução' : 'Recebido';
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
      return entry.refund === undefined
        ? 'Devolução informada pelo banco.'
        : `Devolução de ${formatCentavos(entry.refund.amountCentavos)} ${refundStatusLabel(entry.refund.status)} (id ${entry.refund.id}).`;
    case 'PaymentVoided':
      return `Pagamento anulado${entry.reason ? `: ${entry.reason}` : '.'}`;
    default:
      return entry.type;
  }
}

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
      return by.id ?? 'Balcão';
    default:
      return 'Não registrado';
  }
}

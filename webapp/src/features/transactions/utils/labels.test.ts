import { describe, expect, it } from 'vitest';

import type { Refund } from '../api/payments';
import { actorLabel, codeLabel, eventSentence, refundableCentavos, sourceLabel, statusLabel } from './labels';

describe('codeLabel', () => {
  it('names the code a payment paid, or says it has no description', () => {
    expect(codeLabel({ qrcodeId: 'q1', codeDescription: 'Balcão da frente' })).toBe('Balcão da frente');
    expect(codeLabel({ qrcodeId: 'q1', codeDescription: '  ' })).toBe('QR code sem descrição');
  });

  it('names the payment link a payment paid instead of calling it "sem QR code"', () => {
    expect(codeLabel({ qrcodeId: null, paymentLinkId: 'l1', linkDescription: 'Bolo de aniversário' })).toBe(
      'Link de pagamento: Bolo de aniversário',
    );
    expect(codeLabel({ qrcodeId: null, paymentLinkId: 'l1', linkDescription: null })).toBe(
      'Link de pagamento sem descrição',
    );
  });

  it('says "Sem QR code" only for a payment of neither a code nor a link', () => {
    expect(codeLabel({ qrcodeId: null, paymentLinkId: null })).toBe('Sem QR code');
    expect(codeLabel({ qrcodeId: null })).toBe('Sem QR code');
  });
});

describe('a payment imported from a bank statement', () => {
  it('is named by its source and its history says where it came from', () => {
    expect(sourceLabel('extrato')).toBe('Extrato bancário');
    expect(
      eventSentence({
        type: 'PaymentRecorded',
        source: 'extrato',
        amountCentavos: 1250,
      } as Parameters<typeof eventSentence>[0]),
    ).toBe('Pagamento de R$ 12,50 importado do extrato do banco.');
    expect(
      eventSentence({
        type: 'PaymentRecorded',
        source: 'extrato',
        amountCentavos: 1250,
        statement: { arquivo: 'extrato-marco.ofx', linha: 12, importacao: 'imp-1' },
      } as Parameters<typeof eventSentence>[0]),
    ).toBe('Pagamento de R$ 12,50 importado do extrato do banco (extrato-marco.ofx, linha 12).');
    expect(
      eventSentence({
        type: 'PaymentConfirmed',
        source: 'api-pix',
        amountCentavos: 1250,
        endToEndId: 'E87654321202009091221000000000x7',
      } as Parameters<typeof eventSentence>[0]),
    ).toBe('O banco confirmou o pagamento de R$ 12,50 (E2E E87654321202009091221000000000x7).');
  });
});

describe('refunds asked for through the bank', () => {
  const refund = (status: Refund['status'], amountCentavos: number): Refund => ({
    id: `r-${status}`,
    rtrId: '',
    amountCentavos,
    status,
  });

  it('hold the amount unless the bank refused them or did not carry them out', () => {
    const refunds = [
      refund('SOLICITADA', 300),
      refund('RECUSADA', 400),
      refund('NAO_REALIZADO', 500),
      refund('DEVOLVIDO', 100),
    ];
    expect(refundableCentavos({ amountCentavos: 1000, refunds })).toBe(600);
    expect(refundableCentavos({ amountCentavos: 200, refunds })).toBe(0);
  });

  it('say a refund under way apart from one paid back, and nothing for a refused one', () => {
    expect(statusLabel({ status: 'received', refunds: [refund('SOLICITADA', 1)] })).toBe(
      'Recebido, devolução em andamento',
    );
    expect(statusLabel({ status: 'received', refunds: [refund('DEVOLVIDO', 1)] })).toBe('Recebido, com devolução');
    expect(statusLabel({ status: 'received', refunds: [refund('RECUSADA', 1)] })).toBe('Recebido');
  });

  it('tell in the history who asked, what the payer reads and what the bank refused', () => {
    const base = {
      eventId: 'e',
      version: 2,
      at: '2026-11-28T12:00:00.000Z',
      by: { kind: 'person' as const },
      correlationId: null,
      causationId: null,
      requestId: null,
    };
    expect(
      eventSentence({
        ...base,
        type: 'PaymentRefundRequested',
        refund: { id: 'r1', amountCentavos: 1000, description: 'Troca' },
      }),
    ).toBe('Devolução de R$ 10,00 pedida ao banco (“Troca”).');
    expect(
      eventSentence({
        ...base,
        type: 'PaymentRefundRefused',
        refund: { id: 'r1' },
        reason: 'O banco recusou o pedido: saldo',
      }),
    ).toBe('O banco recusou a devolução: O banco recusou o pedido: saldo');
  });
});

describe('actorLabel', () => {
  it('names Balcão’s own workers in words, never by their internal id', () => {
    expect(actorLabel({ kind: 'system', id: 'bank-refunds' })).toBe('O Balcão, ao acompanhar a devolução no banco');
    expect(actorLabel({ kind: 'system', id: 'bank-catch-up' })).toBe('O Balcão, ao conferir os Pix no banco');
    expect(actorLabel({ kind: 'system', id: 'outro-trabalho' })).toBe('Balcão');
  });
});

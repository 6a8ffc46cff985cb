import { describe, expect, it } from 'vitest';

import { codeLabel, eventSentence, sourceLabel } from './labels';

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

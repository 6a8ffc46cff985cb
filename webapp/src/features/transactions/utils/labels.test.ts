import { describe, expect, it } from 'vitest';

import { codeLabel } from './labels';

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

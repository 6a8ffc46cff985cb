import { describe, expect, it } from 'vitest';

import type { Plan } from '../api/billing';
import { limitLines, priceText } from './plan-cards';

const limits = {
  pixKeys: 5,
  qrcodesPerMonth: 100,
  extraAccounts: 5,
  logoOnSigns: false,
  apiPixEndpoints: 1,
  historyDays: 90,
};

describe('the plans as people read them', () => {
  it('price a free, a monthly and a yearly plan in reais from centavos', () => {
    const plan = (priceCentavos: number, period: Plan['period']): Plan => ({
      id: 'premium-mensal',
      name: 'Premium',
      priceCentavos,
      period,
      limits,
    });
    expect(priceText(plan(0, 'free'))).toBe('Grátis');
    expect(priceText(plan(1990, 'month'))).toBe('R$ 19,90 por mês');
    expect(priceText(plan(19900, 'year'))).toBe('R$ 199,00 por ano');
  });

  it('say every limit, one sentence each', () => {
    expect(limitLines(limits)).toEqual([
      'Até 5 chaves Pix cadastradas',
      'Até 100 QR codes criados por mês',
      'Até 5 pessoas na equipe além de você',
      'Placas sem logotipo',
      'Exportação dos pagamentos em CSV',
      '1 endereço de webhook API Pix',
      'Pagamentos dos últimos 90 dias na tela e no CSV (os anteriores ficam guardados)',
    ]);
    expect(
      limitLines({
        ...limits,
        qrcodesPerMonth: 2000,
        logoOnSigns: true,
        apiPixEndpoints: 10,
        historyDays: null,
      }),
    ).toContain('Até 2.000 QR codes criados por mês');
  });
});

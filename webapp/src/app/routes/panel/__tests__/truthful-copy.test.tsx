import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { giveBrowserSessionTo, seedUser } from '@/testing/mocks/db';
import { renderApp } from '@/testing/test-utils';

// Every screen of the menu works today (keys shipped with issue 10, transactions with issue 15, the
// Premium plan with issue 12, CSV export, the logo on signs and the whole history since): none of
// them may say it is still being built or comes "when it is ready" (issue 32, item 5).
const NOT_BUILT = /em construção|está sendo construído|quando ficar(em)? pront[oa]s?|assim que ficar(em)? pront/i;

// "ainda não" only where it is true: each use allowed here, with why.
const TRUE_AINDA_NAO = [
  /ainda não recebeu pagamentos/i, // an empty list, said as such
  /ainda não tem conta/i, // addresses a visitor without an account
  /o pagamento ainda não foi confirmado/i, // a payment's state
];
const untrue = (sentence: string) =>
  NOT_BUILT.test(sentence) ||
  (/ainda não/i.test(sentence) && !TRUE_AINDA_NAO.some((allowed) => allowed.test(sentence)));

describe('the dashboard’s copy promises only what works today', () => {
  it.each([
    ['/painel', 'Olá, Ana'],
    ['/painel/boas-vindas', 'Boas-vindas ao Balcão'],
    ['/painel/contas-extras', 'Contas extras'],
    ['/painel/criar-conta-extra', 'Criar conta extra'],
    ['/painel/chaves', 'Chaves Pix'],
    ['/painel/transacoes', 'Transações'],
    ['/painel/links-de-pagamento', 'Links de pagamento'],
    ['/painel/placas', 'Placas'],
    ['/painel/configuracoes', 'Configurações'],
    ['/painel/criar-qrcode', 'Criar QR code'],
  ])('%s', async (path, heading) => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' }));
    renderApp(path);
    await screen.findByRole('heading', { level: 1, name: heading }, { timeout: 5000 });
    // Lists and role help arrive after the heading.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const main = screen.getByRole('main');
    const sentences = main.textContent.split(/(?<=[.:!?])\s+/);
    expect(sentences.filter(untrue)).toEqual([]);
  });
});

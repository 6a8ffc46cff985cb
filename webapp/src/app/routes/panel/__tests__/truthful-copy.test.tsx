import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { giveBrowserSessionTo, seedUser } from '@/testing/mocks/db';
import { renderApp } from '@/testing/test-utils';

// Every screen of the menu works today (keys shipped with issue 10, transactions with issue 15, the
// Premium plan with issue 12): none of them may say it is still being built.
const NOT_BUILT = /em construção|está sendo construído/i;

describe('the dashboard’s copy promises only what works today', () => {
  it.each([
    ['/painel', 'Olá, Ana'],
    ['/painel/boas-vindas', 'Boas-vindas ao Balcão'],
    ['/painel/contas-extras', 'Contas extras'],
    ['/painel/criar-conta-extra', 'Criar conta extra'],
    ['/painel/chaves', 'Chaves Pix'],
    ['/painel/transacoes', 'Transações'],
  ])('%s', async (path, heading) => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' }));
    renderApp(path);
    await screen.findByRole('heading', { level: 1, name: heading }, { timeout: 5000 });
    // Lists and role help arrive after the heading.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const main = screen.getByRole('main');
    const sentences = main.textContent.split(/(?<=[.:!?])\s+/);
    expect(sentences.filter((sentence) => NOT_BUILT.test(sentence))).toEqual([]);
  });
});

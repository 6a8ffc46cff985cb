import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { db, giveBrowserSessionTo, seedMembership, seedUser } from '@/testing/mocks/db';
import { renderApp } from '@/testing/test-utils';

const form = () => screen.findByRole('form', { name: 'Cadastrar chave Pix' });

describe('/painel/chaves', () => {
  it('registers a key, which becomes the default and is listed formatted', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' }));
    const app = renderApp('/painel/chaves');
    const register = await form();
    expect(screen.queryByText('Esta tela ainda está em construção.')).not.toBeInTheDocument();
    await app.user.selectOptions(within(register).getByLabelText('Tipo da chave'), 'CPF');
    await app.user.type(within(register).getByLabelText('Chave Pix'), '52998224725');
    await app.user.type(within(register).getByLabelText(/Nome do titular/), 'Ana Souza');
    await app.user.type(within(register).getByLabelText(/Apelido/), 'Caixa da loja');
    await app.user.click(within(register).getByRole('button', { name: 'Cadastrar chave' }));

    expect(await screen.findByText(/cadastrada: é a chave padrão desta conta/)).toBeInTheDocument();
    const card = (await screen.findByRole('heading', { name: /Caixa da loja/ })).closest('li');
    expect(card).not.toBeNull();
    expect(within(card as HTMLElement).getByText('529.982.247-25')).toBeInTheDocument();
    expect(within(card as HTMLElement).getByText('Padrão')).toBeInTheDocument();
    expect(db.pixKeys[0]?.pixKey).toBe('52998224725');
  });

  it('keeps an e-mail typed under the kind CPF and says why it is not a CPF', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' }));
    const app = renderApp('/painel/chaves');
    const register = await form();
    await app.user.selectOptions(within(register).getByLabelText('Tipo da chave'), 'CPF');
    await app.user.type(within(register).getByLabelText('Chave Pix'), 'bia@loja.com');
    await app.user.type(within(register).getByLabelText(/Nome do titular/), 'Beatriz Lima');
    await app.user.click(within(register).getByRole('button', { name: 'Cadastrar chave' }));
    const key = within(register).getByLabelText('Chave Pix');
    expect(key).toHaveValue('bia@loja.com');
    expect(key).toHaveAccessibleDescription(/Isto não é um CPF: um CPF tem 11 números/);
    expect(key).not.toHaveAccessibleDescription(/Campo obrigatório/);
    expect(db.pixKeys).toHaveLength(0);
  });

  it('shows every field error at once before sending anything', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    const app = renderApp('/painel/chaves');
    const register = await form();
    await app.user.type(within(register).getByLabelText(/Apelido/), 'x'.repeat(41));
    await app.user.click(within(register).getByRole('button', { name: 'Cadastrar chave' }));
    expect(await within(register).findAllByText('Campo obrigatório.')).toHaveLength(2);
    expect(within(register).getByText('Use no máximo 40 caracteres.')).toBeInTheDocument();
    expect(db.pixKeys).toHaveLength(0);
  });

  it('says under the key field that the key is already registered', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    const app = renderApp('/painel/chaves');
    for (let round = 0; round < 2; round++) {
      const register = await form();
      await app.user.clear(within(register).getByLabelText('Chave Pix'));
      await app.user.type(within(register).getByLabelText('Chave Pix'), 'loja@exemplo.com');
      await app.user.clear(within(register).getByLabelText(/Nome do titular/));
      await app.user.type(within(register).getByLabelText(/Nome do titular/), 'Ana');
      await app.user.click(within(register).getByRole('button', { name: 'Cadastrar chave' }));
      if (round === 0) await screen.findByText(/cadastrada: é a chave padrão/);
    }
    expect(await screen.findByText('Esta chave Pix já está cadastrada nesta conta.')).toBeInTheDocument();
    expect(db.pixKeys).toHaveLength(1);
  });

  it('lets an operator see the keys of the account in use but not change them', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
    const bruno = seedUser({ email: 'bruno@exemplo.com', displayName: 'Mercearia do Bruno' });
    seedMembership(bruno, ana, 'operator');
    db.pixKeys.push({
      id: 'chave-bruno',
      accountId: bruno.uid,
      kind: 'email',
      pixKey: 'bruno@exemplo.com',
      label: null,
      holderName: 'Bruno Lima',
      isDefault: true,
      createdAt: '2026-11-02T12:00:00.000Z',
      removedAt: null,
    });
    giveBrowserSessionTo(ana);
    const app = renderApp('/painel/chaves');
    await app.user.selectOptions(
      await screen.findByRole('combobox', { name: 'Conta em uso' }),
      'Mercearia do Bruno (Operador)',
    );
    expect(await screen.findByText('bruno@exemplo.com')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Cadastrar chave Pix' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remover/ })).not.toBeInTheDocument();
  });
});

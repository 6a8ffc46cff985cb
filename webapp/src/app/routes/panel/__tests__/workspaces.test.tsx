import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { giveBrowserSessionTo, seedMembership, seedQrCode, seedUser } from '@/testing/mocks/db';
import { renderApp } from '@/testing/test-utils';

/** Ana owns her account and works in Bruno's as `role`. */
function anaInBrunosAccount(role: 'manager' | 'operator') {
  const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
  const bruno = seedUser({ email: 'bruno@exemplo.com', displayName: 'Mercearia do Bruno' });
  seedMembership(bruno, ana, role);
  giveBrowserSessionTo(ana);
  return { ana, bruno };
}

const switcher = () => screen.findByRole('combobox', { name: 'Conta em uso' });

describe('the workspace switcher', () => {
  it('is not shown to someone with only their own account', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    renderApp('/painel');
    await screen.findByRole('heading', { name: 'Olá, Ana' });
    expect(screen.queryByRole('combobox', { name: 'Conta em uso' })).not.toBeInTheDocument();
  });

  it('lists the own account first and the others with the role, starting on the own account', async () => {
    anaInBrunosAccount('manager');
    renderApp('/painel');
    const select = await switcher();
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Ana Souza (sua conta)', 'Mercearia do Bruno (Gerente)']);
    expect(select).toHaveDisplayValue('Ana Souza (sua conta)');
  });

  it('switches the screens that act on an account to the chosen one', async () => {
    const { ana, bruno } = anaInBrunosAccount('manager');
    seedQrCode(ana, { merchantName: 'ANA SOUZA', amountCentavos: 500 });
    seedQrCode(bruno, { merchantName: 'MERCEARIA DO BRUNO', amountCentavos: 1250 });
    const app = renderApp('/painel/qrcodes');
    expect(await screen.findByRole('listitem', { name: 'ANA SOUZA, R$ 5,00' })).toBeInTheDocument();

    await app.user.selectOptions(await switcher(), 'Mercearia do Bruno (Gerente)');

    expect(await screen.findByRole('listitem', { name: 'MERCEARIA DO BRUNO, R$ 12,50' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'ANA SOUZA, R$ 5,00' })).not.toBeInTheDocument();
    expect(screen.getByText(/seu papel: Gerente/)).toHaveTextContent('Conta: Mercearia do Bruno · seu papel: Gerente');
  });

  it('hides "Contas extras" from an operator of the account in use, and shows it back in their own', async () => {
    anaInBrunosAccount('operator');
    const app = renderApp('/painel');
    const nav = await screen.findByRole('navigation', { name: 'Painel' });
    expect(within(nav).getByRole('link', { name: 'Contas extras' })).toBeInTheDocument();

    await app.user.selectOptions(await switcher(), 'Mercearia do Bruno (Operador)');
    expect(within(nav).queryByRole('link', { name: 'Contas extras' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'QR codes' })).toBeInTheDocument();

    await app.user.selectOptions(await switcher(), 'Ana Souza (sua conta)');
    expect(within(nav).getByRole('link', { name: 'Contas extras' })).toBeInTheDocument();
  });

  it('starts the next person on a shared phone in their own account', async () => {
    anaInBrunosAccount('manager');
    const app = renderApp('/painel');
    await app.user.selectOptions(await switcher(), 'Mercearia do Bruno (Gerente)');
    await app.user.click(screen.getByRole('button', { name: 'Sair' }));

    const carla = seedUser({ email: 'carla@exemplo.com', displayName: 'Carla Mendes' });
    const dani = seedUser({ email: 'dani@exemplo.com', displayName: 'Dani Rocha' });
    seedMembership(dani, carla, 'operator');
    await app.user.type(await screen.findByLabelText('E-mail'), carla.email);
    await app.user.type(screen.getByLabelText('Senha'), carla.password);
    await app.user.click(screen.getByRole('button', { name: 'Entrar' }));

    expect(await switcher()).toHaveDisplayValue('Carla Mendes (sua conta)');
  });
});

describe('the account in use', () => {
  it('survives a reload: the next screen acts in the account chosen before, not the person’s own', async () => {
    const { bruno } = anaInBrunosAccount('operator');
    bruno.defaultMerchantName = 'MERCEARIA DO BRUNO';
    bruno.defaultMerchantCity = 'RECIFE';
    const first = renderApp('/painel/criar-qrcode');
    await first.user.selectOptions(await switcher(), 'Mercearia do Bruno (Operador)');
    expect(await screen.findByText(/seu papel: Operador/)).toBeInTheDocument();
    first.unmount();

    // A reload: a new store (nothing chosen in this tab), the same device.
    renderApp('/painel/criar-qrcode');
    expect(await switcher()).toHaveDisplayValue('Mercearia do Bruno (Operador)');
    expect(await screen.findByText(/seu papel: Operador/)).toHaveTextContent('Conta: Mercearia do Bruno');
    // The code form starts with the account's own name and city, not the operator's.
    expect(await screen.findByLabelText(/Nome/)).toHaveValue('MERCEARIA DO BRUNO');
    expect(screen.getByLabelText(/Cidade/)).toHaveValue('RECIFE');
  });

  it('falls back to the person’s own account when the remembered one is no longer theirs', async () => {
    const { ana } = anaInBrunosAccount('manager');
    // eslint-disable-next-line no-restricted-properties -- the remembered account in use, not a token
    window.localStorage.setItem(`balcao:conta-em-uso:${ana.uid}`, 'conta-que-nao-existe');
    renderApp('/painel');
    expect(await switcher()).toHaveDisplayValue('Ana Souza (sua conta)');
  });
});

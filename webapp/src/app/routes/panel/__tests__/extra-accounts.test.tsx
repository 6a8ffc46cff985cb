import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { db, giveBrowserSessionTo, seedInvitation, seedMembership, seedUser } from '@/testing/mocks/db';
import { apiError, fieldError } from '@/testing/mocks/handlers/api-error';
import { callTimes, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

function owner() {
  const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
  giveBrowserSessionTo(ana);
  return ana;
}

describe('/painel/contas-extras', () => {
  it('lists the extra accounts with their role and status', async () => {
    const ana = owner();
    seedMembership(ana, seedUser({ email: 'bruno@exemplo.com' }), 'manager');
    seedInvitation(ana, 'carla@exemplo.com', 'operator');
    renderApp('/painel/contas-extras');

    const table = await screen.findByRole('table', { name: 'Contas extras desta conta' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['bruno@exemplo.com', 'Gerente', 'Ativa'],
      ['carla@exemplo.com', 'Operador', 'Convite enviado'],
    ]);
    expect(screen.getByRole('link', { name: 'Criar conta extra' })).toHaveAttribute(
      'href',
      '/painel/criar-conta-extra',
    );
  });

  it('revokes an extra account only after confirmation', async () => {
    const ana = owner();
    const bruno = seedMembership(ana, seedUser({ email: 'bruno@exemplo.com' }), 'manager');
    const app = renderApp('/painel/contas-extras');

    await app.user.click(await screen.findByRole('button', { name: 'Revogar bruno@exemplo.com' }));
    const confirm = screen.getByRole('group', { name: /Revogar o acesso de bruno@exemplo.com\?/ });
    expect(within(confirm).getByRole('button', { name: 'Sim, revogar' })).toHaveFocus();
    await app.user.click(within(confirm).getByRole('button', { name: 'Manter' }));
    expect(db.members.has(bruno.invitationId)).toBe(true);
    expect(callTimes(`DELETE /api/accounts/${ana.uid}/members/${bruno.invitationId}`)).toEqual([]);

    await app.user.click(screen.getByRole('button', { name: 'Revogar bruno@exemplo.com' }));
    await app.user.click(screen.getByRole('button', { name: 'Sim, revogar' }));
    expect(await screen.findByText('bruno@exemplo.com não tem mais acesso a esta conta.')).toHaveFocus();
    expect(db.members.has(bruno.invitationId)).toBe(false);
    expect(await screen.findByText(/Nenhuma conta extra por enquanto/)).toBeInTheDocument();
  });

  it('cancels a pending invitation the same way, in its own words', async () => {
    const ana = owner();
    seedInvitation(ana, 'carla@exemplo.com', 'operator');
    const app = renderApp('/painel/contas-extras');
    await app.user.click(await screen.findByRole('button', { name: 'Cancelar o convite para carla@exemplo.com' }));
    const confirm = screen.getByRole('group', { name: /Cancelar o convite para carla@exemplo.com\?/ });
    expect(within(confirm).getByRole('button', { name: 'Sim, cancelar o convite' })).toHaveFocus();
    await app.user.click(within(confirm).getByRole('button', { name: 'Sim, cancelar o convite' }));
    expect(await screen.findByText('Convite para carla@exemplo.com cancelado.')).toHaveFocus();
  });

  it('tells a manager (403) that their role does not allow it', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
    const bruno = seedUser({ email: 'bruno@exemplo.com', displayName: 'Mercearia do Bruno' });
    seedMembership(bruno, ana, 'manager');
    giveBrowserSessionTo(ana);
    const app = renderApp('/painel/contas-extras');
    await app.user.selectOptions(
      await screen.findByRole('combobox', { name: 'Conta em uso' }),
      'Mercearia do Bruno (Gerente)',
    );
    expect(await screen.findByText('Seu papel nesta conta não permite ver as contas extras.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Criar conta extra' })).not.toBeInTheDocument();
  });

  it('says the account was not found (404), e.g. after being removed from it', async () => {
    owner();
    server.use(http.get('/api/accounts/:id/members', () => apiError(404, 'not-found', 'Não encontrada.')));
    renderApp('/painel/contas-extras');
    expect(await screen.findByRole('alert')).toHaveTextContent(/Esta conta não foi encontrada/);
  });
});

describe('/painel/criar-conta-extra', () => {
  async function invite(email: string, role?: 'Gerente' | 'Operador') {
    const app = renderApp('/painel/criar-conta-extra');
    const form = await screen.findByRole('form', { name: 'Convidar conta extra' });
    await app.user.type(within(form).getByLabelText('E-mail da pessoa'), email);
    if (role) await app.user.selectOptions(within(form).getByLabelText('Papel'), role);
    await app.user.click(within(form).getByRole('button', { name: 'Enviar convite' }));
    return { ...app, form };
  }

  it('explains both roles next to the role select', async () => {
    owner();
    renderApp('/painel/criar-conta-extra');
    const role = await screen.findByLabelText('Papel');
    expect(role).toHaveAccessibleDescription(
      'Gerente: cadastra chaves Pix, cria QR codes e placas e vê todos os QR codes e pagamentos da conta. Operador: vê as chaves Pix, cria QR codes e placas e vê os QR codes que criou e os pagamentos deles.',
    );
  });

  it('invites someone by e-mail as manager', async () => {
    const ana = owner();
    const { form } = await invite('bruno@exemplo.com', 'Gerente');
    const sent = await within(form).findByRole('status');
    expect(sent).toHaveTextContent('Convite enviado para bruno@exemplo.com, como Gerente.');
    expect(sent).toHaveFocus();
    expect([...db.members.values()]).toEqual([
      expect.objectContaining({ accountId: ana.uid, email: 'bruno@exemplo.com', role: 'manager', status: 'invited' }),
    ]);
  });

  it('says the e-mail was already invited (409), under the e-mail', async () => {
    const ana = owner();
    seedInvitation(ana, 'bruno@exemplo.com', 'operator');
    const { form } = await invite('bruno@exemplo.com');
    await waitFor(() =>
      expect(within(form).getByLabelText('E-mail da pessoa')).toHaveAccessibleDescription(
        'Este e-mail já foi convidado para esta conta.',
      ),
    );
    expect(db.members.size).toBe(1);
  });

  it('shows a 422 under the field it names', async () => {
    owner();
    const { form } = await invite('ana@exemplo.com');
    await waitFor(() =>
      expect(within(form).getByLabelText('E-mail da pessoa')).toHaveAccessibleDescription(
        'Você não pode convidar o seu próprio e-mail.',
      ),
    );
  });

  it('checks the e-mail before sending anything', async () => {
    owner();
    const { form } = await invite('bruno@');
    expect(within(form).getByLabelText('E-mail da pessoa')).toHaveAccessibleDescription(
      'Digite um e-mail válido (ex.: nome@exemplo.com).',
    );
    expect(callTimes('POST /api/accounts/uid-1/members')).toEqual([]);
  });

  it('tells someone whose role does not allow inviting (403)', async () => {
    owner();
    server.use(http.post('/api/accounts/:id/members', () => apiError(403, 'forbidden', 'Proibido.')));
    const { form } = await invite('bruno@exemplo.com');
    const refused = await within(form).findByRole('alert');
    expect(refused).toHaveTextContent('Seu papel nesta conta não permite convidar contas extras.');
    expect(refused).toHaveFocus();
  });

  it('shows a role refused by the server under the role select', async () => {
    owner();
    server.use(
      http.post('/api/accounts/:id/members', () => fieldError('invalid-role', 'Escolha Gerente ou Operador.', 'role')),
    );
    const { form } = await invite('bruno@exemplo.com');
    await waitFor(() =>
      expect(within(form).getByLabelText('Papel')).toHaveAccessibleDescription(/Escolha Gerente ou Operador\./),
    );
  });

  it('shows only what is wrong now: the next submit replaces the server’s role error with the e-mail’s', async () => {
    owner();
    server.use(
      http.post('/api/accounts/:id/members', () => fieldError('invalid-role', 'Escolha Gerente ou Operador.', 'role')),
    );
    const { form, user } = await invite('bruno@exemplo.com');
    await waitFor(() => expect(within(form).getByLabelText('Papel')).toHaveAttribute('aria-invalid', 'true'));

    await user.clear(within(form).getByLabelText('E-mail da pessoa'));
    await user.click(within(form).getByRole('button', { name: 'Enviar convite' }));
    expect(within(form).getByLabelText('E-mail da pessoa')).toHaveAccessibleDescription('Campo obrigatório.');
    expect(within(form).getByLabelText('E-mail da pessoa')).toHaveFocus();
    expect(within(form).getByLabelText('Papel')).not.toHaveAttribute('aria-invalid');
  });
});

describe('/painel/criar-conta-extra: a role that cannot invite', () => {
  it.each([
    ['operator', 'Operador', 'operador'],
    ['manager', 'Gerente', 'gerente'],
  ] as const)('shows a(n) %s why they cannot invite, instead of the form', async (role, label, inWords) => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
    const bruno = seedUser({ email: 'bruno@exemplo.com', displayName: 'Mercearia do Bruno' });
    seedMembership(bruno, ana, role);
    giveBrowserSessionTo(ana);
    const app = renderApp('/painel/criar-conta-extra');
    await app.user.selectOptions(
      await screen.findByRole('combobox', { name: 'Conta em uso' }),
      `Mercearia do Bruno (${label})`,
    );
    expect(
      await screen.findByText(
        `Só o titular desta conta convida contas extras. Você está nela como ${inWords}: se alguém precisa entrar, peça ao titular.`,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Convidar conta extra' })).not.toBeInTheDocument();
    expect(callTimes('POST /api/accounts/uid-2/members')).toEqual([]);
  });
});

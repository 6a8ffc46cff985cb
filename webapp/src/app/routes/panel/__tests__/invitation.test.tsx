import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { db, giveBrowserSessionTo, seedInvitation, seedUser } from '@/testing/mocks/db';
import { callTimes } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const ACCEPT = 'POST /api/invitations/accept';

function brunoInvitesAna(role: 'manager' | 'operator' = 'manager') {
  const bruno = seedUser({ email: 'bruno@exemplo.com', displayName: 'Mercearia do Bruno' });
  const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
  const { member, code } = seedInvitation(bruno, ana.email, role);
  return { bruno, ana, member, code };
}

describe('/painel/convite', () => {
  it('accepts the invitation once, switches to that account and says which account and role', async () => {
    const { ana, member, code } = brunoInvitesAna('manager');
    giveBrowserSessionTo(ana);
    renderApp(`/painel/convite?codigo=${code}`);

    const status = await screen.findByText(/Pronto! Agora você faz parte da conta/);
    expect(await screen.findByText('Mercearia do Bruno', { selector: 'strong' })).toBeInTheDocument();
    expect(status).toHaveTextContent(
      'Pronto! Agora você faz parte da conta Mercearia do Bruno como Gerente: cadastra chaves Pix, cria QR codes e placas e vê todos os QR codes e pagamentos da conta.',
    );
    expect(await screen.findByRole('combobox', { name: 'Conta em uso' })).toHaveDisplayValue(
      'Mercearia do Bruno (Gerente)',
    );
    expect(db.members.get(member.invitationId)).toMatchObject({ status: 'active', memberUid: ana.uid });
    expect(callTimes(ACCEPT)).toHaveLength(1);
  });

  it('sends a signed-out visitor to /entrar and back to the invitation after signing in', async () => {
    const { ana, code } = brunoInvitesAna('operator');
    const app = renderApp(`/painel/convite?codigo=${code}`);
    await screen.findByRole('heading', { name: 'Entrar' });
    expect(app.location()).toBe(`/entrar?continuar=%2Fpainel%2Fconvite%3Fcodigo%3D${code}`);
    // A visitor holding the link may not be the invitee: the role, not who invites.
    expect(await screen.findByText(/Você foi convidado para uma conta/)).toHaveTextContent(
      'Você foi convidado para uma conta do Balcão como operador. Entre ou crie sua conta para aceitar.',
    );
    expect(screen.queryByText(/Mercearia do Bruno/)).not.toBeInTheDocument();
    expect(callTimes(ACCEPT)).toEqual([]);

    await app.user.type(screen.getByLabelText('E-mail'), ana.email);
    await app.user.type(screen.getByLabelText('Senha'), ana.password);
    await app.user.click(screen.getByRole('button', { name: 'Entrar' }));

    expect(await screen.findByText(/Pronto! Agora você faz parte da conta/)).toHaveTextContent(
      'como Operador: vê as chaves Pix, cria QR codes e placas e vê os QR codes que criou e os pagamentos deles.',
    );
    expect(app.location()).toBe(`/painel/convite?codigo=${code}`);
  });

  it('says the link expired or was already used', async () => {
    const { ana, code } = brunoInvitesAna();
    const spent = db.actionCodes.get(code);
    if (spent) spent.used = true;
    giveBrowserSessionTo(ana);
    renderApp(`/painel/convite?codigo=${code}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Este link expirou ou já foi usado.');
    expect(screen.getByText(/Peça a quem convidou você para enviar um convite novo/)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Conta em uso' })).not.toBeInTheDocument();
  });

  it('tells someone signed in with another address to sign out and come back with the invited one', async () => {
    const { code, member } = brunoInvitesAna();
    const carla = seedUser({ email: 'carla@exemplo.com', displayName: 'Carla' });
    giveBrowserSessionTo(carla);
    const app = renderApp(`/painel/convite?codigo=${code}`);

    expect(await screen.findByRole('alert')).toHaveTextContent('Este convite foi enviado para outro e-mail.');
    expect(screen.getByText(/Só a conta do e-mail que recebeu o convite pode aceitá-lo/)).toBeInTheDocument();
    expect(db.members.get(member.invitationId)).toMatchObject({ status: 'invited', memberUid: null });

    const [signOut] = screen.getAllByRole('button', { name: 'Sair' });
    if (signOut === undefined) throw new Error('no “Sair” button');
    await app.user.click(signOut);
    await screen.findByRole('heading', { name: 'Entrar' });
    expect(app.location()).toBe('/entrar');
  });

  it('explains an incomplete link without calling the server', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    renderApp('/painel/convite');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Este link de convite está incompleto. Abra de novo o link do e-mail.',
    );
    expect(callTimes(ACCEPT)).toEqual([]);
  });

  it('says what is going on on /criar-conta too, and the invitation is still good afterwards', async () => {
    const { member, code } = brunoInvitesAna('manager');
    const app = renderApp(`/painel/convite?codigo=${code}`);
    // Each page's code loads on demand, slower on a cold test run.
    await screen.findByRole('heading', { name: 'Entrar' }, { timeout: 5000 });
    await app.user.click(await screen.findByRole('link', { name: 'Criar conta' }));
    expect(await screen.findByRole('heading', { name: 'Criar conta' }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText(/Você foi convidado para uma conta/)).toHaveTextContent(
      'Você foi convidado para uma conta do Balcão como gerente. Crie sua conta (ou entre, se já tem uma) para aceitar.',
    );
    expect(db.members.get(member.invitationId)?.status).toBe('invited');
    expect(db.actionCodes.get(code)?.used).toBe(false);
  });

  it('says on /entrar that a spent invitation is spent, before anyone signs in', async () => {
    const { code } = brunoInvitesAna();
    const spent = db.actionCodes.get(code);
    if (spent) spent.used = true;
    renderApp(`/painel/convite?codigo=${code}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Este convite expirou, já foi usado ou foi cancelado. Peça um novo a quem convidou você.',
    );
  });

  it('says nothing about invitations on /entrar reached any other way', async () => {
    renderApp('/entrar?continuar=%2Fpainel%2Fqrcodes');
    await screen.findByRole('heading', { name: 'Entrar' });
    expect(screen.queryByText(/convite/i)).not.toBeInTheDocument();
    expect(callTimes('POST /api/invitations/check')).toEqual([]);
  });
});

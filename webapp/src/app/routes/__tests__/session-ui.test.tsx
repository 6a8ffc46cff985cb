import { act, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { db, giveBrowserSessionTo, seedUser } from '@/testing/mocks/db';
import { callTimes, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('signing out', () => {
  it('revokes the session, lands on /entrar with a notice, and keeps /painel closed', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    const app = renderApp('/painel');
    await app.user.click(await screen.findByRole('button', { name: 'Sair' }));

    expect(await screen.findByText('Você saiu da sua conta.')).toBeInTheDocument();
    expect(app.location()).toBe('/entrar');
    expect(callTimes('POST /api/auth/revoke')).toHaveLength(1);
    expect(db.refreshCookie).toBeNull();

    // Signed out by choice: no ?continuar= back to the dashboard.
    await act(() => app.router.navigate('/painel/chaves'));
    await waitFor(() => expect(app.location()).toBe('/entrar'));
  });

  it('keeps the user signed in, and says so, when the server cannot be reached', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    server.use(http.post('/api/auth/revoke', () => HttpResponse.error()));
    const app = renderApp('/painel');
    await app.user.click(await screen.findByRole('button', { name: 'Sair' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Não foi possível sair. Não foi possível conectar. Verifique sua internet e tente novamente.',
    );
    expect(app.location()).toBe('/painel');
  });
});

describe('a session that cannot be restored', () => {
  it('shows "Sem conexão" and restores it when the user tries again', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    server.use(http.post('/api/auth/token', () => HttpResponse.error(), { once: true }));
    const app = renderApp('/painel');

    expect(await screen.findByRole('heading', { name: 'Sem conexão' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Tentar agora' }));
    expect(await screen.findByRole('heading', { name: 'Olá, Ana' })).toBeInTheDocument();
  });
});

describe('the dashboard home', () => {
  it('reminds an account with an unconfirmed e-mail to open the link', async () => {
    giveBrowserSessionTo(seedUser({ email: 'bia@exemplo.com', displayName: 'Beatriz Lima', emailVerified: false }));
    renderApp('/painel');
    expect(await screen.findByRole('heading', { name: 'Olá, Beatriz' })).toBeInTheDocument();
    expect(await screen.findByText(/Abra o link de confirmação que enviamos para bia@exemplo.com/)).toBeInTheDocument();
  });
});

import { act, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { createActionCode, db, giveBrowserSessionTo, seedUser } from '@/testing/mocks/db';
import { callTimes, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('/verificar-email', () => {
  it('confirms the address as soon as the link opens, once', async () => {
    const user = seedUser({ email: 'ana@exemplo.com', emailVerified: false });
    renderApp(`/verificar-email?oobCode=${createActionCode(user, 'verify-email')}`);
    expect(await screen.findByText('E-mail confirmado. Obrigado!')).toBeInTheDocument();
    expect(user.emailVerified).toBe(true);
    expect(callTimes('POST /api/auth/verify-email')).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Ir para o painel' })).toHaveAttribute('href', '/painel');
  });

  it('also opens a change-of-e-mail link: the account moves to the new address', async () => {
    const user = seedUser({ email: 'ana@exemplo.com' });
    const code = createActionCode(user, 'change-email', { newEmail: 'ana.nova@exemplo.com' });
    renderApp(`/verificar-email?oobCode=${code}`);
    expect(await screen.findByText('E-mail confirmado. Obrigado!')).toBeInTheDocument();
    expect(user.email).toBe('ana.nova@exemplo.com');
    expect(db.users.has('ana.nova@exemplo.com')).toBe(true);
    expect(db.users.has('ana@exemplo.com')).toBe(false);
  });

  it('shows the new address in the settings of a signed-in person who opens the link', async () => {
    const user = seedUser({ email: 'ana@exemplo.com' });
    giveBrowserSessionTo(user);
    const app = renderApp('/painel/configuracoes');
    expect(await screen.findByText('ana@exemplo.com', { selector: 'strong' })).toBeInTheDocument();

    const code = createActionCode(user, 'change-email', { newEmail: 'ana.nova@exemplo.com' });
    await act(() => app.router.navigate(`/verificar-email?oobCode=${code}`));
    await app.user.click(await screen.findByRole('link', { name: 'Ir para o painel' }));
    await act(() => app.router.navigate('/painel/configuracoes'));
    expect(await screen.findByText('ana.nova@exemplo.com', { selector: 'strong' })).toBeInTheDocument();
  });

  it('says the link expired or was already used', async () => {
    renderApp('/verificar-email?oobCode=vencido');
    expect(await screen.findByRole('alert')).toHaveTextContent('Este link expirou ou já foi usado.');
    expect(screen.getByText(/Se você já confirmou este e-mail antes/)).toBeInTheDocument();
  });

  it('explains an incomplete link without calling the server', async () => {
    renderApp('/verificar-email');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Este link está incompleto. Abra de novo o link que enviamos por e-mail.',
    );
    expect(callTimes('POST /api/auth/verify-email')).toEqual([]);
  });

  it('says the internet is down', async () => {
    server.use(http.post('/api/auth/verify-email', () => HttpResponse.error()));
    renderApp('/verificar-email?oobCode=qualquer');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Não foi possível conectar. Verifique sua internet e tente novamente.',
    );
  });
});

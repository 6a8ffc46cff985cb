import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { createActionCode, seedUser } from '@/testing/mocks/db';
import { apiError, fieldError } from '@/testing/mocks/handlers/api-error';
import { callTimes, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

async function chooseNewPassword(oobCode: string, password = 'NovaSenha9') {
  const app = renderApp(`/redefinir-senha?oobCode=${oobCode}`);
  await app.user.type(await screen.findByLabelText('Senha nova'), password);
  await app.user.click(screen.getByRole('button', { name: 'Salvar senha nova' }));
  return app;
}

describe('/redefinir-senha', () => {
  it('saves the new password, which then signs in', async () => {
    const user = seedUser({ email: 'ana@exemplo.com', password: 'Antiga123' });
    const app = await chooseNewPassword(createActionCode(user, 'reset'));
    expect(await screen.findByText('Senha alterada. Agora é só entrar com a senha nova.')).toBeInTheDocument();
    expect(user.password).toBe('NovaSenha9');

    await app.user.click(screen.getByRole('link', { name: 'Entrar' }));
    await app.user.type(await screen.findByLabelText('E-mail'), 'ana@exemplo.com');
    await app.user.type(screen.getByLabelText('Senha'), 'NovaSenha9');
    await app.user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByRole('heading', { name: 'Olá, Ana' })).toBeInTheDocument();
  });

  it('says on arrival that a used link is used, before any password is typed', async () => {
    const user = seedUser({ email: 'ana@exemplo.com' });
    const code = createActionCode(user, 'reset');
    const first = await chooseNewPassword(code);
    await screen.findByText(/Senha alterada/);
    first.unmount();

    // The same link a second time.
    renderApp(`/redefinir-senha?oobCode=${code}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Este link expirou ou já foi usado.');
    expect(screen.queryByLabelText('Senha nova')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Pedir um novo link' })).toHaveAttribute('href', '/recuperar-senha');
    expect(callTimes('POST /api/auth/reset')).toHaveLength(1);
  });

  it('checks the link without using it: the form still works after the check', async () => {
    const user = seedUser({ email: 'ana@exemplo.com', password: 'Antiga123' });
    await chooseNewPassword(createActionCode(user, 'reset'));
    expect(callTimes('POST /api/auth/reset/check')).toHaveLength(1);
    expect(await screen.findByText(/Senha alterada/)).toBeInTheDocument();
  });

  it('says a link spent between the check and the submit is spent, after submitting', async () => {
    const user = seedUser({ email: 'ana@exemplo.com' });
    const code = createActionCode(user, 'reset');
    const app = renderApp(`/redefinir-senha?oobCode=${code}`);
    await app.user.type(await screen.findByLabelText('Senha nova'), 'NovaSenha9');
    server.use(http.post('/api/auth/reset', () => apiError(410, 'expired-action-code', 'Link expirado.')));
    await app.user.click(screen.getByRole('button', { name: 'Salvar senha nova' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Este link expirou ou já foi usado.');
    expect(screen.getByRole('link', { name: 'Pedir um novo link' })).toHaveAttribute('href', '/recuperar-senha');
  });

  it('explains an incomplete link instead of showing a form', async () => {
    renderApp('/redefinir-senha');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Este link está incompleto. Abra de novo o link do e-mail ou peça um novo.',
    );
    expect(screen.queryByLabelText('Senha nova')).not.toBeInTheDocument();
  });

  it('checks the new password against the policy before sending it', async () => {
    const user = seedUser({ email: 'ana@exemplo.com' });
    await chooseNewPassword(createActionCode(user, 'reset'), 'curta');
    expect(screen.getByLabelText('Senha nova')).toHaveAccessibleDescription(/A senha ainda não atende/);
    expect(callTimes('POST /api/auth/reset')).toEqual([]);
  });

  it('shows the server’s refusal of the new password (weak-password, 422) under it', async () => {
    server.use(
      http.post('/api/auth/reset', () => fieldError('weak-password', 'A senha precisa de: um símbolo.', 'newPassword')),
    );
    await chooseNewPassword(createActionCode(seedUser({ email: 'ana@exemplo.com' }), 'reset'));
    const password = screen.getByLabelText('Senha nova');
    await waitFor(() => expect(password).toHaveAccessibleDescription(/A senha precisa de: um símbolo\./));
    expect(password).toHaveFocus();
  });

  it('says how long to wait after too many attempts', async () => {
    server.use(
      http.post('/api/auth/reset', () => apiError(429, 'too-many-requests', 'Calma.', { 'Retry-After': '90' })),
    );
    await chooseNewPassword(createActionCode(seedUser({ email: 'ana@exemplo.com' }), 'reset'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Muitas tentativas seguidas. Tente de novo em 2 minutos.',
    );
  });

  it('says the internet is down', async () => {
    server.use(http.post('/api/auth/reset', () => HttpResponse.error()));
    await chooseNewPassword(createActionCode(seedUser({ email: 'ana@exemplo.com' }), 'reset'));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Não foi possível conectar. Verifique sua internet e tente novamente.',
    );
  });
});

import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { seedUser } from '@/testing/mocks/db';
import { apiError, fieldError } from '@/testing/mocks/handlers/api-error';
import { callTimes, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const WRONG_CREDENTIALS = 'E-mail ou senha incorretos. Confira os dados e tente novamente.';

async function submitLogIn(email = 'ana@exemplo.com', password = 'Senha123') {
  const app = renderApp('/entrar');
  await app.user.type(await screen.findByLabelText('E-mail'), email);
  await app.user.type(screen.getByLabelText('Senha'), password);
  await app.user.click(screen.getByRole('button', { name: 'Entrar' }));
  return app;
}

describe('/entrar', () => {
  it('signs in and opens the dashboard', async () => {
    seedUser({ email: 'ana@exemplo.com', password: 'Senha123' });
    const app = await submitLogIn();
    expect(await screen.findByRole('heading', { name: 'Olá, Ana' })).toBeInTheDocument();
    expect(app.location()).toBe('/painel');
    expect(document.title).toBe('Painel · Balcão');
  });

  it('asks for both fields before sending anything', async () => {
    const app = renderApp('/entrar');
    await app.user.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Campo obrigatório.');
    expect(screen.getByLabelText('Senha')).toHaveAccessibleDescription('Campo obrigatório.');
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
    expect(callTimes('POST /api/auth/login')).toEqual([]);
  });

  it('shows every field error at once: a malformed e-mail and a missing password', async () => {
    const app = renderApp('/entrar');
    await app.user.type(await screen.findByLabelText('E-mail'), 'ana@exemplo');
    await app.user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
      'Digite um e-mail válido (ex.: nome@exemplo.com).',
    );
    expect(screen.getByLabelText('Senha')).toHaveAccessibleDescription('Campo obrigatório.');
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
    expect(callTimes('POST /api/auth/login')).toEqual([]);
  });

  it('keeps a refused sign-in in the alert even when the server names the password field', async () => {
    server.use(http.post('/api/auth/login', () => fieldError('wrong-password', 'Senha errada.', 'password', 400)));
    await submitLogIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(WRONG_CREDENTIALS);
    expect(screen.getByLabelText('Senha')).not.toHaveAttribute('aria-invalid');
  });

  it('points out an e-mail without a domain', async () => {
    await submitLogIn('ana@exemplo', 'Senha123');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
      'Digite um e-mail válido (ex.: nome@exemplo.com).',
    );
    expect(callTimes('POST /api/auth/login')).toEqual([]);
  });

  it.each(['invalid-credential', 'wrong-password', 'user-not-found'])(
    'answers %s with the same message, so nobody learns whether the e-mail has an account',
    async (code) => {
      server.use(http.post('/api/auth/login', () => apiError(400, code, 'mensagem do servidor')));
      await submitLogIn();
      expect(await screen.findByRole('alert')).toHaveTextContent(WRONG_CREDENTIALS);
    },
  );

  it('says the account is disabled', async () => {
    seedUser({ email: 'ana@exemplo.com', password: 'Senha123', disabled: true });
    await submitLogIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Esta conta está desativada. Se você acha que é um engano, fale com a gente.',
    );
  });

  it('says how long to wait after too many attempts, from Retry-After', async () => {
    server.use(
      http.post('/api/auth/login', () => apiError(429, 'too-many-requests', 'Calma.', { 'Retry-After': '120' })),
    );
    await submitLogIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Muitas tentativas seguidas. Tente de novo em 2 minutos.',
    );
  });

  it('still asks the user to wait when Retry-After is missing', async () => {
    server.use(http.post('/api/auth/login', () => apiError(429, 'too-many-requests', 'Calma.')));
    await submitLogIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Muitas tentativas seguidas. Aguarde alguns minutos e tente de novo.',
    );
  });

  it('says the internet is down when the request cannot leave the phone', async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.error()));
    await submitLogIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Não foi possível conectar. Verifique sua internet e tente novamente.',
    );
  });

  it('apologises without details when the server fails', async () => {
    server.use(http.post('/api/auth/login', () => apiError(500, 'internal', 'stack trace')));
    await submitLogIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Algo deu errado do nosso lado. Tente novamente em instantes.',
    );
  });

  it('disables the button while the request is on its way', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.post('/api/auth/login', async () => {
        await answered;
        return apiError(400, 'invalid-credential', 'Não.');
      }),
    );
    await submitLogIn();
    expect(screen.getByRole('button', { name: 'Entrando…' })).toBeDisabled();
    answer();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Entrar' })).toBeEnabled());
  });

  it('shows and hides the password on request', async () => {
    const app = renderApp('/entrar');
    const password = await screen.findByLabelText('Senha');
    expect(password).toHaveAttribute('type', 'password');
    const toggle = screen.getByRole('button', { name: 'Mostrar senha', pressed: false });
    await app.user.click(toggle);
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await app.user.click(toggle);
    expect(password).toHaveAttribute('type', 'password');
  });
});

import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { db, seedUser } from '@/testing/mocks/db';
import { apiError, fieldError } from '@/testing/mocks/handlers/api-error';
import { callTimes, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const NEUTRAL =
  'Se houver uma conta com este e-mail, enviaremos as instruções em instantes. Confira também a caixa de spam.';

async function askForLink(email: string) {
  const app = renderApp('/recuperar-senha');
  await app.user.type(await screen.findByLabelText('E-mail'), email);
  await app.user.click(screen.getByRole('button', { name: 'Enviar link' }));
  return app;
}

describe('/recuperar-senha', () => {
  it('confirms neutrally for an e-mail that has an account', async () => {
    seedUser({ email: 'ana@exemplo.com' });
    await askForLink('ana@exemplo.com');
    expect(await screen.findByText(NEUTRAL)).toBeInTheDocument();
    expect(db.actionCodes.size).toBe(1);
  });

  it('confirms exactly the same way for an e-mail without an account', async () => {
    await askForLink('ninguem@exemplo.com');
    expect(await screen.findByText(NEUTRAL)).toBeInTheDocument();
    expect(db.actionCodes.size).toBe(0);
  });

  it('stays neutral even if the server says user-not-found', async () => {
    server.use(http.post('/api/auth/recover', () => apiError(400, 'user-not-found', 'Não existe.')));
    await askForLink('ninguem@exemplo.com');
    expect(await screen.findByText(NEUTRAL)).toBeInTheDocument();
  });

  it('says how long to wait after too many requests', async () => {
    server.use(
      http.post('/api/auth/recover', () => apiError(429, 'too-many-requests', 'Calma.', { 'Retry-After': '3600' })),
    );
    await askForLink('ana@exemplo.com');
    expect(await screen.findByRole('alert')).toHaveTextContent('Muitas tentativas seguidas. Tente de novo em 1 hora.');
  });

  it('says the internet is down', async () => {
    server.use(http.post('/api/auth/recover', () => HttpResponse.error()));
    await askForLink('ana@exemplo.com');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Não foi possível conectar. Verifique sua internet e tente novamente.',
    );
  });

  it('asks for a valid e-mail first', async () => {
    await askForLink('ana');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
      'Digite um e-mail válido (ex.: nome@exemplo.com).',
    );
  });

  it('asks for the e-mail, focused, before sending anything', async () => {
    const app = renderApp('/recuperar-senha');
    await app.user.click(await screen.findByRole('button', { name: 'Enviar link' }));
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Campo obrigatório.');
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
    expect(callTimes('POST /api/auth/recover')).toEqual([]);
  });

  it('shows a 422 about the e-mail under the field', async () => {
    server.use(
      http.post('/api/auth/recover', () =>
        fieldError('invalid-argument', 'Informe um e-mail válido, como nome@exemplo.com.br.', 'email'),
      ),
    );
    await askForLink('ana@exemplo.c');
    await waitFor(() =>
      expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
        'Informe um e-mail válido, como nome@exemplo.com.br.',
      ),
    );
    expect(screen.queryByText(NEUTRAL)).not.toBeInTheDocument();
  });
});

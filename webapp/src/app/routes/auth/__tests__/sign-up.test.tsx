import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { db, seedUser } from '@/testing/mocks/db';
import { apiError, fieldError } from '@/testing/mocks/handlers/api-error';
import { callTimes, requestLog, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

async function fillSignUp(password = 'Senha123', email = 'nova@exemplo.com') {
  const app = renderApp('/criar-conta');
  await app.user.type(await screen.findByLabelText('Seu nome'), 'Carla Mendes');
  await app.user.type(screen.getByLabelText('E-mail'), email);
  await app.user.type(screen.getByLabelText('Senha'), password);
  return app;
}

function checklist() {
  return within(screen.getByRole('list')).getAllByRole('listitem');
}

describe('/criar-conta', () => {
  it('shows the server’s password policy as a checklist that ticks while the user types', async () => {
    const app = renderApp('/criar-conta');
    const password = await screen.findByLabelText('Senha');
    await screen.findByText('Pelo menos 8 caracteres');
    expect(checklist().map((item) => item.textContent)).toEqual([
      '○ Pelo menos 8 caracteres (pendente)',
      '○ Uma letra minúscula (pendente)',
      '○ Uma letra maiúscula (pendente)',
      '○ Um número (pendente)',
    ]);
    expect(password).toHaveAccessibleDescription(/A senha precisa ter/);

    await app.user.type(password, 'senha');
    expect(checklist().map((item) => item.className)).toEqual(['', 'met', '', '']);
    await app.user.type(password, 'S1xy');
    expect(checklist().every((item) => item.className === 'met')).toBe(true);
    expect(screen.getByText('Pelo menos 8 caracteres').closest('li')).toHaveTextContent(
      '✓ Pelo menos 8 caracteres (atendido)',
    );
  });

  it('lists a symbol too when the policy asks for one', async () => {
    db.passwordPolicy = { ...db.passwordPolicy, minLength: 6, requireNonAlphanumeric: true };
    const app = renderApp('/criar-conta');
    await screen.findByText('Pelo menos 6 caracteres');
    await app.user.type(screen.getByLabelText('Senha'), 'a!');
    expect(screen.getByText('Um símbolo, como ! @ # ou $').closest('li')).toHaveClass('met');
  });

  it('creates the account and opens the welcome guide', async () => {
    const app = await fillSignUp();
    await app.user.click(screen.getByRole('button', { name: 'Criar conta' }));

    expect(await screen.findByRole('heading', { name: 'Boas-vindas ao Balcão' })).toBeInTheDocument();
    expect(app.location()).toBe('/painel/boas-vindas');
    const sent = requestLog.find((entry) => entry.call === 'POST /api/auth/signup');
    expect(sent).toBeDefined();
    expect(db.users.get('nova@exemplo.com')?.displayName).toBe('Carla Mendes');
  });

  it('does not send a password that misses part of the policy', async () => {
    const app = await fillSignUp('senhafraca');
    await app.user.click(screen.getByRole('button', { name: 'Criar conta' }));
    expect(screen.getByLabelText('Senha')).toHaveAccessibleDescription(
      /A senha ainda não atende a todos os itens da lista\./,
    );
    expect(screen.getByLabelText('Senha')).toHaveFocus();
    expect(callTimes('POST /api/auth/signup')).toEqual([]);
  });

  it('asks for a name', async () => {
    const app = renderApp('/criar-conta');
    await app.user.click(await screen.findByRole('button', { name: 'Criar conta' }));
    expect(screen.getByLabelText('Seu nome')).toHaveAccessibleDescription('Campo obrigatório.');
  });

  it('shows every field error at once: no name, a malformed e-mail and a weak password', async () => {
    const app = renderApp('/criar-conta');
    await screen.findByText('Pelo menos 8 caracteres');
    await app.user.type(screen.getByLabelText('E-mail'), 'carla@exemplo');
    await app.user.type(screen.getByLabelText('Senha'), 'fraca');
    await app.user.click(screen.getByRole('button', { name: 'Criar conta' }));

    expect(screen.getByLabelText('Seu nome')).toHaveAccessibleDescription('Campo obrigatório.');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
      'Digite um e-mail válido (ex.: nome@exemplo.com).',
    );
    expect(screen.getByLabelText('Senha')).toHaveAccessibleDescription(
      /A senha ainda não atende a todos os itens da lista\./,
    );
    expect(screen.getByLabelText('Seu nome')).toHaveFocus();
    expect(callTimes('POST /api/auth/signup')).toEqual([]);
  });

  it('shows a 422 about a field under that field', async () => {
    server.use(
      http.post('/api/auth/signup', () =>
        fieldError(
          'invalid-argument',
          'O nome não pode ter quebras de linha nem caracteres de controle.',
          'displayName',
        ),
      ),
    );
    const app = await fillSignUp();
    await app.user.click(screen.getByRole('button', { name: 'Criar conta' }));
    const name = screen.getByLabelText('Seu nome');
    await waitFor(() =>
      expect(name).toHaveAccessibleDescription('O nome não pode ter quebras de linha nem caracteres de controle.'),
    );
    expect(name).toHaveFocus();
  });

  it('keeps an e-mail already in use in the alert, with its links, even when the server names the field', async () => {
    server.use(http.post('/api/auth/signup', () => fieldError('email-already-in-use', 'Já existe.', 'email', 409)));
    const app = await fillSignUp();
    await app.user.click(screen.getByRole('button', { name: 'Criar conta' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Este e-mail já está em uso. Entre na sua conta ou recupere a senha.');
    expect(within(alert).getByRole('link', { name: 'Entrar' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).not.toHaveAttribute('aria-invalid');
  });

  it('says the e-mail is already in use and offers to sign in or recover the password', async () => {
    seedUser({ email: 'nova@exemplo.com' });
    const app = await fillSignUp();
    await app.user.click(screen.getByRole('button', { name: 'Criar conta' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Este e-mail já está em uso. Entre na sua conta ou recupere a senha.');
    expect(within(alert).getByRole('link', { name: 'Entrar' })).toHaveAttribute('href', '/entrar');
    expect(within(alert).getByRole('link', { name: 'Esqueci minha senha' })).toHaveAttribute(
      'href',
      '/recuperar-senha',
    );
  });

  it('shows the server’s own words when it refuses the password', async () => {
    server.use(
      http.post('/api/auth/signup', () =>
        apiError(400, 'weak-password', 'Esta senha aparece em vazamentos conhecidos.'),
      ),
    );
    const app = await fillSignUp();
    await app.user.click(screen.getByRole('button', { name: 'Criar conta' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Esta senha aparece em vazamentos conhecidos.');
  });

  it('says how long to wait after too many sign-ups', async () => {
    server.use(
      http.post('/api/auth/signup', () => apiError(429, 'too-many-requests', 'Calma.', { 'Retry-After': '45' })),
    );
    const app = await fillSignUp();
    await app.user.click(screen.getByRole('button', { name: 'Criar conta' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Muitas tentativas seguidas. Tente de novo em 45 segundos.',
    );
  });

  it('says the internet is down', async () => {
    server.use(http.post('/api/auth/signup', () => HttpResponse.error()));
    const app = await fillSignUp();
    await app.user.click(screen.getByRole('button', { name: 'Criar conta' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Não foi possível conectar. Verifique sua internet e tente novamente.',
    );
  });

  it('falls back to the minimal policy when the policy cannot be fetched', async () => {
    server.use(http.get('/api/auth/password-policy', () => HttpResponse.error()));
    renderApp('/criar-conta');
    expect(await screen.findByText('Pelo menos 6 caracteres')).toBeInTheDocument();
  });
});

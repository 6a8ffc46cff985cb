import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { giveBrowserSessionTo, seedUser } from '@/testing/mocks/db';
import { callTimes } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

function signedInBrowser() {
  const user = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
  giveBrowserSessionTo(user);
  return user;
}

describe('signed-out visitors', () => {
  it('go from a dashboard screen to /entrar and come back to it after signing in', async () => {
    const user = seedUser({ email: 'ana@exemplo.com' });
    const app = renderApp('/painel/chaves');

    // The file's first render: cold module loading can take more than the default second.
    expect(await screen.findByRole('heading', { name: 'Entrar' }, { timeout: 5000 })).toBeInTheDocument();
    expect(app.location()).toBe('/entrar?continuar=%2Fpainel%2Fchaves');

    await app.user.type(screen.getByLabelText('E-mail'), user.email);
    await app.user.type(screen.getByLabelText('Senha'), user.password);
    await app.user.click(screen.getByRole('button', { name: 'Entrar' }));

    // The keys screen replaces the workspace's loading title once the account is known.
    await screen.findByRole('heading', { name: 'Cadastrar chave Pix' }, { timeout: 5000 });
    expect(screen.getByRole('heading', { level: 1, name: 'Chaves Pix' })).toBeInTheDocument();
    expect(app.location()).toBe('/painel/chaves');
  });

  it('who create an account on the way come back to where they were going, not the welcome guide', async () => {
    const app = renderApp('/painel/chaves');
    await screen.findByRole('heading', { name: 'Entrar' });

    await app.user.click(screen.getByRole('link', { name: 'Criar conta' }));
    await app.user.type(await screen.findByLabelText('Seu nome'), 'Bruno Lima');
    expect(app.location()).toBe('/criar-conta?continuar=%2Fpainel%2Fchaves');
    await app.user.type(screen.getByLabelText('E-mail'), 'bruno@exemplo.com');
    await app.user.type(screen.getByLabelText('Senha'), 'Senha123');
    await app.user.click(screen.getByRole('button', { name: 'Criar conta' }));

    // The keys screen replaces the workspace's loading title once the account is known.
    await screen.findByRole('heading', { name: 'Cadastrar chave Pix' }, { timeout: 5000 });
    expect(screen.getByRole('heading', { level: 1, name: 'Chaves Pix' })).toBeInTheDocument();
    expect(app.location()).toBe('/painel/chaves');
  });

  it('keep where they were going when they switch from sign-up back to log-in', async () => {
    const app = renderApp('/criar-conta?continuar=%2Fpainel%2Fplano');
    await app.user.click(await screen.findByRole('link', { name: 'Entrar' }));
    await screen.findByRole('heading', { name: 'Entrar' });
    expect(app.location()).toBe('/entrar?continuar=%2Fpainel%2Fplano');
  });

  it('go to plain /entrar from /painel itself', async () => {
    const app = renderApp('/painel');
    await screen.findByRole('heading', { name: 'Entrar' });
    expect(app.location()).toBe('/entrar');
  });

  it('are never sent outside the dashboard by ?continuar=', async () => {
    const user = seedUser({ email: 'ana@exemplo.com' });
    const app = renderApp('/entrar?continuar=https%3A%2F%2Fgolpe.example%2Fpainel');
    await app.user.type(await screen.findByLabelText('E-mail'), user.email);
    await app.user.type(screen.getByLabelText('Senha'), user.password);
    await app.user.click(screen.getByRole('button', { name: 'Entrar' }));
    await screen.findByRole('heading', { name: 'Olá, Ana' });
    expect(app.location()).toBe('/painel');
  });
});

describe('signed-in visitors', () => {
  it('of /entrar go to /painel', async () => {
    signedInBrowser();
    const app = renderApp('/entrar');
    expect(await screen.findByRole('heading', { name: 'Olá, Ana' })).toBeInTheDocument();
    expect(app.location()).toBe('/painel');
  });

  it('of /entrar?continuar= go where they were going', async () => {
    signedInBrowser();
    const app = renderApp('/entrar?continuar=%2Fpainel%2Ftransacoes');
    // The transactions screen is a lazy chunk with its chart library, and its loading state has a
    // heading of the same name that is replaced: wait for the screen's own heading.
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Transações' })).toBeInTheDocument(), {
      timeout: 5000,
    });
    expect(app.location()).toBe('/painel/transacoes');
  });

  it('of /criar-conta go to /painel', async () => {
    signedInBrowser();
    const app = renderApp('/criar-conta');
    await screen.findByRole('heading', { name: 'Olá, Ana' });
    expect(app.location()).toBe('/painel');
  });

  it('restore their session with a single refresh when the app loads', async () => {
    signedInBrowser();
    renderApp('/painel');
    await screen.findByRole('heading', { name: 'Olá, Ana' });
    expect(callTimes('POST /api/auth/token')).toHaveLength(1);
  });
});

describe('dashboard routes', () => {
  it('replace /painel/index_old with /painel', async () => {
    signedInBrowser();
    const app = renderApp('/painel/index_old');
    await screen.findByRole('heading', { name: 'Olá, Ana' });
    expect(app.location()).toBe('/painel');
    expect(app.router.state.historyAction).toBe('REPLACE');
  });

  it('show a 404 inside the dashboard layout for an unknown /painel path', async () => {
    signedInBrowser();
    renderApp('/painel/nao-existe');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Painel' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveTextContent('404');
  });

  it('show a 404 page for an unknown path outside the dashboard', async () => {
    renderApp('/pagina-inventada');
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Painel' })).not.toBeInTheDocument();
  });

  it('link every dashboard screen from the menu and mark the current one', async () => {
    signedInBrowser();
    const app = renderApp('/painel');
    const nav = await screen.findByRole('navigation', { name: 'Painel' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/painel',
      '/painel/chaves',
      '/painel/qrcodes',
      '/painel/placas',
      '/painel/links-de-pagamento',
      '/painel/transacoes',
      '/painel/contas-extras',
      '/painel/assinatura',
      '/painel/configuracoes',
      '/painel/chaves-de-api',
      '/painel/webhooks',
      '/painel/duvidas',
      '/painel/criar-qrcode',
    ]);
    expect(within(nav).getByRole('link', { name: 'Início' })).toHaveAttribute('aria-current', 'page');

    await app.user.click(within(nav).getByRole('link', { name: 'Transações' }));
    // A lazy screen with a chart library: its code may take a moment to arrive.
    const heading = await screen.findByRole('heading', { name: 'Transações' }, { timeout: 10_000 });
    expect(within(nav).getByRole('link', { name: 'Transações' })).toHaveAttribute('aria-current', 'page');
    // Focus follows the navigation, so screen readers announce the new screen (moved by an
    // effect after the screen renders: a busy machine may show the heading a moment before).
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('reach the welcome guide from the home screen', async () => {
    signedInBrowser();
    const app = renderApp('/painel');
    await app.user.click(await screen.findByRole('link', { name: 'Primeiros passos' }));
    expect(await screen.findByRole('heading', { name: 'Boas-vindas ao Balcão' })).toBeInTheDocument();
  });

  it('reach the extra-account form from the extra-accounts screen', async () => {
    signedInBrowser();
    const app = renderApp('/painel/contas-extras');
    await app.user.click(await screen.findByRole('link', { name: 'Criar conta extra' }));
    expect(await screen.findByRole('heading', { name: 'Criar conta extra' })).toBeInTheDocument();
    expect(app.location()).toBe('/painel/criar-conta-extra');
  });

  it('offer a skip link to the main content', async () => {
    signedInBrowser();
    renderApp('/painel');
    await screen.findByRole('heading', { name: 'Olá, Ana' });
    expect(screen.getByRole('link', { name: 'Pular para o conteúdo' })).toHaveAttribute('href', '#conteudo');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'conteudo');
  });

  it('guide a new account from the welcome screen to its first QR code and sign, made in the account, never to a screen still being built', async () => {
    signedInBrowser();
    renderApp('/painel/boas-vindas');
    expect(await screen.findByRole('heading', { name: 'Boas-vindas ao Balcão' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Ir para Chaves Pix' })).not.toBeInTheDocument();
    expect(screen.queryByText(/QR codes do painel ainda estão em construção/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Criar QR code' })).toHaveAttribute('href', '/painel/criar-qrcode');
    for (const link of screen.getAllByRole('link', { name: 'Criar placa Pix' })) {
      expect(link).toHaveAttribute('href', '/painel/criar-qrcode');
    }
  });
});

import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { giveBrowserSessionTo, seedUser } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

describe('Dúvidas inside the dashboard', () => {
  it('opens from the menu in the dashboard frame, with the menu and the signed-in person', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' }));
    const app = renderApp('/painel');
    const menu = await screen.findByRole('navigation', { name: 'Painel' });
    await app.user.click(within(menu).getByRole('link', { name: 'Dúvidas' }));

    expect(await screen.findByRole('heading', { level: 2, name: 'O que é o Balcão?' })).toBeInTheDocument();
    expect(app.location()).toBe('/painel/duvidas');
    expect(screen.getByRole('heading', { level: 1, name: 'Dúvidas' })).toHaveFocus();
    // Still signed in, still the dashboard: the menu marks the screen, "Sair" is there, no "Entrar".
    expect(within(menu).getByRole('link', { name: 'Dúvidas' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Sair' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Entrar/ })).not.toBeInTheDocument();
    // The answers' links work as on the public page.
    const answers = screen.getByRole('region', { name: 'Dúvidas' });
    expect(within(answers).getByRole('link', { name: 'Criar placa Pix' })).toHaveAttribute('href', '/criar-placa-pix');
  });

  it('opens from the home card too', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    const app = renderApp('/painel');
    const shortcuts = await screen.findByRole('region', { name: 'Atalhos' });
    await app.user.click(within(shortcuts).getByRole('link', { name: 'Dúvidas' }));
    expect(await screen.findByRole('heading', { name: 'Preciso criar conta?' })).toBeInTheDocument();
    expect(app.location()).toBe('/painel/duvidas');
  });

  it('says when the answers cannot be loaded and links the public page', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com' }));
    server.use(http.get('/api/faq', () => HttpResponse.error()));
    renderApp('/painel/duvidas');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Não foi possível carregar as dúvidas.');
    expect(within(alert).getByRole('link', { name: 'Abrir a página de dúvidas' })).toHaveAttribute(
      'href',
      '/painel/duvidas',
    );
  });
});

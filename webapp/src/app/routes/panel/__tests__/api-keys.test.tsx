import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { giveBrowserSessionTo, seedUser } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const SECRET = 'balcao_c2VncmVkby1kZS10ZXN0ZS1kYS1wYWRhcmlhLTEyMzQ1Njc4OQ';

/** The keys API as far as this screen needs it: an empty list, and what a creation sent. */
function keysApi() {
  const sent: unknown[] = [];
  server.use(
    http.get('/api/accounts/:id/api-keys', () => HttpResponse.json({ apiKeys: [], scopes: [] })),
    http.post('/api/accounts/:id/api-keys', async ({ request, params }) => {
      sent.push(await request.json());
      return HttpResponse.json(
        {
          id: 'key-1',
          accountId: params.id,
          name: 'Loja virtual',
          scopes: ['payments:read'],
          tokenHint: SECRET.slice(0, 12),
          expiresAt: null,
          secret: SECRET,
        },
        { status: 201 },
      );
    }),
  );
  return sent;
}

describe('/painel/chaves-de-api', () => {
  it('asks for a name and a permission before sending anything', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' }));
    const sent = keysApi();
    const { user } = renderApp('/painel/chaves-de-api');
    const form = await screen.findByRole('form', { name: 'Criar chave de API' });
    await user.click(within(form).getByRole('button', { name: 'Criar chave de API' }));
    expect(within(form).getByLabelText('Nome da chave')).toHaveAccessibleDescription(/Campo obrigatório\./);
    expect(within(form).getByText('Escolha ao menos uma permissão para a chave.')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('sends the name and the ticked permissions, then shows the secret once with the account’s id', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
    giveBrowserSessionTo(ana);
    const sent = keysApi();
    const { user } = renderApp('/painel/chaves-de-api');
    const form = await screen.findByRole('form', { name: 'Criar chave de API' });
    await user.type(within(form).getByLabelText('Nome da chave'), 'Loja virtual');
    await user.click(within(form).getByLabelText('Ver os pagamentos, os totais e o CSV'));
    await user.click(within(form).getByRole('button', { name: 'Criar chave de API' }));
    await within(form).findByText(SECRET);
    expect(within(form).getByText(/não será mostrada de novo/)).toBeInTheDocument();
    expect(sent).toEqual([{ name: 'Loja virtual', scopes: ['payments:read'], expiresOn: null }]);
  });
});

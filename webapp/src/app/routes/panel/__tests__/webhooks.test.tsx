import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { giveBrowserSessionTo, seedUser } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const SECRET = 'whsec_c2VncmVkby1kby13ZWJob29rLWRhLXBhZGFyaWEtMTIzNDU2Nzg5';

describe('/painel/webhooks', () => {
  it('sends the address and the chosen events, then shows the signing secret once', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' }));
    const sent: unknown[] = [];
    server.use(
      http.get('/api/accounts/:id/webhooks', () => HttpResponse.json({ webhooks: [], events: [] })),
      http.post('/api/accounts/:id/webhooks', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(
          { id: 'w-1', url: 'https://loja.com.br/avisos', events: ['pagamento.recebido'], secret: SECRET },
          { status: 201 },
        );
      }),
    );
    const { user } = renderApp('/painel/webhooks');
    const form = await screen.findByRole('form', { name: 'Cadastrar webhook' });
    await user.type(within(form).getByLabelText('Endereço que recebe os avisos'), 'https://loja.com.br/avisos');
    await user.click(within(form).getByLabelText('Pagamento devolvido'));
    await user.click(within(form).getByRole('button', { name: 'Cadastrar webhook' }));
    await within(form).findByText(SECRET);
    expect(sent).toEqual([
      { url: 'https://loja.com.br/avisos', events: ['pagamento.recebido', 'pagamento.devolvido'] },
    ]);
  });

  it('asks for an event before sending anything', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' }));
    server.use(http.get('/api/accounts/:id/webhooks', () => HttpResponse.json({ webhooks: [], events: [] })));
    const { user } = renderApp('/painel/webhooks');
    const form = await screen.findByRole('form', { name: 'Cadastrar webhook' });
    await user.type(within(form).getByLabelText('Endereço que recebe os avisos'), 'https://loja.com.br/avisos');
    await user.click(within(form).getByLabelText('Pagamento recebido'));
    await user.click(within(form).getByRole('button', { name: 'Cadastrar webhook' }));
    expect(within(form).getByText('Escolha ao menos um evento para o endereço.')).toBeInTheDocument();
  });
});

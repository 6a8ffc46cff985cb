import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { giveBrowserSessionTo, seedPixKey, seedUser } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

/** The links API as far as this screen needs it: an empty list, and what a creation sent. */
function linksApi() {
  const sent: unknown[] = [];
  server.use(
    http.get('/api/accounts/:id/payment-links', () => HttpResponse.json({ paymentLinks: [] })),
    http.post('/api/accounts/:id/payment-links', async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json(
        {
          id: 'link-1',
          url: 'http://localhost/pagar?link=assinado',
          pixKey: 'caixa@padaria.com',
          merchantName: 'PADARIA DA ANA LTDA',
          merchantCity: 'RECIFE',
          amountCentavos: 4590,
          description: null,
          expiresAt: null,
          createdAt: '2026-11-02T10:00:00Z',
          revokedAt: null,
          paidAt: null,
          status: 'active',
        },
        { status: 201 },
      );
    }),
  );
  return sent;
}

describe('/painel/links-de-pagamento: the key of a link', () => {
  it('starts with the default registered key and its holder name, and sends the key’s id', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza', defaultMerchantCity: 'Recife' });
    giveBrowserSessionTo(ana);
    seedPixKey(ana, { pixKey: '12345678909', kind: 'cpf', holderName: 'Ana Souza' });
    const main = seedPixKey(ana, {
      pixKey: 'caixa@padaria.com',
      label: 'Caixa',
      holderName: 'Padaria da Ana Ltda',
      isDefault: true,
    });
    const sent = linksApi();
    const { user } = renderApp('/painel/links-de-pagamento');
    const form = await screen.findByRole('form', { name: 'Criar link de pagamento' });
    const picker = within(form).getByRole('combobox', { name: 'Chave Pix' });
    await waitFor(() => expect(picker).toHaveValue(main.id));
    expect(within(form).getByLabelText('Nome de quem recebe')).toHaveValue('Padaria da Ana Ltda');

    await user.type(within(form).getByLabelText('Valor'), '45,90');
    await user.click(within(form).getByRole('button', { name: 'Criar link de pagamento' }));
    await within(form).findByText(/Link de pagamento criado/);
    expect(sent).toEqual([
      expect.objectContaining({ keyId: main.id, pixKey: null, merchantName: 'Padaria da Ana Ltda' }),
    ]);
  });

  it('asks for a typed key when “Digitar outra chave” is chosen, with every other problem at once', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
    giveBrowserSessionTo(ana);
    seedPixKey(ana, { pixKey: 'caixa@padaria.com', label: 'Caixa', isDefault: true });
    const sent = linksApi();
    const { user } = renderApp('/painel/links-de-pagamento');
    const form = await screen.findByRole('form', { name: 'Criar link de pagamento' });
    const picker = within(form).getByRole('combobox', { name: 'Chave Pix' });
    await waitFor(() => expect(picker).not.toHaveValue(''));
    await user.selectOptions(picker, 'Digitar outra chave');
    await user.click(within(form).getByRole('button', { name: 'Criar link de pagamento' }));
    expect(within(form).getByLabelText('Chave Pix digitada')).toHaveAccessibleDescription(/Campo obrigatório\./);
    expect(within(form).getByLabelText('Cidade')).toHaveAccessibleDescription(/Campo obrigatório\./);
    expect(within(form).getByLabelText('Valor')).toHaveAccessibleDescription(/Campo obrigatório\./);
    expect(sent).toEqual([]);
  });
});

describe('/painel/links-de-pagamento: a refusal about the key', () => {
  it('shows under the chosen key when the server blames the typed key the screen hides', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza', defaultMerchantCity: 'Recife' });
    giveBrowserSessionTo(ana);
    const main = seedPixKey(ana, { pixKey: 'caixa@padaria.com', label: 'Caixa', isDefault: true });
    server.use(
      http.get('/api/accounts/:id/payment-links', () => HttpResponse.json({ paymentLinks: [] })),
      http.post('/api/accounts/:id/payment-links', () =>
        HttpResponse.json(
          {
            error: {
              code: 'invalid-argument',
              message: 'O campo pixKey tem um valor inválido.',
              field: 'pixKey',
            },
          },
          { status: 422 },
        ),
      ),
    );
    const { user } = renderApp('/painel/links-de-pagamento');
    const form = await screen.findByRole('form', { name: 'Criar link de pagamento' });
    const picker = within(form).getByRole('combobox', { name: 'Chave Pix' });
    await waitFor(() => expect(picker).toHaveValue(main.id));
    await user.type(within(form).getByLabelText('Cidade'), 'Recife');
    await user.type(within(form).getByLabelText('Valor'), '45,90');
    await user.click(within(form).getByRole('button', { name: 'Criar link de pagamento' }));
    await waitFor(() => expect(picker).toHaveAccessibleDescription(/O campo pixKey tem um valor inválido\./));
  });
});

describe('/painel/links-de-pagamento: a paid link', () => {
  it('says Pago with the time it was paid, and offers no cancelling', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
    giveBrowserSessionTo(ana);
    server.use(
      http.get('/api/accounts/:id/payment-links', () =>
        HttpResponse.json({
          paymentLinks: [
            {
              id: 'link-1',
              url: 'http://localhost/pagar?link=assinado',
              pixKey: 'caixa@padaria.com',
              merchantName: 'PADARIA DA ANA LTDA',
              merchantCity: 'RECIFE',
              amountCentavos: 4590,
              description: 'Bolo de aniversário',
              expiresAt: null,
              createdAt: '2026-11-02T10:00:00Z',
              revokedAt: null,
              paidAt: '2026-11-02T13:05:00Z',
              status: 'paid',
            },
          ],
        }),
      ),
    );
    renderApp('/painel/links-de-pagamento');
    const item = await screen.findByRole('listitem', { name: 'PADARIA DA ANA LTDA, R$ 45,90' });
    expect(within(item).getByText('Pago')).toBeInTheDocument();
    expect(within(item).getByText('Pago em')).toBeInTheDocument();
    expect(within(item).getByRole('link', { name: /Ver a página do link/ })).toHaveAttribute(
      'href',
      'http://localhost/pagar?link=assinado',
    );
    expect(within(item).queryByRole('button', { name: /Cancelar link/ })).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import {
  type FakeUser,
  db,
  giveBrowserSessionTo,
  seedMembership,
  seedPixKey,
  seedQrCode,
  seedUser,
} from '@/testing/mocks/db';
import { apiError, fieldError } from '@/testing/mocks/handlers/api-error';
import { callTimes, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

function owner(fields: Partial<FakeUser> = {}) {
  const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza', ...fields });
  giveBrowserSessionTo(ana);
  return ana;
}

async function openForm() {
  const app = renderApp('/painel/criar-qrcode');
  const form = await screen.findByRole('form', { name: 'Criar QR code' });
  return { ...app, form };
}

describe('/painel/qrcodes: the list', () => {
  it('shows each code with key, name, city, amount in reais, date and its payer page and sign', async () => {
    const ana = owner();
    const code = seedQrCode(ana, {
      pixKey: 'ana@exemplo.com',
      merchantName: 'PADARIA DA ANA',
      merchantCity: 'RECIFE',
      amountCentavos: 1250,
      description: 'Pão de queijo',
    });
    renderApp('/painel/qrcodes');

    const item = await screen.findByRole('listitem', { name: 'PADARIA DA ANA, R$ 12,50' });
    expect(item).toHaveTextContent('PADARIA DA ANA · RECIFE');
    expect(item).toHaveTextContent('ValorR$ 12,50');
    expect(item).toHaveTextContent('Chave Pixana@exemplo.com');
    expect(item).toHaveTextContent('DescriçãoPão de queijo');
    expect(item).toHaveTextContent(/Criado em02\/11\/2026/);
    expect(within(item).getByRole('link', { name: /^Página de pagamento/ })).toHaveAttribute(
      'href',
      `/pagamento/${code.id}`,
    );
    expect(within(item).getByRole('link', { name: /^Placa para imprimir/ })).toHaveAttribute(
      'href',
      `/pagamento/${code.id}/placa`,
    );
  });

  it('says when the payer types the amount, and lists the newest first', async () => {
    const ana = owner();
    seedQrCode(ana, { merchantName: 'ANTIGO', createdAt: '2026-10-01T10:00:00Z', amountCentavos: 1999 });
    seedQrCode(ana, { merchantName: 'NOVO', createdAt: '2026-11-01T10:00:00Z', amountCentavos: null });
    renderApp('/painel/qrcodes');
    await screen.findByRole('listitem', { name: 'NOVO' });
    // Each code's heading comes right under the screen's title, so no heading level is skipped.
    const names = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(names).toEqual(['NOVO · SAO PAULO', 'ANTIGO · SAO PAULO']);
    expect(screen.queryAllByRole('heading', { level: 3 })).toEqual([]);
    expect(screen.getByRole('listitem', { name: 'NOVO' })).toHaveTextContent('ValorQuem paga digita');
    expect(screen.getByRole('listitem', { name: 'ANTIGO, R$ 19,99' })).toBeInTheDocument();
  });

  it('says when a single-use code was paid, and that an unpaid one waits for its payment', async () => {
    const ana = owner();
    seedQrCode(ana, {
      merchantName: 'PEDIDO PAGO',
      amountCentavos: 4990,
      singleUse: true,
      paidAt: '2026-11-27T17:05:00Z',
    });
    seedQrCode(ana, { merchantName: 'PEDIDO ABERTO', amountCentavos: 2500, singleUse: true, paidAt: null });
    seedQrCode(ana, { merchantName: 'PLACA', amountCentavos: null });
    renderApp('/painel/qrcodes');

    const paid = await screen.findByRole('listitem', { name: 'PEDIDO PAGO, R$ 49,90' });
    expect(paid).toHaveTextContent(/Uso únicoPago em 27\/11\/2026/);
    expect(screen.getByRole('listitem', { name: 'PEDIDO ABERTO, R$ 25,00' })).toHaveTextContent(
      'Uso únicoAguardando o pagamento',
    );
    // A reusable code (a sign) is paid by many people: no "paid" state at all.
    const sign = screen.getByRole('listitem', { name: 'PLACA' });
    expect(sign).not.toHaveTextContent('Uso único');
    expect(sign).not.toHaveTextContent('Pago em');
  });

  it('shows a charge the bank made by its deadline, with no sign to print or duplicate', async () => {
    const ana = owner();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    seedQrCode(ana, {
      merchantName: 'COBRANCA ABERTA',
      amountCentavos: 4590,
      singleUse: true,
      paidAt: null,
      chargeExpiresAt: later,
    });
    seedQrCode(ana, {
      merchantName: 'COBRANCA VENCIDA',
      amountCentavos: 1000,
      singleUse: true,
      paidAt: null,
      chargeExpiresAt: '2026-01-10T15:00:00Z',
    });
    seedQrCode(ana, {
      merchantName: 'COBRANCA PAGA',
      amountCentavos: 2000,
      singleUse: true,
      paidAt: '2026-11-27T17:05:00Z',
      chargeExpiresAt: '2026-11-27T17:15:00Z',
    });
    renderApp('/painel/qrcodes');

    const open = await screen.findByRole('listitem', { name: 'COBRANCA ABERTA, R$ 45,90' });
    expect(open).toHaveTextContent(/Cobrança do bancoAguardando o pagamento até/);
    expect(open).not.toHaveTextContent('Uso único');
    expect(within(open).queryByRole('link', { name: /Placa para imprimir/ })).not.toBeInTheDocument();
    expect(within(open).queryByRole('link', { name: /Criar placa/ })).not.toBeInTheDocument();
    expect(within(open).queryByRole('button', { name: /Duplicar/ })).not.toBeInTheDocument();
    expect(within(open).getByRole('link', { name: /Modo balcão/ })).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'COBRANCA VENCIDA, R$ 10,00' })).toHaveTextContent(
      /Cobrança do bancoExpirou em 10\/01\/2026, \d\d:00, sem pagamento/,
    );
    expect(screen.getByRole('listitem', { name: 'COBRANCA PAGA, R$ 20,00' })).toHaveTextContent(
      /Cobrança do bancoPaga em 27\/11\/2026/,
    );
  });

  it('says so when there is no code yet', async () => {
    owner();
    renderApp('/painel/qrcodes');
    expect(await screen.findByText(/Nenhum QR code ainda\./)).toHaveTextContent(
      'Nenhum QR code ainda. Crie o primeiro.',
    );
    expect(screen.getByRole('link', { name: 'Crie o primeiro' })).toHaveAttribute('href', '/painel/criar-qrcode');
    // Creation lives at /painel/criar-qrcode: no second form here.
    expect(screen.queryByRole('form', { name: 'Criar QR code' })).not.toBeInTheDocument();
  });

  it('filters by a registered key of the account', async () => {
    const ana = owner();
    const caixa = seedPixKey(ana, { pixKey: 'caixa@padaria.com', label: 'Caixa', isDefault: true });
    seedPixKey(ana, { pixKey: '12345678909', kind: 'cpf', label: null });
    const asked: string[] = [];
    server.use(
      http.get('/api/accounts/:id/qrcodes', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('chave') ?? '');
        return HttpResponse.json({ qrcodes: [], next: null });
      }),
    );
    const { user } = renderApp('/painel/qrcodes');
    const filter = await screen.findByRole('combobox', { name: 'Chave' });
    expect(
      within(filter)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Todas as chaves', 'Caixa: caixa@padaria.com (padrão)', 'CPF: 123.456.789-09']);
    await user.selectOptions(filter, 'Caixa: caixa@padaria.com (padrão)');
    await waitFor(() => expect(asked).toContain(caixa.id));
  });

  it('tells a role without the right (403) instead of the list', async () => {
    owner();
    server.use(http.get('/api/accounts/:id/qrcodes', () => apiError(403, 'forbidden', 'Proibido.')));
    renderApp('/painel/qrcodes');
    expect(await screen.findByText('Seu papel nesta conta não permite ver os QR codes.')).toBeInTheDocument();
  });

  it('says the account was not found (404)', async () => {
    owner();
    server.use(http.get('/api/accounts/:id/qrcodes', () => apiError(404, 'not-found', 'Não encontrada.')));
    renderApp('/painel/qrcodes');
    expect(await screen.findByRole('alert')).toHaveTextContent(/Esta conta não foi encontrada/);
  });

  it('shows an operator only the codes they created', async () => {
    const bruno = seedUser({ email: 'bruno@exemplo.com', displayName: 'Mercearia do Bruno' });
    const ana = owner();
    seedMembership(bruno, ana, 'operator');
    seedQrCode(bruno, { merchantName: 'DO BRUNO', createdBy: bruno.uid });
    seedQrCode(bruno, { merchantName: 'DA ANA NO BRUNO', createdBy: ana.uid });
    const app = renderApp('/painel/qrcodes');
    await app.user.selectOptions(
      await screen.findByRole('combobox', { name: 'Conta em uso' }),
      'Mercearia do Bruno (Operador)',
    );
    expect(await screen.findByRole('listitem', { name: 'DA ANA NO BRUNO' })).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'DO BRUNO' })).not.toBeInTheDocument();
    expect(screen.getByText('Como operador, você vê os QR codes que criou.')).toBeInTheDocument();
  });
});

describe('/painel/criar-qrcode: creating a code', () => {
  it('starts with the name and city from the settings in the person’s own account', async () => {
    owner({ defaultMerchantName: 'Padaria da Ana', defaultMerchantCity: 'Recife' });
    const { form } = await openForm();
    await waitFor(() => expect(within(form).getByLabelText('Nome de quem recebe')).toHaveValue('Padaria da Ana'));
    expect(within(form).getByLabelText('Cidade')).toHaveValue('Recife');
  });

  it('in someone else’s account starts with that account’s name and city, not the person’s own', async () => {
    const bruno = seedUser({
      email: 'bruno@exemplo.com',
      displayName: 'Mercearia do Bruno',
      defaultMerchantName: 'Mercearia do Bruno',
      defaultMerchantCity: 'Olinda',
    });
    const ana = owner({ defaultMerchantName: 'Padaria da Ana', defaultMerchantCity: 'Recife' });
    seedMembership(bruno, ana, 'manager');
    const { form, user } = await openForm();
    await waitFor(() => expect(within(form).getByLabelText('Nome de quem recebe')).toHaveValue('Padaria da Ana'));

    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Conta em uso' }),
      'Mercearia do Bruno (Gerente)',
    );
    const other = await screen.findByRole('form', { name: 'Criar QR code' });
    await waitFor(() => expect(within(other).getByLabelText('Nome de quem recebe')).toHaveValue('Mercearia do Bruno'));
    expect(within(other).getByLabelText('Cidade')).toHaveValue('Olinda');
  });

  it('starts with the account’s default key and the saved “Dados de quem recebe”, not the key’s holder name', async () => {
    const ana = owner({ defaultMerchantName: 'Padaria da Ana', defaultMerchantCity: 'Recife' });
    seedPixKey(ana, { pixKey: '12345678909', kind: 'cpf', label: 'CPF da Ana', holderName: 'Ana Souza' });
    const main = seedPixKey(ana, {
      pixKey: 'caixa@padaria.com',
      label: 'Caixa',
      holderName: 'Padaria da Ana Ltda',
      isDefault: true,
    });
    const { form, user } = await openForm();
    const picker = within(form).getByRole('combobox', { name: 'Chave Pix' });
    await waitFor(() => expect(picker).toHaveValue(main.id));
    expect(within(form).getByRole('option', { name: 'Caixa: caixa@padaria.com (padrão)' })).toBeInTheDocument();
    expect(picker).toHaveAccessibleDescription(/Em nome de Padaria da Ana Ltda/);
    // The settings promise their name comes pre-filled; the hint above still says whose key it is.
    await waitFor(() => expect(within(form).getByLabelText('Nome de quem recebe')).toHaveValue('Padaria da Ana'));
    // No typed key while a registered one is chosen.
    expect(within(form).queryByLabelText('Chave Pix digitada')).not.toBeInTheDocument();

    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));
    await within(form).findAllByRole('status');
    expect(db.qrcodes).toEqual([
      expect.objectContaining({ pixKey: 'caixa@padaria.com', merchantName: 'PADARIA DA ANA' }),
    ]);
  });

  it('takes another registered key with its holder name when no recipient name is saved, or a typed key', async () => {
    const ana = owner({ defaultMerchantCity: 'Recife' });
    const cpf = seedPixKey(ana, { pixKey: '12345678909', kind: 'cpf', label: null, holderName: 'Ana Souza' });
    seedPixKey(ana, { pixKey: 'caixa@padaria.com', label: 'Caixa', holderName: 'Padaria', isDefault: true });
    const { form, user } = await openForm();
    const picker = within(form).getByRole('combobox', { name: 'Chave Pix' });
    await waitFor(() => expect(picker).not.toHaveValue(''));

    await user.selectOptions(picker, 'CPF: 123.456.789-09');
    expect(picker).toHaveValue(cpf.id);
    expect(within(form).getByLabelText('Nome de quem recebe')).toHaveValue('Ana Souza');

    await user.selectOptions(picker, 'Digitar outra chave');
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));
    expect(within(form).getByLabelText('Chave Pix digitada')).toHaveAccessibleDescription(/Campo obrigatório\./);
    await user.type(within(form).getByLabelText('Chave Pix digitada'), 'outra@exemplo.com');
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));
    await within(form).findAllByRole('status');
    expect(db.qrcodes).toEqual([expect.objectContaining({ pixKey: 'outra@exemplo.com', merchantName: 'ANA SOUZA' })]);
  });

  it('creates a code with a pt-BR amount and shows it with its links', async () => {
    const ana = owner({ defaultMerchantName: 'Padaria da Ana', defaultMerchantCity: 'Recife' });
    const { form, user } = await openForm();
    await waitFor(() => expect(within(form).getByLabelText('Nome de quem recebe')).toHaveValue('Padaria da Ana'));
    await user.type(within(form).getByLabelText('Chave Pix'), 'ana@exemplo.com');
    await user.type(within(form).getByLabelText('Valor (opcional)'), '12,50');
    await user.type(within(form).getByLabelText('Descrição (opcional)'), 'Café');
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));

    const [created] = await within(form).findAllByRole('status');
    expect(created).toHaveTextContent('QR code criado (R$ 12,50). Baixe, imprima ou envie abaixo.');
    // The next step (download, share) is where focus is, not above the fold of a phone.
    expect(created).toHaveFocus();
    expect(db.qrcodes).toEqual([
      expect.objectContaining({
        accountId: ana.uid,
        pixKey: 'ana@exemplo.com',
        merchantName: 'PADARIA DA ANA',
        merchantCity: 'RECIFE',
        amountCentavos: 1250,
        description: 'Café',
        createdBy: ana.uid,
      }),
    ]);
    const id = db.qrcodes[0]?.id ?? '';
    const result = within(form).getByRole('article', { name: 'QR code criado' });
    expect(within(result).getByRole('link', { name: 'Abrir a página de pagamento' })).toHaveAttribute(
      'href',
      `/pagamento/${id}`,
    );
    expect(within(result).getByRole('link', { name: 'Imprimir a placa' })).toHaveAttribute(
      'href',
      `/pagamento/${id}/placa`,
    );
    expect(within(result).getByRole('link', { name: 'Baixar PNG' })).toHaveAttribute(
      'href',
      `/placas/${id}.png?modelo=codigo&dpi=254`,
    );
    await user.selectOptions(within(result).getByLabelText('Tamanho do PNG'), 'Só o código, 1600 × 1600 px (gráfica)');
    expect(within(result).getByRole('link', { name: 'Baixar PNG' })).toHaveAttribute(
      'href',
      `/placas/${id}.png?modelo=codigo&dpi=508`,
    );
    expect(within(result).getByRole('link', { name: 'Baixar SVG' })).toHaveAttribute('href', `/placas/${id}.svg`);
    expect(within(result).getByRole('link', { name: 'Baixar PDF' })).toHaveAttribute('href', `/placas/${id}.pdf`);
    expect(within(result).getByRole('link', { name: 'Enviar pelo WhatsApp' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^https:\/\/wa\.me\/\?text=Pague%20com%20Pix%3A%20/),
    );
    expect(within(result).getByRole('button', { name: 'Copiar link' })).toBeInTheDocument();
    expect(within(form).getByLabelText('Valor (opcional)')).toHaveValue('');
  });

  it('offers “Uso único” only once an amount is typed, explains it, and sends it', async () => {
    const ana = owner({ defaultMerchantName: 'Padaria da Ana', defaultMerchantCity: 'Recife' });
    const { form, user } = await openForm();
    await waitFor(() => expect(within(form).getByLabelText('Nome de quem recebe')).toHaveValue('Padaria da Ana'));
    await user.type(within(form).getByLabelText('Chave Pix'), 'ana@exemplo.com');
    // A code where the payer types the amount is a sign many people pay: never single-use.
    expect(within(form).queryByRole('checkbox', { name: 'Uso único: um pagamento só' })).not.toBeInTheDocument();

    await user.type(within(form).getByLabelText('Valor (opcional)'), '49,90');
    const single = within(form).getByRole('checkbox', { name: 'Uso único: um pagamento só' });
    expect(single).not.toBeChecked();
    expect(single).toHaveAccessibleDescription(/depois de pago, a página do QR code avisa a todos que já foi pago/);
    await user.click(single);
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));

    const result = await within(form).findByRole('article', { name: 'QR code criado' });
    expect(result).toHaveTextContent('Uso únicoUm pagamento só');
    expect(db.qrcodes).toEqual([
      expect.objectContaining({ accountId: ana.uid, amountCentavos: 4990, singleUse: true }),
    ]);
    // Cleared for the next code.
    expect(within(form).queryByRole('checkbox', { name: 'Uso único: um pagamento só' })).not.toBeInTheDocument();
  });

  it('does not send “Uso único” when the amount was erased after ticking it', async () => {
    owner({ defaultMerchantName: 'Padaria da Ana', defaultMerchantCity: 'Recife' });
    const { form, user } = await openForm();
    await waitFor(() => expect(within(form).getByLabelText('Nome de quem recebe')).toHaveValue('Padaria da Ana'));
    await user.type(within(form).getByLabelText('Chave Pix'), 'ana@exemplo.com');
    await user.type(within(form).getByLabelText('Valor (opcional)'), '10');
    await user.click(within(form).getByRole('checkbox', { name: 'Uso único: um pagamento só' }));
    await user.clear(within(form).getByLabelText('Valor (opcional)'));
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));
    await within(form).findByRole('article', { name: 'QR code criado' });
    expect(db.qrcodes).toEqual([expect.objectContaining({ amountCentavos: null, singleUse: false })]);
  });

  it('shows a 422 from the BR Code checks under the field it names', async () => {
    owner();
    const { form, user } = await openForm();
    await user.type(within(form).getByLabelText('Chave Pix'), 'não é chave');
    await user.type(within(form).getByLabelText('Nome de quem recebe'), 'Ana');
    await user.type(within(form).getByLabelText('Cidade'), 'Recife');
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));

    const key = within(form).getByLabelText('Chave Pix');
    await waitFor(() =>
      expect(key).toHaveAccessibleDescription(/Chave Pix: não é um CPF, CNPJ, e-mail, celular ou chave aleatória\./),
    );
    expect(key).toHaveFocus();
    expect(db.qrcodes).toEqual([]);
  });

  it('also understands the BR Code’s own field names in a 422', async () => {
    owner();
    server.use(
      http.post('/api/accounts/:id/qrcodes', () =>
        fieldError('merchant-name-too-long', 'Nome: use no máximo 25 caracteres.', 'merchant_name'),
      ),
    );
    const { form, user } = await openForm();
    await user.type(within(form).getByLabelText('Chave Pix'), 'ana@exemplo.com');
    await user.type(within(form).getByLabelText('Nome de quem recebe'), 'Um nome comprido demais para caber');
    await user.type(within(form).getByLabelText('Cidade'), 'Recife');
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));
    await waitFor(() =>
      expect(within(form).getByLabelText('Nome de quem recebe')).toHaveAccessibleDescription(
        'Nome: use no máximo 25 caracteres.',
      ),
    );
  });

  it('asks for the amount as 12,50 before sending it', async () => {
    const ana = owner();
    const { form, user } = await openForm();
    await user.type(within(form).getByLabelText('Chave Pix'), 'ana@exemplo.com');
    await user.type(within(form).getByLabelText('Nome de quem recebe'), 'Ana');
    await user.type(within(form).getByLabelText('Cidade'), 'Recife');
    await user.type(within(form).getByLabelText('Valor (opcional)'), '12.50');
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));
    expect(within(form).getByLabelText('Valor (opcional)')).toHaveAccessibleDescription(
      /Digite o valor em reais, como 12,50\./,
    );
    expect(callTimes(`POST /api/accounts/${ana.uid}/qrcodes`)).toEqual([]);
  });

  it('asks for key, name and city', async () => {
    owner();
    const { form, user } = await openForm();
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));
    for (const label of ['Chave Pix', 'Nome de quem recebe', 'Cidade']) {
      expect(within(form).getByLabelText(label)).toHaveAccessibleDescription(/Campo obrigatório\./);
    }
    expect(within(form).getByLabelText('Chave Pix')).toHaveFocus();
  });

  it('shows every field error at once: key, name and city missing, and an amount typed as 12.50', async () => {
    const ana = owner();
    const { form, user } = await openForm();
    await user.type(within(form).getByLabelText('Valor (opcional)'), '12.50');
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));
    for (const label of ['Chave Pix', 'Nome de quem recebe', 'Cidade']) {
      expect(within(form).getByLabelText(label)).toHaveAccessibleDescription(/Campo obrigatório\./);
    }
    expect(within(form).getByLabelText('Valor (opcional)')).toHaveAccessibleDescription(
      /Digite o valor em reais, como 12,50\./,
    );
    expect(within(form).getByLabelText('Descrição (opcional)')).not.toHaveAttribute('aria-invalid');
    expect(within(form).getByLabelText('Chave Pix')).toHaveFocus();
    expect(callTimes(`POST /api/accounts/${ana.uid}/qrcodes`)).toEqual([]);
  });

  it('tells a role without the right to create (403)', async () => {
    owner();
    server.use(http.post('/api/accounts/:id/qrcodes', () => apiError(403, 'forbidden', 'Proibido.')));
    const { form, user } = await openForm();
    await user.type(within(form).getByLabelText('Chave Pix'), 'ana@exemplo.com');
    await user.type(within(form).getByLabelText('Nome de quem recebe'), 'Ana');
    await user.type(within(form).getByLabelText('Cidade'), 'Recife');
    await user.click(within(form).getByRole('button', { name: 'Criar QR code' }));
    const refused = await within(form).findByRole('alert');
    expect(refused).toHaveTextContent('Seu papel nesta conta não permite criar QR codes.');
    expect(refused).toHaveFocus();
  });
});

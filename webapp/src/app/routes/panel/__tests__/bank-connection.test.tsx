import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { type FakeBankConnection, db, giveBrowserSessionTo, seedPixKey, seedUser } from '@/testing/mocks/db';
import { requestLog } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const certificate = (name: string) => new File([new Uint8Array([0x30, 0x82, 0x01, 0x02])], name);

/** Ana's key connected to Efí in production, its certificate ending `days` from now. */
function connectedEfi(accountId: string, keyId: string, days: number): FakeBankConnection {
  return {
    accountId,
    keyId,
    pixKey: 'loja@exemplo.com',
    bank: 'efi',
    bankName: 'Efí',
    environment: 'producao',
    certificateNotAfter: new Date(Date.now() + days * 86_400_000).toISOString(),
    connectedAt: '2026-11-01T12:00:00Z',
    lastTest: null,
    webhook: { state: 'registered', message: null, at: '2026-11-01T12:00:00Z' },
    catchUp: null,
  };
}

describe('/painel/chaves/{keyId}/banco', () => {
  it('connects the key from its card: bank, secret and .p12 sent, the webhook shown registered', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com' });
    const key = seedPixKey(ana, { pixKey: 'loja@exemplo.com', kind: 'email' });
    giveBrowserSessionTo(ana);
    const app = renderApp('/painel/chaves');
    await app.user.click(await screen.findByRole('link', { name: 'Conectar o banco da chave loja@exemplo.com' }));

    const form = await screen.findByRole('form', { name: 'Conectar banco' });
    expect(within(form).getByText(/Um arquivo .p12 por ambiente/)).toBeInTheDocument();
    await app.user.type(within(form).getByLabelText('Client ID'), 'Client_Id_loja');
    await app.user.type(within(form).getByLabelText('Client Secret'), 'Client_Secret_loja');
    await app.user.upload(within(form).getByLabelText('Certificado'), certificate('producao.p12'));
    expect(within(form).getByText('Escolhido: producao.p12')).toBeInTheDocument();
    // A .p12 holds its key: no second file is asked for.
    expect(within(form).queryByLabelText(/Chave privada/)).not.toBeInTheDocument();
    await app.user.click(within(form).getByRole('button', { name: 'Conectar e testar' }));

    expect(await screen.findByText(/Conectado ao Efí\. Os Pix recebidos na chave/)).toBeInTheDocument();
    expect(screen.getByText(/Registrado no banco em/)).toBeInTheDocument();
    expect(screen.getByText(/Válido até/)).toBeInTheDocument();
    expect(db.bankConnections).toHaveLength(1);
    expect(db.bankConnections[0]?.keyId).toBe(key.id);
    expect(requestLog.some((entry) => entry.call.startsWith('PUT /api/accounts/'))).toBe(true);
  });

  it('shows the bank refusing the secret under the secret, and a PEM certificate asks for its key file', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com' });
    const key = seedPixKey(ana, { pixKey: 'loja@exemplo.com', kind: 'email' });
    giveBrowserSessionTo(ana);
    const app = renderApp(`/painel/chaves/${key.id}/banco`);
    const form = await screen.findByRole('form', { name: 'Conectar banco' });
    await app.user.click(within(form).getByRole('button', { name: 'Conectar e testar' }));
    expect(within(form).getByLabelText('Client ID')).toHaveAccessibleDescription(/Campo obrigatório/);
    expect(within(form).getByLabelText('Certificado')).toHaveAccessibleDescription(/Escolha o arquivo do certificado/);

    await app.user.type(within(form).getByLabelText('Client ID'), 'Client_Id_loja');
    await app.user.type(within(form).getByLabelText('Client Secret'), 'segredo-errado');
    await app.user.upload(within(form).getByLabelText('Certificado'), certificate('loja.crt'));
    expect(within(form).getByLabelText(/Chave privada/)).toBeInTheDocument();
    await app.user.click(within(form).getByRole('button', { name: 'Conectar e testar' }));
    expect(await within(form).findByText(/O banco recusou o Client ID ou o Client Secret/)).toBeInTheDocument();
    expect(within(form).getByLabelText('Client Secret')).toHaveAccessibleDescription(/O banco recusou/);
    expect(db.bankConnections).toHaveLength(0);
  });

  it("says on the key's card when the bank is out of reach or the certificate is ending", async () => {
    const ana = seedUser({ email: 'ana@exemplo.com' });
    const key = seedPixKey(ana, { pixKey: 'loja@exemplo.com', kind: 'email' });
    const connection = connectedEfi(ana.uid, key.id, 6.5);
    db.bankConnections.push(connection);
    giveBrowserSessionTo(ana);
    const app = renderApp('/painel/chaves');
    expect(await screen.findByText('O certificado vence em 6 dias: peça o novo ao banco.')).toBeInTheDocument();
    expect(screen.getByText(/Banco conectado: Efí \(produção\)/)).toBeInTheDocument();

    connection.catchUp = {
      checkedUntil: null,
      lastSuccessAt: null,
      failingSince: '2026-11-02T09:05:00Z',
      lastProblem: 'O banco está fora do ar agora (erro 503).',
    };
    app.unmount();
    renderApp('/painel/chaves');
    expect(await screen.findByText(/^Sem contato com o banco desde /)).toBeInTheDocument();
  });

  it('warns on the dashboard home of a certificate ending within 30 days, with the way to the key', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com' });
    const key = seedPixKey(ana, { pixKey: 'loja@exemplo.com', kind: 'email' });
    db.bankConnections.push(connectedEfi(ana.uid, key.id, 6.5));
    giveBrowserSessionTo(ana);
    renderApp('/painel');
    const warnings = await screen.findByRole('status', { name: 'Avisos dos bancos conectados' });
    expect(warnings).toHaveTextContent(
      'Chave loja@exemplo.com (Efí): O certificado vence em 6 dias: peça o novo ao banco.',
    );
    expect(within(warnings).getByRole('link', { name: 'Ver conexão' })).toHaveAttribute(
      'href',
      `/painel/chaves/${key.id}/banco`,
    );
  });

  it('says nothing on the dashboard home while every connection is well', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com' });
    const key = seedPixKey(ana, { pixKey: 'loja@exemplo.com', kind: 'email' });
    db.bankConnections.push(connectedEfi(ana.uid, key.id, 200));
    giveBrowserSessionTo(ana);
    renderApp('/painel');
    await waitFor(() =>
      expect(requestLog.some((entry) => entry.call === `GET /api/accounts/${ana.uid}/bank-connections`)).toBe(true),
    );
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('status', { name: 'Avisos dos bancos conectados' })).not.toBeInTheDocument();
  });

  it('makes a charge through the connected bank and offers its payment page, one idempotency key per charge', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', defaultMerchantCity: 'Recife' });
    const key = seedPixKey(ana, { pixKey: 'loja@exemplo.com', kind: 'email' });
    db.bankConnections.push(connectedEfi(ana.uid, key.id, 200));
    giveBrowserSessionTo(ana);
    const app = renderApp(`/painel/chaves/${key.id}/banco`);
    const form = await screen.findByRole('form', { name: 'Criar cobrança' });
    expect(within(form).getByLabelText('Cidade')).toHaveValue('Recife');
    expect(within(form).getByLabelText('Validade')).toHaveValue('30');

    await app.user.type(within(form).getByLabelText('Valor'), '0,00');
    await app.user.click(within(form).getByRole('button', { name: 'Criar cobrança' }));
    expect(await within(form).findByText('Informe um valor maior que zero.')).toBeInTheDocument();

    await app.user.clear(within(form).getByLabelText('Valor'));
    await app.user.type(within(form).getByLabelText('Valor'), '45,90');
    await app.user.type(within(form).getByLabelText('Mensagem para quem paga (opcional)'), 'Pedido 42');
    await app.user.selectOptions(within(form).getByLabelText('Validade'), '15 minutos');
    await app.user.click(within(form).getByRole('button', { name: 'Criar cobrança' }));

    const made = await screen.findByText(/Cobrança de R\$\s45,90 criada no banco, paga até/);
    expect(made).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Abrir a página de pagamento' });
    expect(link.getAttribute('href')).toMatch(/^http:\/\/localhost\/pagamento\//);
    const sent = requestLog.filter((entry) => entry.call.endsWith('/qrcodes/cobrancas'));
    expect(sent).toHaveLength(2);
    const [first, second] = sent.map((entry) => entry.headers.get('Idempotency-Key'));
    // The refused try and the charge made: the same form, the same charge until one is made.
    expect(first).toBeTruthy();
    expect(second).toBe(first);
  });

  it('makes an invoice with a due date: the debtor refused under its field, then the charge made', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', defaultMerchantCity: 'Recife' });
    const key = seedPixKey(ana, { pixKey: 'loja@exemplo.com', kind: 'email' });
    db.bankConnections.push(connectedEfi(ana.uid, key.id, 200));
    giveBrowserSessionTo(ana);
    const app = renderApp(`/painel/chaves/${key.id}/banco`);
    await app.user.click(await screen.findByRole('button', { name: 'Fatura com vencimento' }));
    const form = screen.getByRole('form', { name: 'Criar cobrança com vencimento' });
    expect(within(form).getByLabelText('Dias para pagar depois do vencimento')).toHaveValue('30');

    await app.user.click(within(form).getByRole('button', { name: 'Criar cobrança com vencimento' }));
    expect(within(form).getByLabelText('Nome de quem paga')).toHaveAccessibleDescription(/Campo obrigatório/);
    expect(within(form).getByLabelText('Vencimento')).toHaveAccessibleDescription(/Campo obrigatório|Escolha a data/);

    await app.user.type(within(form).getByLabelText('Nome de quem paga'), 'Maria da Silva');
    await app.user.type(within(form).getByLabelText('CPF ou CNPJ de quem paga'), '111.111.111-11');
    await app.user.type(within(form).getByLabelText('Valor'), '150,00');
    await app.user.type(within(form).getByLabelText('Vencimento'), '2026-12-10');
    await app.user.selectOptions(within(form).getByLabelText('Multa depois do vencimento'), 'Percentual (%)');
    await app.user.type(within(form).getByLabelText('Valor da multa'), '2,00');
    await app.user.selectOptions(within(form).getByLabelText('Juros depois do vencimento'), '% ao mês (dias corridos)');
    await app.user.selectOptions(
      within(form).getByLabelText('Desconto para quem paga antes'),
      'Valor fixo até a data (R$)',
    );
    await app.user.type(within(form).getByLabelText('Valor do desconto'), '5,00');
    await app.user.click(within(form).getByRole('button', { name: 'Criar cobrança com vencimento' }));
    // A modality chosen needs its value, and a discount its last day.
    expect(within(form).getByLabelText('Valor dos juros')).toHaveAccessibleDescription(
      /Informe o valor desta modalidade/,
    );
    await app.user.type(within(form).getByLabelText('Valor dos juros'), '1,00');
    expect(within(form).getByLabelText('Desconto vale até')).toHaveAccessibleDescription(/Até quando vale o desconto/);
    await app.user.type(within(form).getByLabelText('Desconto vale até'), '2026-12-05');
    await app.user.click(within(form).getByRole('button', { name: 'Criar cobrança com vencimento' }));
    expect(await within(form).findByText('Informe um CPF ou CNPJ válido de quem deve pagar.')).toBeInTheDocument();
    expect(within(form).getByLabelText('CPF ou CNPJ de quem paga')).toHaveAccessibleDescription(/CPF ou CNPJ válido/);

    await app.user.clear(within(form).getByLabelText('CPF ou CNPJ de quem paga'));
    await app.user.type(within(form).getByLabelText('CPF ou CNPJ de quem paga'), '123.456.789-09');
    await app.user.click(within(form).getByRole('button', { name: 'Criar cobrança com vencimento' }));
    const sent = db.charges.at(-1);
    expect(sent).toMatchObject({
      fine: { modality: 2, value: '2,00' },
      interest: { modality: 3, value: '1,00' },
      discount: { modality: 1, dates: [{ until: '2026-12-05', value: '5,00' }] },
      abatement: null,
      debtor: { name: 'Maria da Silva', document: '123.456.789-09' },
    });
    expect(
      await screen.findByText(
        /Cobrança de R\$\s150,00 para Maria da Silva criada no banco, com vencimento em 10\/12\/2026/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Abrir a página de pagamento' })).toBeInTheDocument();
  });

  it('points from the code form to the charges of each connected key, and says nothing without one', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com' });
    const key = seedPixKey(ana, { pixKey: 'loja@exemplo.com', kind: 'email' });
    giveBrowserSessionTo(ana);
    const first = renderApp('/painel/criar-qrcode');
    await screen.findByRole('form', { name: 'Criar QR code' });
    await waitFor(() => expect(requestLog.some((entry) => entry.call.endsWith('/bank-connections'))).toBe(true));
    expect(screen.queryByRole('heading', { name: 'Venda com prazo para pagar?' })).not.toBeInTheDocument();
    first.unmount();

    db.bankConnections.push(connectedEfi(ana.uid, key.id, 200));
    renderApp('/painel/criar-qrcode');
    const link = await screen.findByRole('link', {
      name: 'Criar cobrança com validade na chave loja@exemplo.com (Efí)',
    });
    expect(link).toHaveAttribute('href', `/painel/chaves/${key.id}/banco`);
  });

  it('asks before disconnecting and then offers to connect again', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com' });
    const key = seedPixKey(ana, { pixKey: 'loja@exemplo.com', kind: 'email' });
    db.bankConnections.push({
      accountId: ana.uid,
      keyId: key.id,
      pixKey: 'loja@exemplo.com',
      bank: 'efi',
      bankName: 'Efí',
      environment: 'homologacao',
      certificateNotAfter: new Date(Date.now() + 10 * 86_400_000).toISOString(),
      connectedAt: '2026-11-01T12:00:00Z',
      lastTest: { ok: false, message: 'O banco não respondeu a tempo.', at: '2026-11-02T10:00:00Z' },
      webhook: { state: 'failed', message: 'Falta a permissão webhook.write.', at: '2026-11-01T12:00:00Z' },
      catchUp: {
        checkedUntil: '2026-11-02T09:00:00Z',
        lastSuccessAt: '2026-11-02T09:00:00Z',
        failingSince: '2026-11-02T09:05:00Z',
        lastProblem: 'O banco está fora do ar agora (erro 503). Tente de novo em alguns minutos.',
      },
    });
    giveBrowserSessionTo(ana);
    const app = renderApp(`/painel/chaves/${key.id}/banco`);
    expect(await screen.findByText('Efí (homologação)')).toBeInTheDocument();
    expect(screen.getByText(/faltam \d+ dias: peça o novo ao banco/)).toBeInTheDocument();
    expect(screen.getByText('Não registrado: Falta a permissão webhook.write.')).toBeInTheDocument();
    expect(screen.getByText(/Falhou em .*: O banco não respondeu a tempo\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Registrar o aviso de pagamentos' })).toBeInTheDocument();
    expect(screen.getByText(/Sem contato com o banco desde .*: O banco está fora do ar agora/)).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Desconectar' }));
    await app.user.click(await screen.findByRole('button', { name: 'Sim, desconectar' }));
    expect(await screen.findByText(/Banco desconectado/)).toBeInTheDocument();
    expect(await screen.findByRole('form', { name: 'Conectar banco' })).toBeInTheDocument();
    expect(db.bankConnections).toHaveLength(0);
  });
});

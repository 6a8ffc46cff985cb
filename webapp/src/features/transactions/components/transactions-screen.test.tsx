import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { type FakeUser, giveBrowserSessionTo, seedMembership, seedQrCode, seedUser } from '@/testing/mocks/db';
import { fieldError } from '@/testing/mocks/handlers/api-error';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

import type { Payment, PaymentEventEntry } from '../api/payments';
import { addDays, saoPauloDay } from '../utils/periods';

// A fake of the transactions API that records every query string it was asked with and answers
// from a fixed set of payments; what the screen shows and what it asks for are both checked.

function payment(fields: Partial<Payment> & { reference: string }): Payment {
  return {
    endToEndId: null,
    amountCentavos: 1250,
    refundedCentavos: 0,
    paidAt: '2026-11-01T12:00:00.000Z',
    day: '2026-11-01',
    txid: null,
    qrcodeId: null,
    codeDescription: null,
    source: 'manual',
    confirmedBy: null,
    status: 'received',
    note: null,
    recordedBy: null,
    voidReason: null,
    recordedAt: '2026-11-01T12:00:01.000Z',
    refunds: [],
    ...fields,
  };
}

const BANK = payment({
  reference: 'E87654321202611031000transacao01',
  endToEndId: 'E87654321202611031000transacao01',
  amountCentavos: 2000,
  paidAt: '2026-11-03T13:00:00.000Z',
  day: '2026-11-03',
  txid: 'caixa1',
  qrcodeId: 'code-1',
  codeDescription: 'Pão de queijo',
  source: 'api-pix',
  payer: { name: 'Maria Cliente', document: '12345678909', info: null },
});
const TYPED = payment({
  reference: 'manual-0196',
  amountCentavos: 123456,
  paidAt: '2026-11-02T02:30:00.000Z',
  note: 'mesa 4',
});

const HISTORY: PaymentEventEntry[] = [
  {
    eventId: '0196a1b2-0000-7000-8000-000000000001',
    version: 1,
    type: 'PaymentRecorded',
    at: '2026-11-02T02:30:05.000Z',
    source: 'manual',
    amountCentavos: 123456,
    by: { kind: 'person', id: 'u1', name: 'Gerente Gil' },
    correlationId: '0196a1b2-0000-7000-8000-00000000c0c0',
    causationId: null,
    requestId: null,
  },
];

interface Calls {
  lists: URLSearchParams[];
  summaries: URLSearchParams[];
  exports: URLSearchParams[];
  posts: { path: string; body: unknown }[];
}

function fakeApi(
  pages: { payments: Payment[]; next: string | null }[] = [{ payments: [BANK, TYPED], next: null }],
  bankConnected = false,
) {
  const calls: Calls = { lists: [], summaries: [], exports: [], posts: [] };
  server.use(
    http.get('/api/accounts/:id/payments', ({ request }) => {
      const params = new URL(request.url).searchParams;
      calls.lists.push(params);
      const page = params.get('depois') === null ? pages[0] : pages[1];
      return HttpResponse.json(page ?? { payments: [], next: null });
    }),
    http.get('/api/accounts/:id/payments/summary', ({ request }) => {
      calls.summaries.push(new URL(request.url).searchParams);
      return HttpResponse.json({
        total: { payments: 2, receivedCentavos: 125456, refundedCentavos: 0, netCentavos: 125456, voided: 1 },
        days: [
          { day: '2026-11-01', payments: 1, receivedCentavos: 123456, refundedCentavos: 0, voided: 0 },
          { day: '2026-11-02', payments: 0, receivedCentavos: 0, refundedCentavos: 0, voided: 1 },
          { day: '2026-11-03', payments: 1, receivedCentavos: 2000, refundedCentavos: 0, voided: 0 },
        ],
      });
    }),
    http.get('/api/accounts/:id/payments/csv', ({ request }) => {
      calls.exports.push(new URL(request.url).searchParams);
      return new HttpResponse('\uFEFFData;Valor\r\n01/11/2026 23:30;1.234,56\r\n', {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="transacoes-2026-11-01-a-2026-11-03.csv"',
        },
      });
    }),
    http.get('/api/accounts/:id/payments/:reference/history', () => HttpResponse.json({ events: HISTORY })),
    http.get('/api/accounts/:id/payments/:reference', ({ params }) =>
      HttpResponse.json(params.reference === BANK.reference ? { ...BANK, refundViaBank: bankConnected } : TYPED),
    ),
    http.post('/api/accounts/:id/payments/:reference/void', async ({ request, params }) => {
      calls.posts.push({ path: `void ${String(params.reference)}`, body: await request.json() });
      return HttpResponse.json({ ...TYPED, status: 'voided', voidReason: 'engano' });
    }),
    http.post('/api/accounts/:id/payments/:reference/refunds', async ({ request, params }) => {
      const body = (await request.json()) as { amount: string; description: string | null };
      calls.posts.push({
        path: `refund ${String(params.reference)} ${request.headers.get('idempotency-key') ? 'with key' : 'no key'}`,
        body,
      });
      if (body.amount === '25,00')
        return fieldError(
          'payment-refund-over-left',
          'O valor passa do que resta a devolver: no máximo R$ 20,00.',
          'amount',
        );
      return HttpResponse.json(
        {
          ...BANK,
          refunds: [{ id: 'r1', rtrId: '', amountCentavos: 500, status: 'EM_PROCESSAMENTO' }],
          refund: { id: 'r1', status: 'EM_PROCESSAMENTO' },
        },
        { status: 201 },
      );
    }),
    http.post('/api/accounts/:id/payments', async ({ request }) => {
      calls.posts.push({ path: 'record', body: await request.json() });
      return HttpResponse.json(payment({ reference: 'manual-nova', amountCentavos: 990 }), { status: 201 });
    }),
  );
  return calls;
}

function owner(): FakeUser {
  const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
  giveBrowserSessionTo(ana);
  return ana;
}

const last = (list: URLSearchParams[]) => list[list.length - 1];

/** The app at /painel/transacoes once the screen (a lazy route) and its list are there. */
async function openScreen() {
  const app = renderApp('/painel/transacoes');
  await screen.findByRole('search', { name: 'Filtrar transações' }, { timeout: 15_000 });
  return app;
}

// The screen is a lazy route with a chart library: on a busy machine its first render takes seconds.
describe('/painel/transacoes', { timeout: 30_000 }, () => {
  const createObjectURL = vi.fn(() => 'blob:transacoes');
  beforeEach(() => {
    createObjectURL.mockClear();
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('lists the last 7 São Paulo days with their totals, a bar per day and each payment', async () => {
    owner();
    const calls = fakeApi();
    await openScreen();
    const figures = await screen.findByLabelText('Totais do filtro');
    expect(screen.getByRole('heading', { level: 1, name: 'Transações' })).toBeInTheDocument();
    expect(figures).toHaveTextContent('RecebidoR$ 1.254,56');
    expect(figures).toHaveTextContent('Pagamentos2');
    expect(figures).toHaveTextContent('Anulados1');
    expect(screen.getByText('Recebido por dia')).toBeInTheDocument();
    const dayList = screen.getByText('Ver os valores de cada dia').closest('details');
    expect(dayList).not.toBeNull();
    const perDay = within(dayList as HTMLElement).getAllByRole('row');
    expect(perDay.map((row) => row.textContent)).toEqual([
      'DiaPagamentosRecebido',
      '01/11/20261R$ 1.234,56',
      '02/11/20260R$ 0,00',
      '03/11/20261R$ 20,00',
    ]);

    const table = screen.getByRole('table', { name: 'Transações encontradas' });
    const rows = await within(table).findAllByRole('row');
    expect(rows.slice(1).map((row) => row.textContent)).toEqual([
      '03/11/2026, 10:00R$ 20,00Pão de queijoBanco (API Pix)RecebidoDetalhes',
      '01/11/2026, 23:30R$ 1.234,56Sem QR codeRegistrado à mãoRecebidoDetalhes',
    ]);

    const today = saoPauloDay(new Date());
    expect(last(calls.lists)?.get('de')).toBe(addDays(today, -6));
    expect(last(calls.lists)?.get('ate')).toBe(today);
    expect(last(calls.summaries)?.toString()).toBe(`de=${addDays(today, -6)}&ate=${today}`);
  });

  it('sends every filter to the list, the totals and the CSV alike', async () => {
    owner();
    const calls = fakeApi();
    const app = await openScreen();
    const form = screen.getByRole('search', { name: 'Filtrar transações' });
    await app.user.selectOptions(within(form).getByLabelText('Período'), 'personalizado');
    await app.user.type(within(form).getByLabelText('De'), '2026-11-01');
    await app.user.type(within(form).getByLabelText('Até'), '2026-11-03');
    await app.user.selectOptions(within(form).getByLabelText('QR code'), 'sem');
    await app.user.selectOptions(within(form).getByLabelText('Origem'), 'manual');
    await app.user.selectOptions(within(form).getByLabelText('Situação'), 'voided');
    await app.user.type(within(form).getByLabelText('Valor mínimo'), '10,00');
    await app.user.type(within(form).getByLabelText('Valor máximo'), '2.000');
    await app.user.type(within(form).getByLabelText('Buscar'), 'mesa');
    const expected =
      'de=2026-11-01&ate=2026-11-03&qrcode=sem&origem=manual&situacao=voided&minimo=10%2C00&maximo=2.000&busca=mesa';
    await waitFor(() => expect(last(calls.summaries)?.toString()).toBe(expected));
    await waitFor(() => expect(last(calls.lists)?.toString()).toBe(`${expected}&limite=50`));

    await app.user.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    await waitFor(() => expect(last(calls.exports)?.toString()).toBe(expected));
    expect(createObjectURL).toHaveBeenCalledOnce();
  });

  it('on a phone keeps the less used filters closed under "Mais filtros", which counts those in use', async () => {
    owner();
    fakeApi();
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }));
    try {
      const app = await openScreen();
      const form = screen.getByRole('search', { name: 'Filtrar transações' });
      const more = within(form).getByText('Mais filtros').closest('details');
      expect(more).not.toBeNull();
      expect(more?.open).toBe(false);
      expect(within(form).getByLabelText('Período')).toBeVisible();
      expect(within(form).getByLabelText('Buscar')).toBeVisible();

      await app.user.click(within(form).getByText('Mais filtros'));
      expect(more?.open).toBe(true);
      await app.user.selectOptions(within(form).getByLabelText('Origem'), 'manual');
      expect(within(form).getByText('Mais filtros (1 em uso)')).toBeInTheDocument();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('offers "Limpar filtros" once a filter is in use, and it puts every filter back', async () => {
    owner();
    const calls = fakeApi();
    const app = await openScreen();
    const form = screen.getByRole('search', { name: 'Filtrar transações' });
    expect(within(form).queryByRole('button', { name: 'Limpar filtros' })).toBeNull();

    await app.user.selectOptions(within(form).getByLabelText('Origem'), 'manual');
    await app.user.type(within(form).getByLabelText('Buscar'), 'mesa');
    await app.user.click(within(form).getByRole('button', { name: 'Limpar filtros' }));

    expect(within(form).getByLabelText('Origem')).toHaveValue('');
    expect(within(form).getByLabelText('Buscar')).toHaveValue('');
    expect(within(form).queryByRole('button', { name: 'Limpar filtros' })).toBeNull();
    await waitFor(() => expect(last(calls.lists)?.has('origem')).toBe(false));
  });

  it('keeps an amount that is not in reais from being sent and says why under it', async () => {
    owner();
    const calls = fakeApi();
    const app = await openScreen();
    const form = screen.getByRole('search', { name: 'Filtrar transações' });
    await app.user.type(within(form).getByLabelText('Valor mínimo'), '12.5');
    expect(await within(form).findByText('Digite o valor em reais, como 12,50.')).toBeInTheDocument();
    expect(calls.summaries.every((params) => !params.has('minimo'))).toBe(true);
  });

  it('shows the server’s refusal of a filter under the field it names', async () => {
    owner();
    fakeApi();
    server.use(
      http.get('/api/accounts/:id/payments/summary', () =>
        fieldError('invalid-argument', 'O valor máximo não pode ser menor que o mínimo.', 'maximo'),
      ),
    );
    await openScreen();
    const form = screen.getByRole('search', { name: 'Filtrar transações' });
    expect(await within(form).findByText('O valor máximo não pode ser menor que o mínimo.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Valor máximo')).toHaveAttribute('aria-invalid', 'true');
  });

  it('loads the next keyset page after the last one with its cursor', async () => {
    owner();
    const calls = fakeApi([
      { payments: [BANK], next: 'cursor-1' },
      { payments: [TYPED], next: null },
    ]);
    const app = await openScreen();
    await app.user.click(await screen.findByRole('button', { name: 'Carregar mais' }));
    const table = screen.getByRole('table', { name: 'Transações encontradas' });
    await within(table).findByText('R$ 1.234,56');
    expect(last(calls.lists)?.get('depois')).toBe('cursor-1');
    expect(within(table).getByText('R$ 20,00')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Carregar mais' })).not.toBeInTheDocument();
  });

  it('opens a payment’s detail panel with its history from the log, and voids a typed one', async () => {
    owner();
    const calls = fakeApi();
    const app = await openScreen();
    await app.user.click(await screen.findByRole('button', { name: /^Detalhes do pagamento de R\$ 1\.234,56/ }));
    const panel = await screen.findByRole('region', { name: 'Pagamento de R$ 1.234,56' });
    expect(within(panel).getByRole('heading', { name: 'Pagamento de R$ 1.234,56' })).toHaveFocus();
    expect(panel).toHaveTextContent('Observaçãomesa 4');
    const event = await within(panel).findByText('Pagamento de R$ 1.234,56 registrado à mão.');
    const entry = event.closest('li');
    expect(entry).toHaveTextContent('PorGerente Gil');
    expect(entry).toHaveTextContent('Correlação0196a1b2-0000-7000-8000-00000000c0c0');
    expect(entry).toHaveTextContent('Causanenhuma registrada');
    expect(entry).toHaveTextContent('OrigemRegistrado à mão');

    await app.user.click(within(panel).getByRole('button', { name: 'Anular pagamento' }));
    await app.user.type(within(panel).getByLabelText('Motivo'), 'engano');
    await app.user.click(within(panel).getByRole('button', { name: 'Sim, anular' }));
    await waitFor(() => expect(calls.posts).toEqual([{ path: 'void manual-0196', body: { reason: 'engano' } }]));
  });

  it('shows who paid only when the server sends it, and offers no void for a bank’s payment', async () => {
    owner();
    fakeApi();
    const app = await openScreen();
    await app.user.click(await screen.findByRole('button', { name: /^Detalhes do pagamento de R\$ 20,00/ }));
    const panel = await screen.findByRole('region', { name: 'Pagamento de R$ 20,00' });
    expect(panel).toHaveTextContent('PagadorMaria Cliente · 12345678909');
    expect(within(panel).queryByRole('button', { name: 'Anular pagamento' })).not.toBeInTheDocument();
  });

  it('refunds a bank’s payment through the connected bank, after a second yes, with the amount left', async () => {
    owner();
    const calls = fakeApi(undefined, true);
    const app = await openScreen();
    await app.user.click(await screen.findByRole('button', { name: /^Detalhes do pagamento de R\$ 20,00/ }));
    const panel = await screen.findByRole('region', { name: 'Pagamento de R$ 20,00' });
    await app.user.click(await within(panel).findByRole('button', { name: 'Devolver pagamento' }));
    const form = within(panel).getByRole('form', { name: 'Devolver pagamento' });
    const amount = within(form).getByLabelText('Valor a devolver');
    expect(amount).toHaveValue('20,00');
    await app.user.clear(amount);
    await app.user.type(amount, '25,00');
    await app.user.click(within(form).getByRole('button', { name: 'Sim, devolver' }));
    expect(
      await within(form).findByText('O valor passa do que resta a devolver: no máximo R$ 20,00.'),
    ).toBeInTheDocument();
    await app.user.clear(amount);
    await app.user.type(amount, '5,00');
    await app.user.type(within(form).getByLabelText('Mensagem ao pagador (opcional)'), 'Troca');
    await app.user.click(within(form).getByRole('button', { name: 'Sim, devolver' }));
    expect(await within(panel).findByRole('status')).toHaveTextContent(
      'O banco recebeu o pedido e está processando a devolução.',
    );
    expect(calls.posts).toEqual([
      { path: `refund ${BANK.reference} with key`, body: { amount: '25,00', description: null } },
      { path: `refund ${BANK.reference} with key`, body: { amount: '5,00', description: 'Troca' } },
    ]);
  });

  it('says how to refund through Balcão when the payment’s key has no connected bank', async () => {
    owner();
    fakeApi();
    const app = await openScreen();
    await app.user.click(await screen.findByRole('button', { name: /^Detalhes do pagamento de R\$ 20,00/ }));
    const panel = await screen.findByRole('region', { name: 'Pagamento de R$ 20,00' });
    expect(await within(panel).findByText(/conecte o banco da chave que o recebeu/)).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Devolver pagamento' })).not.toBeInTheDocument();
  });

  it('records a payment by hand, read on São Paulo’s clock', async () => {
    owner();
    const calls = fakeApi();
    const app = await openScreen();
    await app.user.click(await screen.findByRole('button', { name: 'Registrar pagamento' }));
    const form = screen.getByRole('form', { name: 'Registrar pagamento' });
    await app.user.type(within(form).getByLabelText('Valor'), '9,90');
    await app.user.type(within(form).getByLabelText('Data e hora (opcional)'), '2026-11-01T23:30');
    await app.user.type(within(form).getByLabelText('Observação (opcional)'), 'fiado');
    await app.user.click(within(form).getByRole('button', { name: 'Registrar pagamento' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Pagamento de R$ 9,90 registrado.');
    expect(calls.posts).toEqual([
      {
        path: 'record',
        body: { qrcodeId: null, amount: '9,90', paidAt: '2026-11-02T02:30:00.000Z', note: 'fiado', endToEndId: null },
      },
    ]);
  });

  it('asks an operator for one of their own codes before recording', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
    const caio = seedUser({ email: 'caio@exemplo.com', displayName: 'Caio' });
    seedMembership(ana, caio, 'operator');
    seedQrCode(ana, { description: 'Balcão 2', createdBy: caio.uid });
    giveBrowserSessionTo(caio);
    const calls = fakeApi();
    const app = renderApp('/painel/transacoes');
    // The operator's own account opens first; move to Ana's.
    const inUse = await screen.findByLabelText('Conta em uso');
    await app.user.selectOptions(inUse, within(inUse).getByRole('option', { name: /Operador/ }));
    expect(
      await screen.findByText('Os pagamentos dos QR codes que você criou, do mais novo ao mais antigo.'),
    ).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Registrar pagamento' }));
    const form = screen.getByRole('form', { name: 'Registrar pagamento' });
    await app.user.type(within(form).getByLabelText('Valor'), '5,00');
    await app.user.click(within(form).getByRole('button', { name: 'Registrar pagamento' }));
    expect(await within(form).findByText('Escolha o QR code que recebeu o pagamento.')).toBeInTheDocument();
    expect(calls.posts).toEqual([]);
    await app.user.selectOptions(
      within(form).getByLabelText('QR code'),
      within(form).getByRole('option', { name: /Balcão 2/ }),
    );
    await app.user.click(within(form).getByRole('button', { name: 'Registrar pagamento' }));
    await waitFor(() => expect(calls.posts).toHaveLength(1));
  });
});

import { screen, within } from '@testing-library/react';
import { HttpResponse, delay, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { eventually } from '@/testing/eventually';
import { type FakeUser, giveBrowserSessionTo, seedMembership, seedUser } from '@/testing/mocks/db';
import { openLiveStreams, sendLive } from '@/testing/mocks/handlers/live';
import { callTimes, requestLog, server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

import type { HomeSummary, PeriodFigures } from '../api/home-summary';

const figures = (payments: number, receivedCentavos: number): PeriodFigures => ({
  payments,
  receivedCentavos,
  refundedCentavos: 0,
  averageTicketCentavos: payments === 0 ? 0 : Math.round(receivedCentavos / payments),
});

function summary(today: PeriodFigures, recent: HomeSummary['recent'] = []): HomeSummary {
  return {
    today: '2026-11-02',
    periods: { today, last7Days: figures(12, 123_456_78), last30Days: figures(40, 987_654_32) },
    recent,
  };
}

/** Serves `answers` in turn (the last one from then on) as the account's summary. */
function serveSummaries(...answers: HomeSummary[]) {
  let served = 0;
  server.use(
    http.get('/api/accounts/:accountId/summary', () => {
      const answer = answers[Math.min(served, answers.length - 1)];
      served += 1;
      return HttpResponse.json(answer);
    }),
  );
}

function owner(): FakeUser {
  const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
  giveBrowserSessionTo(ana);
  return ana;
}

describe('/painel: the home', () => {
  it('shows today, 7 and 30 days in reais with the count and average ticket, and the latest payments', async () => {
    owner();
    serveSummaries(
      summary(figures(3, 4_550), [
        {
          reference: 'E1',
          amountCentavos: 1_250,
          refundedCentavos: 0,
          paidAt: '2026-11-02T15:30:00Z',
          qrcodeId: 'q1',
          source: 'api-pix',
          status: 'received',
          note: null,
        },
        {
          reference: 'manual-1',
          amountCentavos: 3_300,
          refundedCentavos: 0,
          paidAt: '2026-11-02T12:00:00Z',
          qrcodeId: null,
          source: 'manual',
          status: 'voided',
          note: 'troco',
        },
      ]),
    );
    renderApp('/painel');

    const today = await screen.findByRole('listitem', { name: 'Hoje: R$ 45,50' });
    expect(today).toHaveTextContent('3 pagamentos · ticket médio R$ 15,17');
    expect(screen.getByRole('listitem', { name: 'Últimos 7 dias: R$ 123.456,78' })).toHaveTextContent(
      '12 pagamentos · ticket médio R$ 10.288,07',
    );
    expect(screen.getByRole('listitem', { name: 'Últimos 30 dias: R$ 987.654,32' })).toBeInTheDocument();
    const recent = within(screen.getByRole('region', { name: 'Últimos pagamentos' })).getAllByRole('listitem');
    expect(recent[0]).toHaveTextContent('R$ 12,50');
    expect(recent[0]).toHaveTextContent(/02\/11\/2026, \d\d:30/);
    expect(recent[0]).toHaveTextContent('Aviso do banco');
    expect(recent[1]).toHaveTextContent('Registrado à mão · sem QR code · cancelado');
    const shortcuts = within(screen.getByRole('region', { name: 'Atalhos' }));
    expect(shortcuts.getByRole('link', { name: 'Criar QR code' })).toHaveAttribute('href', '/painel/criar-qrcode');
    expect(shortcuts.getByRole('link', { name: 'Registrar pagamento' })).toHaveAttribute('href', '/painel/transacoes');
    expect(shortcuts.getByRole('link', { name: 'Link de pagamento' })).toBeInTheDocument();
  });

  it('keeps the place of the three figures while they load, so nothing below moves when they come', async () => {
    owner();
    server.use(
      http.get('/api/accounts/:accountId/summary', async () => {
        await delay('infinite');
      }),
    );
    renderApp('/painel');
    expect(await screen.findByText('Carregando os valores recebidos…')).toHaveAttribute('role', 'status');
    const placeholders = document.querySelectorAll('.figure.loading');
    expect(placeholders).toHaveLength(3);
    expect(placeholders[0]?.closest('ul')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.queryByRole('listitem', { name: /^Hoje/ })).toBeNull();
    expect(screen.getByRole('region', { name: 'Atalhos' })).toBeInTheDocument();
  });

  it('shows the greeting and the e-mail reminder with the screen, not after it', async () => {
    giveBrowserSessionTo(seedUser({ email: 'ze@exemplo.com', displayName: 'Zé Lima', emailVerified: false }));
    let answerMe: () => void = () => undefined;
    const meAnswered = new Promise<void>((resolve) => {
      answerMe = resolve;
    });
    server.use(
      http.get('/api/auth/me', async () => {
        await meAnswered;
        // Nothing returned: the usual handler answers.
      }),
    );
    renderApp('/painel');
    // The figures are asked for meanwhile: waiting for /me costs no time.
    await eventually(() => expect(callTimes(`GET ${summaryPath()}`).length).toBe(1));
    expect(screen.getByRole('heading', { level: 1, name: 'Painel' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Recebido' })).toBeNull();
    answerMe();
    expect(await screen.findByRole('heading', { level: 1, name: 'Olá, Zé' })).toBeInTheDocument();
    expect(screen.getByText('Confirme seu e-mail.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Recebido' })).toBeInTheDocument();
  });

  it('says so when nothing was received yet, without a ticket', async () => {
    owner();
    renderApp('/painel');
    const today = await screen.findByRole('listitem', { name: 'Hoje: R$ 0,00' });
    expect(today).toHaveTextContent('0 pagamentos');
    expect(today).not.toHaveTextContent('ticket');
    expect(screen.getByText(/Nenhum pagamento registrado ainda/)).toBeInTheDocument();
  });

  it('updates the figures and announces the payment when one arrives on the stream, without a reload', async () => {
    owner();
    serveSummaries(summary(figures(0, 0)), summary(figures(0, 0)), summary(figures(1, 1_250)));
    renderApp('/painel');
    await screen.findByRole('listitem', { name: 'Hoje: R$ 0,00' });
    await eventually(() => expect(openLiveStreams()).toBe(1));
    await screen.findByText('Ao vivo: os valores mudam sozinhos quando um pagamento chega.');
    // Opening the stream refetched once (anything between the first fetch and the stream).
    await eventually(() => expect(callTimes(`GET ${summaryPath()}`).length).toBe(2));

    sendLive(
      'event: pagamento\nid: 812.45\ndata: {"reference":"E1","qrcodeId":"q1","amountCentavos":1250,"status":"received","source":"sandbox","paidAt":"2026-11-02T15:30:00.000Z"}\n\n',
    );

    expect(await screen.findByRole('listitem', { name: 'Hoje: R$ 12,50' })).toHaveTextContent('1 pagamento');
    expect(screen.getByText('Pagamento de R$ 12,50 recebido agora.')).toHaveAttribute('role', 'status');
    const stream = requestLog.find((entry) => entry.call.endsWith('/events'));
    expect(stream?.headers.get('Authorization')).toMatch(/^Bearer /);
  });

  it('offers an operator only what an operator may do, and says whose payments they see', async () => {
    const bruno = seedUser({ email: 'bruno@exemplo.com', displayName: 'Mercearia do Bruno' });
    const ana = owner();
    seedMembership(bruno, ana, 'operator');
    const app = renderApp('/painel');
    await app.user.selectOptions(
      await screen.findByRole('combobox', { name: 'Conta em uso' }),
      'Mercearia do Bruno (Operador)',
    );
    expect(await screen.findByText('Como operador, você vê os pagamentos dos QR codes que você criou.')).toBeVisible();
    const shortcuts = within(screen.getByRole('region', { name: 'Atalhos' }));
    expect(shortcuts.getByRole('link', { name: 'Criar QR code' })).toBeInTheDocument();
    expect(shortcuts.queryByRole('link', { name: 'Chaves Pix' })).toBeNull();
    expect(shortcuts.queryByRole('link', { name: 'Link de pagamento' })).toBeNull();
  });
});

let currentAccount = '';
function summaryPath() {
  const entry = requestLog.find((e) => e.call.endsWith('/summary'));
  currentAccount = entry?.call.split(' ')[1] ?? currentAccount;
  return currentAccount;
}

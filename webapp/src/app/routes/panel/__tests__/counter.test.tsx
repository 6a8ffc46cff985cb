import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { CounterPayment as Payment } from '@/features/counter/api/counter';
import { eventually } from '@/testing/eventually';
import {
  type FakeQrCode,
  type FakeUser,
  giveBrowserSessionTo,
  seedMembership,
  seedQrCode,
  seedUser,
} from '@/testing/mocks/db';
import { openLiveStreams, sendLive } from '@/testing/mocks/handlers/live';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

const MINUTE = 60_000;

function owner(): FakeUser {
  const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
  giveBrowserSessionTo(ana);
  return ana;
}

function counterCode(ana: FakeUser, fields: Partial<FakeQrCode> = {}): FakeQrCode {
  return seedQrCode(ana, {
    pixKey: '52998224725',
    merchantName: 'PADARIA DA ANA',
    amountCentavos: 1250,
    description: 'Caixa 1',
    ...fields,
  });
}

function paid(reference: string, minutesAgo: number, fields: Partial<Payment> = {}): Payment {
  const at = new Date(Date.now() - minutesAgo * MINUTE).toISOString();
  return {
    reference,
    amountCentavos: 1250,
    refundedCentavos: 0,
    paidAt: at,
    qrcodeId: 'qr-1',
    status: 'received',
    ...fields,
  };
}

/** Lazy screens load slowly on a cold test run. */
const SLOW = { timeout: 8_000 };

/** The query strings the payments list was asked with. */
const asked: URLSearchParams[] = [];

/** The account's payments as the list answers them; a test changes `payments` to have more arrive. */
function servePayments(store: { payments: Payment[] }) {
  server.use(
    http.get('/api/accounts/:accountId/payments', ({ request }) => {
      asked.push(new URL(request.url).searchParams);
      const code = new URL(request.url).searchParams.get('qrcode');
      return HttpResponse.json({ payments: store.payments.filter((p) => p.qrcodeId === code), next: null });
    }),
  );
}

const EVENT = (reference: string) =>
  `event: pagamento\nid: 9.${reference}\ndata: {"reference":"${reference}","qrcodeId":"qr-1","amountCentavos":4590,"status":"received","source":"sandbox","paidAt":"${new Date().toISOString()}"}\n\n`;

afterEach(() => {
  asked.length = 0;
  vi.unstubAllGlobals();
});

describe('/painel/qrcodes/:id/balcao: Modo balcão', () => {
  it('is reached from each code of the QR code list', async () => {
    const ana = owner();
    const code = counterCode(ana);
    const { user, location } = renderApp('/painel/qrcodes');
    const item = await screen.findByRole('listitem', { name: 'PADARIA DA ANA, R$ 12,50' }, SLOW);
    await user.click(within(item).getByRole('link', { name: /^Modo balcão/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Modo balcão' }, SLOW)).toBeInTheDocument();
    expect(location()).toBe(`/painel/qrcodes/${code.id}/balcao`);
  }, 15_000);

  it("shows the code's description, amount and masked key, and says it is listening while nothing arrived", async () => {
    const ana = owner();
    const code = counterCode(ana);
    servePayments({ payments: [] });
    renderApp(`/painel/qrcodes/${code.id}/balcao`);

    expect(await screen.findByText('Aguardando pagamentos neste QR code…', {}, SLOW)).toBeInTheDocument();
    expect(await screen.findByText('Caixa 1')).toBeInTheDocument();
    expect(screen.getByText('R$ 12,50')).toBeInTheDocument();
    expect(screen.getByText('529.982.247-25')).toBeInTheDocument();
    expect(screen.getByText(/últimos 30 minutos/)).toBeInTheDocument();
    expect(document.title).toBe('Modo balcão · Balcão');
    expect(screen.getByRole('link', { name: '← Voltar aos QR codes' })).toHaveAttribute('href', '/painel/qrcodes');
    // Only this code's payments, from the day the window starts on.
    expect(asked[0]?.get('qrcode')).toBe(code.id);
    expect(asked[0]?.get('de')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('lists the last 30 minutes newest first: amount, status, time and the short name of who paid', async () => {
    const ana = owner();
    const code = counterCode(ana);
    servePayments({
      payments: [
        paid('E-antigo', 45, { qrcodeId: code.id, amountCentavos: 999 }),
        paid('E-3min', 3, { qrcodeId: code.id, payer: { name: 'BEATRIZ LIMA SOUZA' } }),
        paid('E-agora', 0, {
          qrcodeId: code.id,
          amountCentavos: 4590,
          status: 'voided',
          payer: { name: 'Carlos Nunes' },
        }),
      ],
    });
    renderApp(`/painel/qrcodes/${code.id}/balcao`);

    const list = await screen.findByRole('list', { name: /Pagamentos recebidos/ }, SLOW);
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('R$ 45,90');
    expect(cards[0]).toHaveTextContent('Anulado');
    expect(cards[0]).toHaveTextContent(/agora · \d{2}:\d{2}/);
    expect(cards[0]).toHaveTextContent('Carlos N.');
    expect(cards[1]).toHaveTextContent('R$ 12,50');
    expect(cards[1]).toHaveTextContent('Recebido');
    expect(cards[1]).toHaveTextContent(/há 3 min · \d{2}:\d{2}/);
    expect(cards[1]).toHaveTextContent('Beatriz S.');
    expect(cards[1]).not.toHaveTextContent('LIMA');
    expect(screen.queryByText('R$ 9,99')).not.toBeInTheDocument();
    // What was there when the screen opened is not announced as new.
    expect(screen.queryByText('Acabou de chegar')).not.toBeInTheDocument();
  });

  it('shows a payment that arrives while open at once, highlighted and announced to screen readers', async () => {
    const ana = owner();
    const code = counterCode(ana);
    const store = { payments: [paid('E-1', 5, { qrcodeId: code.id })] };
    servePayments(store);
    renderApp(`/painel/qrcodes/${code.id}/balcao`);
    await screen.findByRole('list', { name: /Pagamentos recebidos/ }, SLOW);
    await eventually(() => expect(openLiveStreams()).toBe(1));
    expect(await screen.findByText(/Ao vivo/)).toBeInTheDocument();

    store.payments = [
      paid('E-2', 0, {
        qrcodeId: code.id,
        amountCentavos: 4590,
        payer: { name: 'JOANA DARC PEREIRA' },
      }),
      ...store.payments,
    ];
    sendLive(EVENT('E-2'));

    const fresh = await screen.findByText('Acabou de chegar');
    const card = fresh.closest('li');
    expect(card).toHaveTextContent('R$ 45,90');
    expect(card).toHaveClass('fresh');
    expect(within(screen.getByRole('list', { name: /Pagamentos recebidos/ })).getAllByRole('listitem')[0]).toBe(card);
    await eventually(() =>
      expect(screen.getByText('Pagamento de R$ 45,90 recebido agora, de Joana P.')).toHaveAttribute(
        'aria-live',
        'polite',
      ),
    );
  });

  it('says so when the live stream drops', async () => {
    const ana = owner();
    const code = counterCode(ana);
    servePayments({ payments: [] });
    server.use(http.get('/api/accounts/:accountId/events', () => new HttpResponse(null, { status: 502 })));
    renderApp(`/painel/qrcodes/${code.id}/balcao`);
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent('Conexão perdida. Tentando reconectar…');
  });

  it('hides the payer names from an operator, and refuses a code another member made', async () => {
    const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Padaria da Ana' });
    const dora = seedUser({ email: 'dora@exemplo.com', displayName: 'Dora Lima' });
    seedMembership(ana, dora, 'operator');
    giveBrowserSessionTo(dora);
    const anas = counterCode(ana);
    const doras = counterCode(ana, { createdBy: dora.uid, description: 'Caixa da Dora' });
    // As the server answers an operator: no payer data.
    servePayments({ payments: [paid('E-1', 1, { qrcodeId: doras.id })] });
    const { router, user } = renderApp(`/painel/qrcodes/${doras.id}/balcao`);
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Conta em uso' }, SLOW),
      'Padaria da Ana (Operador)',
    );
    const list = await screen.findByRole('list', { name: /Pagamentos recebidos/ }, SLOW);
    expect(list).toHaveTextContent('R$ 12,50');
    expect(screen.getByText(/O nome de quem pagou aparece só para o titular e gerentes/)).toBeInTheDocument();

    await router.navigate(`/painel/qrcodes/${anas.id}/balcao`);
    expect(await screen.findByText('Seu papel nesta conta não permite acompanhar este QR code.')).toBeInTheDocument();
  });

  it('keeps the screen on where the browser allows, and carries on when it refuses', async () => {
    const ana = owner();
    const code = counterCode(ana);
    servePayments({ payments: [] });
    const release = vi.fn(() => Promise.resolve());
    const request = vi.fn(() => Promise.resolve(Object.assign(new EventTarget(), { released: false, release })));
    vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { wakeLock: { request } }));
    const { unmount } = renderApp(`/painel/qrcodes/${code.id}/balcao`);
    expect(await screen.findByText(/Tela sempre acesa/, {}, SLOW)).toBeInTheDocument();
    expect(request).toHaveBeenCalledWith('screen');
    unmount();
    expect(release).toHaveBeenCalled();

    vi.stubGlobal(
      'navigator',
      Object.assign(Object.create(navigator) as Navigator, {
        wakeLock: { request: () => Promise.reject(new DOMException('recusado', 'NotAllowedError')) },
      }),
    );
    renderApp(`/painel/qrcodes/${code.id}/balcao`);
    expect(await screen.findByText('Aguardando pagamentos neste QR code…')).toBeInTheDocument();
    expect(screen.queryByText(/Tela sempre acesa/)).not.toBeInTheDocument();
  });
});

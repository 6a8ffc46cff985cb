import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';

import { giveBrowserSessionTo, seedUser } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/test-utils';

import type { StatementImport, StatementPreview } from '../api/statements';

// A fake of the statement API (and an empty transactions list) that records what the screen sent.

const PREVIEW: StatementPreview = {
  arquivo: 'extrato-marco.ofx',
  formato: 'OFX',
  linhasLidas: 5,
  creditosPix: 4,
  ignorados: 1,
  porQrcode: 1,
  semQrcode: 1,
  mesmoPagamento: 1,
  jaImportados: 0,
  aRevisar: 1,
  linhas: [
    {
      linha: 12,
      data: '2026-03-02T12:15:00Z',
      soDia: false,
      valorCentavos: 1250,
      texto: 'PIX RECEBIDO - Maria',
      decisao: 'qrcode',
      qrcode: { id: 'code-1', tipo: 'qrcode', descricao: 'Pão de queijo', valorCentavos: 1250 },
      confiancaTexto: 'Certo: o extrato traz o identificador do QR code',
    },
    {
      linha: 20,
      data: '2026-03-02T13:00:00Z',
      soDia: false,
      valorCentavos: 3000,
      texto: 'PIX RECEBIDO - Joao',
      decisao: 'sem_qrcode',
    },
    {
      linha: 28,
      data: '2026-03-02T14:00:00Z',
      soDia: false,
      valorCentavos: 4200,
      texto: 'PIX RECEBIDO - Davi',
      decisao: 'mesmo_pagamento',
      pagamento: 'E1',
    },
    {
      linha: 36,
      data: '2026-03-02T15:00:00Z',
      soDia: false,
      valorCentavos: 700,
      texto: 'PIX RECEBIDO - Ana',
      decisao: 'ambiguo',
      candidatos: [
        { id: 'code-2', tipo: 'qrcode', descricao: 'Café', valorCentavos: 700 },
        { id: 'code-3', tipo: 'qrcode', descricao: 'Suco', valorCentavos: 700 },
      ],
    },
  ],
};

const PAST: StatementImport = {
  importacao: 'imp-1',
  arquivo: 'extrato-fevereiro.ofx',
  quando: '2026-03-01T12:00:00Z',
  quem: 'u1',
  registrados: 4,
  desfeita: false,
  desfeitaEm: null,
};

function fakeApi(preview: () => Response = () => HttpResponse.json(PREVIEW)) {
  const calls = { previews: [] as unknown[], imports: [] as unknown[], undone: [] as string[] };
  server.use(
    http.get('/api/accounts/:id/payments', () => HttpResponse.json({ payments: [], next: null })),
    http.get('/api/accounts/:id/payments/summary', () =>
      HttpResponse.json({
        total: { payments: 0, receivedCentavos: 0, refundedCentavos: 0, netCentavos: 0, voided: 0 },
        days: [],
      }),
    ),
    http.get('/api/accounts/:id/extratos', () => HttpResponse.json({ importacoes: [PAST] })),
    http.post('/api/accounts/:id/extratos/previa', async ({ request }) => {
      calls.previews.push(await request.json());
      return preview();
    }),
    http.post('/api/accounts/:id/extratos', async ({ request }) => {
      calls.imports.push(await request.json());
      return HttpResponse.json(
        { importacao: 'imp-2', registrados: 3, vinculados: 1, jaImportados: 0 },
        { status: 201 },
      );
    }),
    http.delete('/api/accounts/:id/extratos/:importId', ({ params }) => {
      calls.undone.push(String(params.importId));
      return HttpResponse.json({ importacao: params.importId, anulados: 4, liberados: 4 });
    }),
  );
  return calls;
}

async function openImport() {
  const ana = seedUser({ email: 'ana@exemplo.com', displayName: 'Ana Souza' });
  giveBrowserSessionTo(ana);
  const app = renderApp('/painel/transacoes');
  const button = await screen.findByRole('button', { name: 'Importar extrato' }, { timeout: 15_000 });
  await app.user.click(button);
  return app;
}

const ofx = () => new File(['OFXHEADER:100\n<OFX></OFX>'], 'extrato-marco.ofx', { type: 'application/x-ofx' });

describe('Importar extrato on /painel/transacoes', { timeout: 30_000 }, () => {
  it('previews the file grouped, waits for the review pick, imports and says what it did', async () => {
    const calls = fakeApi();
    const app = await openImport();
    await app.user.upload(screen.getByLabelText('Arquivo do extrato'), ofx());
    const panel = screen.getByRole('region', { name: 'Importar extrato' });
    expect(
      await within(panel).findByText(/5 lançamentos lidos, 4 Pix recebidos, 1 outro lançamento ignorado\./),
    ).toBeInTheDocument();
    expect(calls.previews[0]).toMatchObject({
      arquivo: 'extrato-marco.ofx',
      conteudo: btoa('OFXHEADER:100\n<OFX></OFX>'),
    });
    expect(within(panel).getByRole('region', { name: 'Novos pagamentos por QR code' })).toHaveTextContent(
      'Certo: o extrato traz o identificador do QR code',
    );
    expect(within(panel).getByRole('region', { name: 'Novos pagamentos sem QR code' })).toHaveTextContent('Joao');
    expect(within(panel).getByRole('region', { name: 'Já registrados' })).toHaveTextContent('sem contar duas vezes');
    const importButton = within(panel).getByRole('button', { name: 'Importar 3 pagamentos' });
    expect(importButton).toBeDisabled();
    await app.user.click(within(panel).getByRole('radio', { name: /Suco/ }));
    expect(importButton).toBeEnabled();
    await app.user.click(importButton);
    expect(
      await within(panel).findByText('3 pagamentos importados, 1 ligados a pagamentos que o banco já informou.'),
    ).toBeInTheDocument();
    expect(calls.imports[0]).toMatchObject({
      arquivo: 'extrato-marco.ofx',
      escolhas: [{ linha: 36, qrcode: 'code-3' }],
    });
  });

  it('follows a big import running in the background with a progress bar until it is done', async () => {
    fakeApi();
    const asked: string[] = [];
    server.use(
      http.post('/api/accounts/:id/extratos', () =>
        HttpResponse.json({ importacao: 'imp-9', emAndamento: true, total: 2500 }, { status: 202 }),
      ),
      http.get('/api/accounts/:id/extratos', () =>
        HttpResponse.json({
          importacoes: [{ ...PAST, importacao: 'imp-9', arquivo: 'extrato-marco.ofx', registrados: 1000 }, PAST],
        }),
      ),
      http.get('/api/accounts/:id/extratos/:importId/andamento', ({ params }) => {
        asked.push(String(params.importId));
        const done = asked.length > 1;
        return HttpResponse.json({
          importacao: 'imp-9',
          arquivo: 'extrato-marco.ofx',
          total: 2500,
          feitas: done ? 2500 : 1000,
          registrados: done ? 2499 : 1000,
          vinculados: done ? 1 : 0,
          jaImportados: 0,
          concluida: done,
        });
      }),
    );
    const app = await openImport();
    await app.user.upload(screen.getByLabelText('Arquivo do extrato'), ofx());
    const panel = screen.getByRole('region', { name: 'Importar extrato' });
    await app.user.click(await within(panel).findByRole('radio', { name: /Suco/ }));
    await app.user.click(within(panel).getByRole('button', { name: 'Importar 3 pagamentos' }));
    expect(await within(panel).findByText(/1\.000 de 2\.500 linhas\./)).toBeInTheDocument();
    expect(within(panel).getByRole('progressbar')).toHaveAttribute('value', '1000');
    // The import being written is not offered for undoing halfway.
    const past = within(panel).getByRole('region', { name: 'Importações de extrato' });
    expect(past).toHaveTextContent('extrato-marco.ofx');
    expect(past).toHaveTextContent('importando…');
    expect(within(past).getAllByRole('button', { name: 'Desfazer importação' })).toHaveLength(1);
    expect(
      await within(panel).findByText(
        '2.499 pagamentos importados, 1 ligados a pagamentos que o banco já informou.',
        undefined,
        { timeout: 5_000 },
      ),
    ).toBeInTheDocument();
    expect(within(panel).queryByRole('progressbar')).toBeNull();
    expect(asked[0]).toBe('imp-9');
  });

  it('asks which column holds what for a CSV of a bank it does not know, then previews with them', async () => {
    let asked = 0;
    const calls = fakeApi(() => {
      asked += 1;
      if (asked > 1) return HttpResponse.json(PREVIEW);
      return HttpResponse.json(
        {
          error: {
            code: 'statement-unknown-csv-layout',
            message: 'Não reconhecemos as colunas deste CSV (“Quando;Histórico;Entrada;Saída;Quem”).',
            field: 'file',
            details: {
              amostra: {
                separador: ';',
                linhas: [
                  ['Quando', 'Histórico', 'Entrada', 'Saída', 'Quem'],
                  ['02/03/2026', 'PIX RECEBIDO', '12,50', '', 'Fulano'],
                ],
              },
            },
          },
        },
        { status: 422 },
      );
    });
    const app = await openImport();
    const csv = new File(['Quando;Histórico;Entrada;Saída;Quem\n'], 'extrato-banco.csv', { type: 'text/csv' });
    await app.user.upload(screen.getByLabelText('Arquivo do extrato'), csv);
    const form = await screen.findByRole('form', { name: 'Colunas do extrato' });
    expect(within(form).getByRole('region', { name: 'Primeiras linhas do arquivo' })).toHaveTextContent('Fulano');
    // A first guess from the header's names, for the owner to check.
    expect(within(form).getByLabelText('Linhas antes do primeiro lançamento')).toHaveValue(1);
    expect(within(form).getByRole('radio', { name: 'Duas colunas: entradas e saídas' })).toBeChecked();
    expect(within(form).getByLabelText('Entradas')).toHaveDisplayValue('Coluna 3 — Entrada');
    expect(within(form).getByLabelText('Saídas')).toHaveDisplayValue('Coluna 4 — Saída');
    expect(within(form).getByRole('checkbox', { name: 'Coluna 2 — Histórico' })).toBeChecked();
    expect(within(form).getByRole('checkbox', { name: 'Coluna 5 — Quem' })).toBeChecked();
    // The owner adds the id column.
    await app.user.selectOptions(
      within(form).getByLabelText('Identificador do lançamento (opcional)'),
      'Coluna 5 — Quem',
    );
    await app.user.click(within(form).getByRole('checkbox', { name: 'Coluna 5 — Quem' }));
    await app.user.click(within(form).getByRole('button', { name: 'Ver prévia com estas colunas' }));
    expect(await screen.findByText(/5 lançamentos lidos/)).toBeInTheDocument();
    expect(calls.previews[1]).toMatchObject({
      arquivo: 'extrato-banco.csv',
      colunas: { separador: ';', cabecalho: 1, data: 1, entrada: 3, saida: 4, descricao: [2], identificador: 5 },
    });
    expect(screen.queryByRole('form', { name: 'Colunas do extrato' })).toBeNull();
    // The owner can come back to the columns, as they chose them.
    await app.user.click(screen.getByRole('button', { name: 'Mudar as colunas' }));
    const again = await screen.findByRole('form', { name: 'Colunas do extrato' });
    expect(within(again).getByLabelText('Identificador do lançamento (opcional)')).toHaveDisplayValue(
      'Coluna 5 — Quem',
    );
    expect(within(again).getByRole('checkbox', { name: 'Coluna 5 — Quem' })).not.toBeChecked();
  });

  it('shows the parser’s message naming the line when the file is refused', async () => {
    fakeApi(() =>
      HttpResponse.json(
        {
          error: {
            code: 'statement-invalid-amount',
            message: 'Linha 14: valor “12,5x” não é um valor em reais.',
            field: 'file',
          },
        },
        { status: 422 },
      ),
    );
    const app = await openImport();
    await app.user.upload(screen.getByLabelText('Arquivo do extrato'), ofx());
    expect(await screen.findByText(/Linha 14: valor “12,5x” não é um valor em reais\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Importar \d/ })).toBeNull();
  });

  it('undoes a past import only after the owner confirms', async () => {
    const calls = fakeApi();
    const app = await openImport();
    const past = await screen.findByRole('region', { name: 'Importações de extrato' });
    expect(past).toHaveTextContent('extrato-fevereiro.ofx');
    await app.user.click(within(past).getByRole('button', { name: 'Desfazer importação' }));
    const dialog = within(past).getByRole('alertdialog', { name: 'Desfazer importação' });
    expect(dialog).toHaveTextContent('“Importação desfeita”');
    expect(calls.undone).toEqual([]);
    await app.user.click(within(dialog).getByRole('button', { name: 'Sim, desfazer' }));
    await waitFor(() => expect(calls.undone).toEqual(['imp-1']));
    expect(
      await screen.findByText(
        'Importação de extrato-fevereiro.ofx desfeita: os pagamentos que ela registrou foram anulados.',
      ),
    ).toBeInTheDocument();
  });
});

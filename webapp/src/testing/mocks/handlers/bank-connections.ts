// A working fake of /api/accounts/{id}/bank-connections: owners and managers connect a key's bank;
// the client secret "segredo-errado" is refused as the bank refuses it; a certificate named
// "vencido.p12" is refused as expired; anything else connects with the webhook registered.

import { HttpResponse, http } from 'msw';

import { type FakeBankConnection, SEED_TIME, db, roleIn } from '../db';
import { fieldError } from './api-error';
import { bearerUser, noContent, unauthorized } from './bearer';
import { FORBIDDEN, NOT_FOUND } from './team';

export const FAKE_BANKS = [
  {
    id: 'efi',
    name: 'Efí',
    instructions: 'Um arquivo .p12 por ambiente, sem senha: baixe-o na área Pix da sua conta Efí.',
    extra: null,
    typedAddresses: false,
    usesClientSecret: true,
    environments: ['producao', 'homologacao'],
  },
  {
    id: 'banco-do-brasil',
    name: 'Banco do Brasil',
    instructions: 'Certificado e chave em PEM.',
    extra: { label: 'gw-dev-app-key', hint: 'A chave da aplicação no portal do desenvolvedor.' },
    typedAddresses: false,
    usesClientSecret: true,
    environments: ['producao', 'homologacao'],
  },
];

function access(request: Request, accountId: string): Response | null {
  const user = bearerUser(request);
  if (user === undefined) return unauthorized();
  const role = roleIn(accountId, user.uid);
  if (role === undefined) return NOT_FOUND();
  if (role === 'operator') return FORBIDDEN();
  return null;
}

const view = (connection: FakeBankConnection) => ({ ...connection, accountId: undefined });

const keyOf = (accountId: string, keyId: string) =>
  db.pixKeys.find((key) => key.accountId === accountId && key.id === keyId && key.removedAt === null);

const connectionOf = (accountId: string, keyId: string) =>
  db.bankConnections.find((connection) => connection.accountId === accountId && connection.keyId === keyId);

export const bankConnectionHandlers = [
  http.get('/api/accounts/:accountId/bank-connections', ({ request, params }) => {
    const accountId = String(params.accountId);
    const refused = access(request, accountId);
    if (refused) return refused;
    return HttpResponse.json({
      banks: FAKE_BANKS,
      connections: db.bankConnections.filter((connection) => connection.accountId === accountId).map(view),
    });
  }),

  http.get('/api/accounts/:accountId/bank-connections/:keyId', ({ request, params }) => {
    const accountId = String(params.accountId);
    const refused = access(request, accountId);
    if (refused) return refused;
    const key = keyOf(accountId, String(params.keyId));
    if (key === undefined) return NOT_FOUND();
    const connection = connectionOf(accountId, key.id);
    return HttpResponse.json({
      keyId: key.id,
      pixKey: key.pixKey,
      banks: FAKE_BANKS,
      connection: connection ? view(connection) : null,
    });
  }),

  http.put('/api/accounts/:accountId/bank-connections/:keyId', async ({ request, params }) => {
    const accountId = String(params.accountId);
    const refused = access(request, accountId);
    if (refused) return refused;
    const key = keyOf(accountId, String(params.keyId));
    if (key === undefined) return NOT_FOUND();
    const body = (await request.json()) as {
      bank: string;
      environment: 'producao' | 'homologacao';
      clientSecret: string;
      certificate: { name: string; base64: string } | null;
    };
    if (body.clientSecret === 'segredo-errado')
      return fieldError(
        'bank-wrong-credentials',
        'O banco recusou o Client ID ou o Client Secret. Confira os dois na área de desenvolvedor do banco.',
        'clientSecret',
      );
    if (body.certificate?.name === 'vencido.p12')
      return fieldError(
        'bank-certificate-expired',
        'Este certificado venceu em 01/10/2026. Peça um novo ao banco.',
        'certificate',
      );
    const bank = FAKE_BANKS.find((candidate) => candidate.id === body.bank);
    const connection: FakeBankConnection = {
      accountId,
      keyId: key.id,
      pixKey: key.pixKey,
      bank: body.bank,
      bankName: bank?.name ?? body.bank,
      environment: body.environment,
      certificateNotAfter: '2027-11-02T12:00:00Z',
      connectedAt: SEED_TIME,
      lastTest: { ok: true, message: null, at: SEED_TIME },
      webhook: { state: 'registered', message: null, at: SEED_TIME },
      catchUp: null,
    };
    db.bankConnections = [...db.bankConnections.filter((other) => other.keyId !== key.id), connection];
    return HttpResponse.json(view(connection));
  }),

  http.post('/api/accounts/:accountId/bank-connections/:keyId/test', ({ request, params }) => {
    const accountId = String(params.accountId);
    const refused = access(request, accountId);
    if (refused) return refused;
    const connection = connectionOf(accountId, String(params.keyId));
    if (connection === undefined) return NOT_FOUND();
    connection.lastTest = { ok: true, message: null, at: SEED_TIME };
    return HttpResponse.json(view(connection));
  }),

  http.delete('/api/accounts/:accountId/bank-connections/:keyId', ({ request, params }) => {
    const accountId = String(params.accountId);
    const refused = access(request, accountId);
    if (refused) return refused;
    const connection = connectionOf(accountId, String(params.keyId));
    if (connection === undefined) return NOT_FOUND();
    db.bankConnections = db.bankConnections.filter((other) => other !== connection);
    return noContent();
  }),
  // A charge through the connected bank: any role of the account; a key without a connection is
  // 409 `bank-not-connected`; the amount "0,00" is refused as the server refuses it.
  http.post('/api/accounts/:accountId/qrcodes/cobrancas', async ({ request, params }) => {
    const accountId = String(params.accountId);
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    if (roleIn(accountId, user.uid) === undefined) return NOT_FOUND();
    const body = (await request.json()) as {
      keyId: string;
      amount: string;
      description: string | null;
      expiresInMinutes?: number;
      merchantCity: string;
      dueDate?: string;
      daysAfterDue?: number;
      debtor?: { name: string; document: string };
    };
    db.charges.push(body);
    if (connectionOf(accountId, body.keyId) === undefined) {
      return HttpResponse.json(
        { error: { code: 'bank-not-connected', message: 'Esta chave Pix não tem banco conectado.' } },
        { status: 409 },
      );
    }
    if (body.amount === '0,00') return fieldError('invalid-argument', 'Informe um valor maior que zero.', 'amount');
    // A due-date charge: the CPF 111.111.111-11 is refused as the server refuses an invalid one.
    if (body.dueDate !== undefined && body.debtor?.document === '111.111.111-11') {
      return fieldError('invalid-argument', 'Informe um CPF ou CNPJ válido de quem deve pagar.', 'debtor.document');
    }
    const validity =
      body.dueDate === undefined
        ? Date.parse(SEED_TIME) + (body.expiresInMinutes ?? 0) * 60_000
        : Date.parse(`${body.dueDate}T23:59:59-03:00`) + (body.daysAfterDue ?? 30) * 86_400_000;
    const centavos = Math.round(Number(body.amount.replace(/\./g, '').replace(',', '.')) * 100);
    const id = crypto.randomUUID();
    return HttpResponse.json(
      {
        id,
        amountCentavos: centavos,
        description: body.description,
        payload: '00020101021226830014br.gov.bcb.pix2561pix.banco.example/qr/v2/cob6304ABCD',
        paymentUrl: `http://localhost/pagamento/${id}`,
        chargeExpiresAt: new Date(validity).toISOString(),
      },
      { status: 201 },
    );
  }),
];

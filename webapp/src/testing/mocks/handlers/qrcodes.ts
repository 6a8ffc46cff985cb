// A working fake of /api/accounts/{id}/qrcodes: owners and managers see every code, operators
// their own; BR Code problems come back as 422 with the request field they are about.

import { HttpResponse, http } from 'msw';

import { isBrazilianAmount } from '@/utils/money';

import { type FakeQrCode, db, roleIn } from '../db';
import { fieldError } from './api-error';
import { bearerUser, unauthorized } from './bearer';
import { FORBIDDEN, NOT_FOUND } from './team';

const PIX_KEY = [
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/, // e-mail
  /^\d{11}$/, // CPF
  /^\d{14}$/, // CNPJ
  /^\+55\d{10,11}$/, // phone
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, // random key
];

const qrcodeJson = (qrcode: FakeQrCode) => ({
  id: qrcode.id,
  pixKey: qrcode.pixKey,
  merchantName: qrcode.merchantName,
  merchantCity: qrcode.merchantCity,
  amountCentavos: qrcode.amountCentavos,
  description: qrcode.description,
  txid: qrcode.txid,
  payload: qrcode.payload,
  createdAt: qrcode.createdAt,
  createdBy: qrcode.createdBy,
  paymentUrl: `/pagamento/${qrcode.id}`,
  singleUse: qrcode.singleUse ?? false,
  paidAt: qrcode.paidAt ?? null,
  chargeExpiresAt: qrcode.chargeExpiresAt ?? null,
});

/** `"1.234,5"` → 123450. */
function toCentavos(amount: string): number {
  const [reais = '0', cents = ''] = amount.trim().replace(/\./g, '').split(',');
  return Number(reais) * 100 + Number(cents.padEnd(2, '0'));
}

const upperAscii = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').trim().toUpperCase();

export const qrcodeHandlers = [
  http.get('/api/accounts/:accountId/qrcodes', ({ request, params }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const accountId = String(params.accountId);
    const role = roleIn(accountId, user.uid);
    if (role === undefined) return NOT_FOUND();
    const visible = db.qrcodes
      .filter((qrcode) => qrcode.accountId === accountId)
      .filter((qrcode) => role !== 'operator' || qrcode.createdBy === user.uid);
    return HttpResponse.json({ qrcodes: visible.map(qrcodeJson) });
  }),

  // One code: another account's or none is a 404, another member's code is a 403 for an operator.
  http.get('/api/accounts/:accountId/qrcodes/:id', ({ request, params }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const accountId = String(params.accountId);
    const role = roleIn(accountId, user.uid);
    if (role === undefined) return NOT_FOUND();
    const qrcode = db.qrcodes.find((code) => code.id === String(params.id) && code.accountId === accountId);
    if (qrcode === undefined) return NOT_FOUND();
    if (role === 'operator' && qrcode.createdBy !== user.uid) return FORBIDDEN();
    return HttpResponse.json(qrcodeJson(qrcode));
  }),

  http.post('/api/accounts/:accountId/qrcodes', async ({ request, params }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const accountId = String(params.accountId);
    const role = roleIn(accountId, user.uid);
    if (role === undefined) return NOT_FOUND();
    const body = (await request.json()) as {
      keyId?: string | null;
      pixKey: string | null;
      merchantName: string;
      merchantCity: string;
      amount: string | null;
      description: string | null;
      singleUse?: boolean;
    };
    // A registered key of this account, or the key typed.
    const registered = db.pixKeys.find(
      (key) => key.id === body.keyId && key.accountId === accountId && key.removedAt === null,
    );
    if (body.keyId && registered === undefined) {
      return fieldError(
        'invalid-argument',
        'Esta chave Pix não está cadastrada nesta conta (ou foi removida).',
        'keyId',
      );
    }
    const pixKey = registered?.pixKey ?? (body.pixKey ?? '').trim();
    if (!PIX_KEY.some((pattern) => pattern.test(pixKey))) {
      return fieldError(
        'invalid-pix-key',
        'Chave Pix: não é um CPF, CNPJ, e-mail, celular ou chave aleatória.',
        'pixKey',
      );
    }
    const name = upperAscii(body.merchantName);
    if (name === '') return fieldError('missing-merchant-name', 'Nome: campo obrigatório.', 'merchantName');
    if (name.length > 25)
      return fieldError('merchant-name-too-long', 'Nome: use no máximo 25 caracteres.', 'merchantName');
    const city = upperAscii(body.merchantCity);
    if (city === '') return fieldError('missing-merchant-city', 'Cidade: campo obrigatório.', 'merchantCity');
    if (city.length > 15)
      return fieldError('merchant-city-too-long', 'Cidade: use no máximo 15 caracteres.', 'merchantCity');
    let amountCentavos: number | null = null;
    if (body.amount !== null && body.amount.trim() !== '') {
      if (!isBrazilianAmount(body.amount)) return fieldError('invalid-amount', 'Valor: use o formato 12,50.', 'amount');
      amountCentavos = toCentavos(body.amount);
      if (amountCentavos === 0) return fieldError('amount-zero', 'Valor: precisa ser maior que zero.', 'amount');
    }
    if (body.singleUse === true && amountCentavos === null) {
      return fieldError(
        'invalid-argument',
        'Um QR code de uso único precisa de um valor: informe o valor da venda ou deixe o QR code reutilizável.',
        'amount',
      );
    }
    const qrcode: FakeQrCode = {
      id: `qr-${db.nextId++}`,
      accountId,
      pixKey,
      singleUse: body.singleUse === true,
      merchantName: name,
      merchantCity: city,
      amountCentavos,
      description: body.description === null || body.description.trim() === '' ? null : body.description.trim(),
      payload: `00020126${pixKey.length}0014br.gov.bcb.pix`,
      createdAt: new Date().toISOString(),
      createdBy: user.uid,
    };
    db.qrcodes.push(qrcode);
    return HttpResponse.json(qrcodeJson(qrcode), { status: 201 });
  }),
];

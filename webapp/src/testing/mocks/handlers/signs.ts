// A working fake of /api/accounts/{id}/placas: owners and managers see and change every sign,
// operators their own and only from their own codes; a value the printer cannot take is a 422
// naming its field, as the gateway answers.

import { HttpResponse, http } from 'msw';

import { signFile } from '@/features/signs/utils/sign-options';

import { type FakeSign, db, roleIn } from '../db';
import { apiError, fieldError } from './api-error';
import { bearerUser, unauthorized } from './bearer';
import { NOT_FOUND } from './team';

const TEMPLATES = ['classico', 'faixa', 'moldura', 'minimalista', 'codigo'];
const SIZES = ['a4', 'a5', 'a6', '10x15', 'display-de-mesa', 'adesivos', 'quadrado'];
const THEMES = ['verde', 'azul', 'grafite', 'vinho'];

const FORBIDDEN = () =>
  apiError(403, 'forbidden', 'Como operador, você não pode ver os QR codes criados por outras pessoas nesta conta.');

function signJson(sign: FakeSign) {
  const code = db.qrcodes.find((qrcode) => qrcode.id === sign.qrcodeId);
  return {
    ...sign,
    accountId: undefined,
    code:
      code === undefined
        ? null
        : {
            merchantName: code.merchantName,
            amountCentavos: code.amountCentavos,
            txid: `TX${code.id}`,
            description: code.description,
            archived: false,
          },
    files: {
      pdf: signFile(sign.qrcodeId, 'pdf', sign),
      png: signFile(sign.qrcodeId, 'png', sign),
      svg: signFile(sign.qrcodeId, 'svg', sign),
    },
  };
}

interface Body {
  qrcodeId?: string;
  name?: string;
  template?: string;
  size?: string;
  theme?: string;
  headline?: string | null;
  footer?: string | null;
  withLogo?: boolean;
}

const blank = (text: string | null | undefined) => (text == null || text.trim() === '' ? null : text.trim());

/** The choices of `body` over `base`, or the 422 the gateway answers. */
function choices(
  body: Body,
  base: Omit<FakeSign, 'id' | 'accountId' | 'qrcodeId' | 'createdBy' | 'createdAt' | 'updatedAt' | 'duplicateOf'>,
) {
  const name = (body.name ?? base.name).trim();
  if (name === '') return fieldError('invalid-argument', 'Dê um nome à placa, como "Balcão da frente".', 'name');
  const template = body.template ?? base.template;
  if (!TEMPLATES.includes(template))
    return fieldError('invalid-argument', `O modelo "${template}" não existe.`, 'template');
  const size = body.size ?? base.size;
  if (!SIZES.includes(size)) return fieldError('invalid-argument', `O tamanho "${size}" não existe.`, 'size');
  const theme = body.theme ?? base.theme;
  if (!THEMES.includes(theme)) return fieldError('invalid-argument', `O tema "${theme}" não existe.`, 'theme');
  const headline = body.headline === undefined ? base.headline : blank(body.headline);
  if (headline !== null && Array.from(headline).length > 40)
    return fieldError('invalid-argument', 'O título pode ter até 40 caracteres.', 'headline');
  const footer = body.footer === undefined ? base.footer : blank(body.footer);
  if (footer !== null && Array.from(footer).length > 80)
    return fieldError('invalid-argument', 'O rodapé pode ter até 80 caracteres.', 'footer');
  return { name, template, size, theme, headline, footer, withLogo: body.withLogo ?? base.withLogo };
}

/** The caller and their role in the path's account, or the answer that ends the request. */
function access(request: Request, accountId: string) {
  const user = bearerUser(request);
  if (user === undefined) return { answer: unauthorized() } as const;
  const role = roleIn(accountId, user.uid);
  if (role === undefined) return { answer: NOT_FOUND() } as const;
  return { answer: null, user, role } as const;
}

/** As {@link access}, with the sign `signId` the caller may touch. */
function signAccess(request: Request, accountId: string, signId: string) {
  const found = access(request, accountId);
  if (found.answer) return found;
  const sign = db.signs.find((s) => s.id === signId && s.accountId === accountId);
  if (sign === undefined) return { answer: apiError(404, 'not-found', 'Placa não encontrada.') } as const;
  if (found.role === 'operator' && sign.createdBy !== found.user.uid) return { answer: FORBIDDEN() } as const;
  return { ...found, sign };
}

const now = () => new Date().toISOString();

export const signHandlers = [
  http.get('/api/accounts/:accountId/placas', ({ request, params }) => {
    const found = access(request, String(params.accountId));
    if (found.answer) return found.answer;
    const visible = db.signs
      .filter((sign) => sign.accountId === String(params.accountId))
      .filter((sign) => found.role !== 'operator' || sign.createdBy === found.user.uid)
      .toReversed();
    return HttpResponse.json({ signs: visible.map(signJson) });
  }),

  http.post('/api/accounts/:accountId/placas', async ({ request, params }) => {
    const accountId = String(params.accountId);
    const found = access(request, accountId);
    if (found.answer) return found.answer;
    const body = (await request.json()) as Body;
    const code = db.qrcodes.find((qrcode) => qrcode.id === body.qrcodeId && qrcode.accountId === accountId);
    if (code === undefined)
      return fieldError('invalid-argument', 'Escolha um dos QR codes desta conta para a placa.', 'qrcodeId');
    if (found.role === 'operator' && code.createdBy !== found.user.uid) return FORBIDDEN();
    const chosen = choices(body, {
      name: '',
      template: 'classico',
      size: 'a4',
      theme: 'verde',
      headline: null,
      footer: null,
      withLogo: true,
    });
    if (chosen instanceof Response) return chosen;
    const sign: FakeSign = {
      id: `placa-${db.nextId++}`,
      accountId,
      qrcodeId: code.id,
      duplicateOf: null,
      createdBy: found.user.uid,
      createdAt: now(),
      updatedAt: now(),
      ...chosen,
    };
    db.signs.push(sign);
    return HttpResponse.json(signJson(sign), { status: 201 });
  }),

  http.patch('/api/accounts/:accountId/placas/:signId', async ({ request, params }) => {
    const found = signAccess(request, String(params.accountId), String(params.signId));
    if (found.answer) return found.answer;
    const chosen = choices((await request.json()) as Body, found.sign);
    if (chosen instanceof Response) return chosen;
    Object.assign(found.sign, chosen, { updatedAt: now() });
    return HttpResponse.json(signJson(found.sign));
  }),

  http.post('/api/accounts/:accountId/placas/:signId/duplicar', ({ request, params }) => {
    const found = signAccess(request, String(params.accountId), String(params.signId));
    if (found.answer) return found.answer;
    const copy: FakeSign = {
      ...found.sign,
      id: `placa-${db.nextId++}`,
      name: `Cópia de ${found.sign.name}`.slice(0, 60),
      duplicateOf: found.sign.id,
      createdBy: found.user.uid,
      createdAt: now(),
      updatedAt: now(),
    };
    db.signs.push(copy);
    return HttpResponse.json(signJson(copy), { status: 201 });
  }),

  http.delete('/api/accounts/:accountId/placas/:signId', ({ request, params }) => {
    const found = signAccess(request, String(params.accountId), String(params.signId));
    if (found.answer) return found.answer;
    db.signs = db.signs.filter((sign) => sign.id !== found.sign.id);
    return new HttpResponse(null, { status: 204 });
  }),
];

// A working fake of /api/account/* and /api/brcode/normalize, per the API contract in the brief
// (webapp/README.md lists the calls).

import { HttpResponse, http } from 'msw';

import { passwordRules } from '@/features/auth/utils/password-rules';

import { type FakeUser, createActionCode, db, endBrowserSession, photoUrlOf } from '../db';
import { apiError, fieldError } from './api-error';
import { bearerUser, noContent, unauthorized } from './bearer';

const MAX_PHOTO_BYTES = 1024 * 1024;

/** Magic bytes of the photo types the server keeps. */
const PHOTO_SIGNATURES: Record<string, (bytes: Uint8Array) => boolean> = {
  'image/jpeg': (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  'image/png': (bytes) => [0x89, 0x50, 0x4e, 0x47].every((byte, index) => bytes[index] === byte),
  'image/webp': (bytes) =>
    String.fromCharCode(...bytes.slice(0, 4)) === 'RIFF' && String.fromCharCode(...bytes.slice(8, 12)) === 'WEBP',
};

const WRONG_PASSWORD = () => apiError(400, 'wrong-password', 'Senha incorreta.');

function settingsOf(user: FakeUser) {
  return {
    displayName: user.displayName,
    phoneNumber: user.phoneNumber,
    photoURL: photoUrlOf(user),
    defaultMerchantName: user.defaultMerchantName,
    defaultMerchantCity: user.defaultMerchantCity,
    email: user.email,
    emailVerified: user.emailVerified,
  };
}

/** Strips accents, trims, upper-cases, as the BR Code writes names and cities. */
function normalise(
  label: string,
  value: string,
  max: number,
): { value: string; change: string | null; tooLong: boolean } {
  const written = value.normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim().toUpperCase();
  // Nothing is ever cut to fit: a value too long is refused.
  if (written.length > max) return { value: written, change: null, tooLong: true };
  if (written === value) return { value: written, change: null, tooLong: false };
  const reasons = [
    value.normalize('NFD') !== value ? 'letras acentuadas escritas sem acento' : null,
    value !== value.toUpperCase() ? 'letras em maiúsculas' : null,
  ].filter(Boolean);
  const change = `${label}: “${value}” será escrito como “${written}” (${reasons.join('; ')}).`;
  return { value: written, change, tooLong: false };
}

const optional = (value: string | null | undefined) =>
  value === null || value === undefined || value.trim() === '' ? null : value.trim();

export const accountHandlers = [
  http.get('/api/account/settings', ({ request }) => {
    const user = bearerUser(request);
    return user === undefined ? unauthorized() : HttpResponse.json(settingsOf(user));
  }),

  http.patch('/api/account/settings', async ({ request }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const body = (await request.json()) as {
      displayName: string;
      phoneNumber: string | null;
      defaultMerchantName: string | null;
      defaultMerchantCity: string | null;
    };
    if (body.displayName.trim() === '') return fieldError('invalid-display-name', 'Digite seu nome.', 'displayName');
    let phone: string | null = null;
    if (optional(body.phoneNumber) !== null) {
      const digits = (body.phoneNumber ?? '').replace(/\D/g, '');
      if (digits.length < 10 || digits.length > 11) {
        return fieldError('invalid-phone-number', 'Digite o telefone com DDD: 10 ou 11 dígitos.', 'phoneNumber');
      }
      phone = `+55${digits}`;
    }
    user.displayName = body.displayName.trim();
    user.phoneNumber = phone;
    user.defaultMerchantName = optional(body.defaultMerchantName);
    user.defaultMerchantCity = optional(body.defaultMerchantCity);
    return HttpResponse.json(settingsOf(user));
  }),

  http.put('/api/account/photo', async ({ request }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const type = request.headers.get('Content-Type') ?? '';
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.length > MAX_PHOTO_BYTES) return apiError(413, 'photo-too-large', 'A foto passa de 1 MiB.');
    const signature = PHOTO_SIGNATURES[type];
    if (signature === undefined || !signature(bytes)) {
      return apiError(415, 'unsupported-photo-type', 'Envie uma imagem JPEG, PNG ou WebP.');
    }
    user.photo = { type, version: (user.photo?.version ?? 0) + 1 };
    return HttpResponse.json({ photoURL: photoUrlOf(user) });
  }),

  http.get('/api/brcode/normalize', ({ request }) => {
    const url = new URL(request.url);
    const name = normalise('Nome', url.searchParams.get('name') ?? '', 25);
    const city = normalise('Cidade', url.searchParams.get('city') ?? '', 15);
    if (name.tooLong) return fieldError('merchant-name-too-long', 'Nome: use no máximo 25 caracteres.', 'name');
    if (city.tooLong) return fieldError('merchant-city-too-long', 'Cidade: use no máximo 15 caracteres.', 'city');
    return HttpResponse.json({
      name: name.value,
      city: city.value,
      changes: [name.change, city.change].filter((change) => change !== null),
    });
  }),

  http.post('/api/account/password', async ({ request }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const body = (await request.json()) as { currentPassword: string; newPassword: string };
    if (body.currentPassword !== user.password) return WRONG_PASSWORD();
    const missing = passwordRules(db.passwordPolicy, body.newPassword).filter((rule) => !rule.met);
    if (missing.length > 0) {
      const list = missing.map((rule) => rule.label.toLowerCase()).join(', ');
      return apiError(422, 'weak-password', `A senha nova precisa de: ${list}.`);
    }
    user.password = body.newPassword;
    return noContent();
  }),

  http.post('/api/account/email', async ({ request }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const body = (await request.json()) as { newEmail: string; password: string };
    if (body.password !== user.password) return WRONG_PASSWORD();
    if (db.users.has(body.newEmail.trim().toLowerCase())) {
      return apiError(409, 'email-already-in-use', 'Este e-mail já está em uso.');
    }
    createActionCode(user, 'change-email', { newEmail: body.newEmail.trim() });
    return noContent();
  }),

  http.post('/api/account/delete', async ({ request }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    const body = (await request.json()) as { password: string };
    if (body.password !== user.password) return WRONG_PASSWORD();
    db.users.delete(user.email.toLowerCase());
    for (const [id, session] of db.sessions) if (session.uid === user.uid) db.sessions.delete(id);
    for (const [id, member] of db.members) {
      if (member.accountId === user.uid || member.memberUid === user.uid) db.members.delete(id);
    }
    db.qrcodes = db.qrcodes.filter((qrcode) => qrcode.accountId !== user.uid);
    endBrowserSession();
    return noContent();
  }),
];

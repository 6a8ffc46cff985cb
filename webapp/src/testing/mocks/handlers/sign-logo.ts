// The gateway's `GET /api/accounts/{accountId}/sign-logo` for an account without a logo: 404
// `not-found`, as the real API answers. The sign-logo section asks on every creation screen;
// a test about the logo itself overrides this with `server.use(…)`.

import { http } from 'msw';

import { apiError } from './api-error';

export const signLogoHandlers = [
  http.get('/api/accounts/:accountId/sign-logo', () =>
    apiError(404, 'not-found', 'Esta conta ainda não tem logotipo.'),
  ),
];

// The transactions API as an account with no payment yet sees it: an empty list, zero totals.
// Tests of the transactions screen put their own payments in with `server.use`.

import { HttpResponse, type JsonBodyType, http } from 'msw';

import { roleIn } from '../db';
import { bearerUser, unauthorized } from './bearer';
import { NOT_FOUND } from './team';

function answer(request: Request, accountId: string, body: JsonBodyType) {
  const user = bearerUser(request);
  if (user === undefined) return unauthorized();
  if (roleIn(accountId, user.uid) === undefined) return NOT_FOUND();
  return HttpResponse.json(body);
}

export const paymentHandlers = [
  http.get('/api/accounts/:accountId/payments', ({ request, params }) =>
    answer(request, String(params.accountId), { payments: [], next: null }),
  ),
  http.get('/api/accounts/:accountId/payments/summary', ({ request, params }) =>
    answer(request, String(params.accountId), {
      total: { payments: 0, receivedCentavos: 0, refundedCentavos: 0, netCentavos: 0, voided: 0 },
      days: [],
    }),
  ),
];

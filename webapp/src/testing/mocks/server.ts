import { setupServer } from 'msw/node';

import { accountHandlers } from './handlers/account';
import { authHandlers } from './handlers/auth';
import { bankConnectionHandlers } from './handlers/bank-connections';
import { buildHandlers } from './handlers/builds';
import { faqHandlers } from './handlers/faq';
import { keyHandlers } from './handlers/keys';
import { liveHandlers } from './handlers/live';
import { paymentHandlers } from './handlers/payments';
import { qrcodeHandlers } from './handlers/qrcodes';
import { signLogoHandlers } from './handlers/sign-logo';
import { signHandlers } from './handlers/signs';
import { teamHandlers } from './handlers/team';

export const server = setupServer(
  ...authHandlers,
  ...accountHandlers,
  ...teamHandlers,
  ...qrcodeHandlers,
  ...keyHandlers,
  ...bankConnectionHandlers,
  ...paymentHandlers,
  ...buildHandlers,
  ...faqHandlers,
  ...liveHandlers,
  ...signLogoHandlers,
  ...signHandlers,
);

/** Every request the app made in the current test, as `METHOD /path` plus when (Date.now()). */
export const requestLog: { call: string; at: number; headers: Headers }[] = [];

server.events.on('request:start', ({ request }) => {
  requestLog.push({
    call: `${request.method} ${new URL(request.url).pathname}`,
    at: Date.now(),
    headers: request.headers,
  });
});

/** When each call to `call` (e.g. `POST /api/auth/token`) was made. */
export function callTimes(call: string): number[] {
  return requestLog.filter((entry) => entry.call === call).map((entry) => entry.at);
}

import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { resetDb } from './mocks/db';
import { requestLog, server } from './mocks/server';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

// Testing Library only sets this itself when Vitest globals are on; without it React leaves effects
// to its scheduler instead of flushing them inside act(), and fake-timer tests lose exact timings.
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  resetDb();
  requestLog.length = 0;
  // What the app remembers on the device (the account in use) belongs to one test.
  // eslint-disable-next-line no-restricted-properties -- clears the remembered account in use
  if (typeof window !== 'undefined') window.localStorage.clear();
});
afterAll(() => server.close());

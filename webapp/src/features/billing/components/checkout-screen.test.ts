import { describe, expect, it } from 'vitest';

import { announcedStatus, chargeEventsPath } from './checkout-screen';

describe('the checkout follows its charge live', () => {
  it('listens on the charge’s own stream in its account', () => {
    expect(chargeEventsPath('conta 1', 'cobranca/2')).toBe(
      '/api/accounts/conta%201/subscription/charges/cobranca%2F2/events',
    );
  });

  it('reads the status a cobranca event announces and nothing from a malformed one', () => {
    expect(announcedStatus('{"status":"paid"}')).toBe('paid');
    expect(announcedStatus('{"status":"open"}')).toBe('open');
    expect(announcedStatus('{"pago":true}')).toBeNull();
    expect(announcedStatus('não é JSON')).toBeNull();
    expect(announcedStatus('null')).toBeNull();
  });
});

import { useEffect, useRef, useState } from 'react';

import { env } from '@/config/env';
import { api } from '@/lib/api';
import { accessTokenRejected, selectAccessToken } from '@/lib/credentials';
import { createSseParser } from '@/lib/sse-parser';
import { parseRetryAfter } from '@/utils/retry-after';

import { useAppDispatch, useAppSelector } from './store-hooks';

/** A payment as the live stream tells it: no payer data ever travels on it. */
export interface LivePayment {
  reference: string;
  qrcodeId: string | null;
  amountCentavos: number;
  status: 'received' | 'voided';
  source: 'api-pix' | 'manual' | 'sandbox';
  paidAt: string;
}

/** `live`: listening; `connecting`/`retrying`: not yet, or again after a drop; `off`: not allowed or no account. */
export type LiveState = 'connecting' | 'live' | 'retrying' | 'off';

const FIRST_PAUSE_MS = 2_000;
const LONGEST_PAUSE_MS = 30_000;

/** The tags whose data a payment changes: the transactions (`Payment`) and the home's figures. */
const PAYMENT_TAGS = ['Payment', 'PaymentSummary'] as const;

function isLivePayment(value: unknown): value is LivePayment {
  return (
    typeof value === 'object' &&
    value !== null &&
    'reference' in value &&
    typeof value.reference === 'string' &&
    'amountCentavos' in value &&
    typeof value.amountCentavos === 'number'
  );
}

/**
 * Follows `GET /api/accounts/{accountId}/events` while mounted and refetches what shows payments
 * (RTK Query tags `Payment` and `PaymentSummary`) whenever one arrives or changes; `onPayment`
 * hears each one too.
 *
 * Read with `fetch` and a stream reader, not `EventSource`: EventSource cannot send the
 * `Authorization` header, and the token must not go in a URL (logs, history, `Referer` keep
 * URLs). The hook resumes after a drop with `Last-Event-ID`, so the server replays what was
 * missed; a refreshed token (every hour) reopens the stream the same way; a 401 asks the session
 * for a new token; 403 and 404 stop it.
 */
export function useLivePayments(accountId: string | undefined, onPayment?: (payment: LivePayment) => void): LiveState {
  const token = useAppSelector(selectAccessToken);
  const dispatch = useAppDispatch();
  const lastId = useRef<string | null>(null);
  const listener = useRef(onPayment);
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    listener.current = onPayment;
  });

  // Another account is another stream, from its start.
  useEffect(() => {
    lastId.current = null;
  }, [accountId]);

  useEffect(() => {
    if (accountId === undefined || token === null) return;
    const controller = new AbortController();
    let timer: number | undefined;
    let pause = FIRST_PAUSE_MS;
    const refetch = () => dispatch(api.util.invalidateTags([...PAYMENT_TAGS]));

    const later = (ms: number) => {
      if (controller.signal.aborted) return;
      setState('retrying');
      timer = window.setTimeout(() => void connect(), ms);
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
    };

    const connect = async () => {
      try {
        const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' };
        const resumeFrom = lastId.current;
        if (resumeFrom !== null) headers['Last-Event-ID'] = resumeFrom;
        const response = await fetch(`${env.apiOrigin}/api/accounts/${encodeURIComponent(accountId)}/events`, {
          headers,
          signal: controller.signal,
          cache: 'no-store',
        });
        if (response.status === 401) {
          // The session refreshes the token; the new token starts this effect again.
          setState('retrying');
          dispatch(accessTokenRejected());
          return;
        }
        if (response.status === 403 || response.status === 404) {
          setState('off');
          return;
        }
        if (!response.ok || response.body === null) {
          const asked = parseRetryAfter(response.headers.get('Retry-After'), Date.now());
          later(asked === null ? pause : asked * 1000);
          return;
        }
        setState('live');
        pause = FIRST_PAUSE_MS;
        // Opened anew: whatever arrived between the screen's own fetch and now is fetched again.
        if (resumeFrom === null) refetch();
        const feed = createSseParser((event) => {
          if (event.id !== null) lastId.current = event.id;
          if (event.event === 'resync') refetch();
          if (event.event !== 'pagamento') return;
          refetch();
          try {
            const payment: unknown = JSON.parse(event.data);
            if (isLivePayment(payment)) listener.current?.(payment);
          } catch {
            // A malformed event still refetched; nothing else to do with it.
          }
        });
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          feed(decoder.decode(value, { stream: true }));
        }
        // The server ends streams now and then (a bounded lifetime, a restart): resume.
        later(FIRST_PAUSE_MS);
      } catch {
        later(pause);
      }
    };

    void connect();
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [accountId, token, dispatch]);

  return accountId === undefined || token === null ? 'off' : state;
}

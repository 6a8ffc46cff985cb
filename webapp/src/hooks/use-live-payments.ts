import { useCallback } from 'react';

import { api } from '@/lib/api';
import type { SseEvent } from '@/lib/sse-parser';

import { useAppDispatch } from './store-hooks';
import { type LiveState, useEventStream } from './use-event-stream';

export type { LiveState } from './use-event-stream';

/** A payment as the live stream tells it: no payer data ever travels on it. */
export interface LivePayment {
  reference: string;
  qrcodeId: string | null;
  amountCentavos: number;
  status: 'received' | 'voided';
  source: 'api-pix' | 'manual' | 'sandbox' | 'extrato' | 'api-pix-consulta';
  paidAt: string;
}

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
 * Follows `GET /api/accounts/{accountId}/events` while mounted ([`useEventStream`]) and refetches
 * what shows payments (RTK Query tags `Payment` and `PaymentSummary`) whenever one arrives or
 * changes; `onPayment` hears each one too. A stream opened anew (not resumed) refetches once, for
 * whatever arrived between the screen's own fetch and the stream; `resync` refetches too.
 */
export function useLivePayments(accountId: string | undefined, onPayment?: (payment: LivePayment) => void): LiveState {
  const dispatch = useAppDispatch();
  const refetch = useCallback(() => dispatch(api.util.invalidateTags([...PAYMENT_TAGS])), [dispatch]);
  return useEventStream(accountId === undefined ? undefined : `/api/accounts/${encodeURIComponent(accountId)}/events`, {
    onOpen: (resumed) => {
      if (!resumed) refetch();
    },
    onEvent: (event: SseEvent) => {
      if (event.event === 'resync') refetch();
      if (event.event !== 'pagamento') return;
      refetch();
      try {
        const payment: unknown = JSON.parse(event.data);
        if (isLivePayment(payment)) onPayment?.(payment);
      } catch {
        // A malformed event still refetched; nothing else to do with it.
      }
    },
  });
}

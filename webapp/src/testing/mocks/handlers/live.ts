// A fake of the live stream (`GET /api/accounts/{id}/events`) and the home's summary. Streams stay
// open until the app aborts them; a test writes events into every open stream with `sendLive`.

import { HttpResponse, http } from 'msw';

import { roleIn } from '../db';
import { bearerUser, unauthorized } from './bearer';
import { NOT_FOUND } from './team';

const encoder = new TextEncoder();
const openStreams = new Set<ReadableStreamDefaultController<Uint8Array>>();

/** Writes `text` (already in the stream's format) into every open stream. */
export function sendLive(text: string): void {
  for (const stream of openStreams) stream.enqueue(encoder.encode(text));
}

/** How many streams the app holds open now. */
export function openLiveStreams(): number {
  return openStreams.size;
}

const zero = { payments: 0, receivedCentavos: 0, refundedCentavos: 0, averageTicketCentavos: 0 };

export const liveHandlers = [
  http.get('/api/accounts/:accountId/events', ({ request, params }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    if (roleIn(String(params.accountId), user.uid) === undefined) return NOT_FOUND();
    let mine: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        mine = controller;
        openStreams.add(controller);
        controller.enqueue(encoder.encode('retry: 2000\n: ao vivo\n\n'));
      },
      cancel() {
        if (mine !== undefined) openStreams.delete(mine);
      },
    });
    request.signal.addEventListener('abort', () => {
      if (mine !== undefined) openStreams.delete(mine);
    });
    return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
  }),

  http.get('/api/accounts/:accountId/summary', ({ request, params }) => {
    const user = bearerUser(request);
    if (user === undefined) return unauthorized();
    if (roleIn(String(params.accountId), user.uid) === undefined) return NOT_FOUND();
    return HttpResponse.json({
      today: '2026-11-02',
      periods: { today: zero, last7Days: zero, last30Days: zero },
      recent: [],
    });
  }),
];

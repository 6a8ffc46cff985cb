import { useEffect, useRef, useState } from 'react';

import { env } from '@/config/env';
import { accessTokenRejected, selectAccessToken } from '@/lib/credentials';
import { createSseParser, type SseEvent } from '@/lib/sse-parser';
import { parseRetryAfter } from '@/utils/retry-after';

import { useAppDispatch, useAppSelector } from './store-hooks';

/** `live`: listening; `connecting`/`retrying`: not yet, or again after a drop; `off`: not allowed or nothing to follow. */
export type LiveState = 'connecting' | 'live' | 'retrying' | 'off';

const FIRST_PAUSE_MS = 2_000;
const LONGEST_PAUSE_MS = 30_000;

export interface EventStreamHandlers {
  /** Each event, in order. */
  onEvent: (event: SseEvent) => void;
  /** The stream opened; `resumed` when it resumed after an id (the server sent what was missed). */
  onOpen?: (resumed: boolean) => void;
}

/**
 * Follows the server-sent events at `path` (an API path that needs the bearer token) while
 * mounted; `undefined` follows nothing.
 *
 * Read with `fetch` and a stream reader, not `EventSource`: EventSource cannot send the
 * `Authorization` header, and the token must not go in a URL (logs, history, `Referer` keep
 * URLs). The hook resumes after a drop with `Last-Event-ID`, so the server sends what was
 * missed; a refreshed token (every hour) reopens the stream the same way; a 401 asks the session
 * for a new token; 403 and 404 stop it; a 503 waits as long as `Retry-After` says.
 */
export function useEventStream(path: string | undefined, handlers: EventStreamHandlers): LiveState {
  const token = useAppSelector(selectAccessToken);
  const dispatch = useAppDispatch();
  const lastId = useRef<string | null>(null);
  const listener = useRef(handlers);
  const [state, setState] = useState<LiveState>('connecting');

  useEffect(() => {
    listener.current = handlers;
  });

  // Another path is another stream, from its start.
  useEffect(() => {
    lastId.current = null;
  }, [path]);

  useEffect(() => {
    if (path === undefined || token === null) return;
    const controller = new AbortController();
    let timer: number | undefined;
    let pause = FIRST_PAUSE_MS;

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
        const response = await fetch(`${env.apiOrigin}${path}`, {
          headers,
          signal: controller.signal,
          cache: 'no-store',
          // The stream stays open as long as the screen: it must not count as, nor compete with,
          // what the screen needs to show (a fetch is high priority unless told; an EventSource
          // would be low).
          priority: 'low',
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
        listener.current.onOpen?.(resumeFrom !== null);
        const feed = createSseParser((event) => {
          if (event.id !== null) lastId.current = event.id;
          listener.current.onEvent(event);
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
  }, [path, token, dispatch]);

  return path === undefined || token === null ? 'off' : state;
}

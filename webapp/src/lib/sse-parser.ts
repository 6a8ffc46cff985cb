// Server-sent events read from a fetch body: the dashboard's stream needs the Authorization
// header, which EventSource cannot send (see `use-live-payments.ts`).

/** One event of a stream (comment lines, the heartbeats, are not events). */
export interface SseEvent {
  /** `event:`; `message` when the server named none. */
  event: string;
  /** `id:`, or null when the event carried none. */
  id: string | null;
  /** The `data:` lines joined with newlines. */
  data: string;
}

/**
 * Feeds text as it arrives (any chunking) and calls `onEvent` for each complete event, in order.
 * Follows the HTML standard's rules: blocks end at a blank line, `\r\n`, `\r` and `\n` all end a
 * line, one space after the colon is dropped, lines starting with `:` are comments.
 */
export function createSseParser(onEvent: (event: SseEvent) => void): (chunk: string) => void {
  let buffer = '';
  let event = '';
  let id: string | null = null;
  let data: string[] = [];
  const dispatch = () => {
    if (data.length > 0) onEvent({ event: event === '' ? 'message' : event, id, data: data.join('\n') });
    event = '';
    id = null;
    data = [];
  };
  return (chunk: string) => {
    buffer += chunk;
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      // A lone `\r` at the end may be the first half of `\r\n`: wait for more.
      if (end < 0 || (buffer[end] === '\r' && end === buffer.length - 1)) return;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(buffer.startsWith('\r\n', end) ? end + 2 : end + 1);
      if (line === '') {
        dispatch();
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id' && !value.includes('\0')) id = value;
    }
  };
}

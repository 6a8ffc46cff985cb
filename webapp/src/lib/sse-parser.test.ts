import { describe, expect, it } from 'vitest';

import { type SseEvent, createSseParser } from './sse-parser';

function parse(...chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const feed = createSseParser((event) => events.push(event));
  for (const chunk of chunks) feed(chunk);
  return events;
}

describe('createSseParser', () => {
  it('reads events with their name, id and data, skipping heartbeats and the retry line', () => {
    expect(
      parse('retry: 2000\n: ao vivo\n\n', ':♥\n\n', 'event: pagamento\nid: 812.45\ndata: {"pago":true}\n\n'),
    ).toEqual([{ event: 'pagamento', id: '812.45', data: '{"pago":true}' }]);
  });

  it('joins an event split anywhere across chunks, with any line ending', () => {
    expect(parse('event: pag', 'amento\r', '\nid: 1.2\rdata: a\r\ndata: b\n', '\n')).toEqual([
      { event: 'pagamento', id: '1.2', data: 'a\nb' },
    ]);
  });

  it('names an unnamed event "message" and waits for the blank line before telling it', () => {
    expect(parse('data: x\n')).toEqual([]);
    expect(parse('data: x\n\n')).toEqual([{ event: 'message', id: null, data: 'x' }]);
  });
});

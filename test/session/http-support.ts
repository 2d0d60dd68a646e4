// A real HTTP server on localhost for the handler tests, and a small SSE reader.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '../../src/entries/session.js';

/** Serves `handler` on 127.0.0.1 on a free port. */
export async function serve(
  handler: (request: Request) => Promise<Response>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One server-sent event as a client sees it. */
export interface SseEvent {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: unknown;
}

/**
 * Opens an SSE connection and reads events until `until` says stop (then drops the
 * connection, as a client whose network fails would).
 */
export async function readSse(
  url: string,
  headers: Record<string, string>,
  until: (events: readonly SseEvent[]) => boolean,
): Promise<{ status: number; contentType: string | null; events: SseEvent[] }> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  if (!response.ok || response.body === null) {
    return { status: response.status, contentType: response.headers.get('content-type'), events };
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    while (!until(events)) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id: string | undefined;
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') id = value;
          else if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length > 0) events.push({ id, event, data: JSON.parse(data.join('\n')) });
        if (until(events)) break;
      }
    }
  } finally {
    abort.abort();
    await reader.cancel().catch(() => {});
  }
  return { status: response.status, contentType: response.headers.get('content-type'), events };
}

import { invalidOption } from '../errors/invalid-option.js';

/** The parts of Node's `IncomingMessage` the adapter uses (an `http.IncomingMessage` fits). */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** The parts of Node's `ServerResponse` the adapter uses (an `http.ServerResponse` fits). */
export interface NodeResponseLike {
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  write(chunk: Uint8Array): boolean;
  end(): unknown;
  once(event: 'close' | 'drain', listener: () => void): unknown;
  readonly writableEnded?: boolean | undefined;
}

/**
 * Mounts a fetch-style handler (such as `createChunkHandlers(...).fetch`) in Node's `http`
 * server: the request becomes a web `Request` (aborted when the client goes away, which ends an
 * event stream), and the `Response` is streamed back with backpressure.
 *
 * @param handler - the fetch-style handler
 * @returns a `(req, res)` listener for `http.createServer`
 * @throws {ChunklogError} `invalid-option` when `handler` is not a function
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * createServer(toNodeListener(handlers.fetch)).listen(3000);
 * ```
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response>,
): (req: NodeRequestLike, res: NodeResponseLike) => void {
  if (typeof handler !== 'function') {
    invalidOption('toNodeListener', 'handler', 'the handler must be a function', handler);
  }
  return (req, res) => {
    void serve(handler, req, res);
  };
}

async function serve(
  handler: (request: Request) => Promise<Response>,
  req: NodeRequestLike,
  res: NodeResponseLike,
): Promise<void> {
  const abort = new AbortController();
  // One `close` listener for the whole response: a wait for `drain` must not add one each time
  // the client is slow (they would pile up for as long as the stream lasts).
  let wake: (() => void) | undefined;
  res.once('close', () => {
    abort.abort();
    wake?.();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (typeof value === 'string') headers.append(name, value);
    else for (const item of value) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', `http://${headers.get('host') ?? 'localhost'}`);
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody
    ? new ReadableStream<Uint8Array>({
        async start(controller) {
          try {
            for await (const chunk of req) {
              controller.enqueue(
                typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk,
              );
            }
            controller.close();
          } catch (error) {
            controller.error(error);
          }
        },
      })
    : null;
  let response: Response;
  try {
    response = await handler(
      new Request(url, {
        method,
        headers,
        signal: abort.signal,
        ...(body !== null ? { body, duplex: 'half' } : {}),
      } as RequestInit),
    );
  } catch {
    response = new Response('Internal Server Error', { status: 500 });
  }
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) out['set-cookie'] = cookies;
  res.writeHead(response.status, out);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}), {
    once: true,
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        if (abort.signal.aborted) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
          res.once('drain', resolve);
        });
        wake = undefined;
      }
    }
  } catch {
    // the client went away or the body failed: nothing more to send
  } finally {
    if (!res.writableEnded) res.end();
  }
}

import { invalidOption } from '../errors/invalid-option.js';
import { errorResponse } from './responses.js';

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
    invalidOption('toNodeListener', 'handler', '`handler` must be a function', handler);
  }
  return (req, res) => {
    serve(handler, req, res).catch(() => {
      // Nothing a request does may take the process down: end what was sent.
      try {
        if (!res.writableEnded) res.end();
      } catch {
        // the connection is gone
      }
    });
  };
}

/**
 * The web `Request` of a Node request, or the answer to one that cannot be a `Request`: 400 for
 * a `Host` header that makes no URL, 405 for a method the fetch API forbids (`TRACE`, `CONNECT`).
 */
function toRequest(req: NodeRequestLike, signal: AbortSignal): Request | Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (typeof value === 'string') headers.append(name, value);
    else for (const item of value) headers.append(name, item);
  }
  const method = req.method ?? 'GET';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${headers.get('host') ?? 'localhost'}`);
  } catch {
    return errorResponse(400, 'invalid-parameter', 'The Host header or the path is not valid.', {
      parameter: 'host',
    });
  }
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
  try {
    return new Request(url, {
      method,
      headers,
      signal,
      ...(body !== null ? { body, duplex: 'half' } : {}),
    } as RequestInit);
  } catch {
    void body?.cancel().catch(() => {});
    return errorResponse(405, 'method-not-allowed', `The method ${method} is not served.`);
  }
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
  const request = toRequest(req, abort.signal);
  let response: Response;
  if (request instanceof Response) {
    response = request;
  } else {
    try {
      response = await handler(request);
    } catch {
      response = new Response('Internal Server Error', { status: 500 });
    }
  }
  const reader = response.body?.getReader();
  // Cancelling the body releases what it holds (a connection slot, a relay reader): also when
  // the client left before the handler answered, when no `abort` is still to come.
  const cancel = () => void reader?.cancel().catch(() => {});
  if (abort.signal.aborted) {
    cancel();
    return;
  }
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length > 0) out['set-cookie'] = cookies;
  res.writeHead(response.status, out);
  if (reader === undefined) {
    res.end();
    return;
  }
  abort.signal.addEventListener('abort', cancel, { once: true });
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
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
    abort.signal.removeEventListener('abort', cancel);
    if (!finished) cancel();
    if (!res.writableEnded) res.end();
  }
}

// The inspector in Node's http server. Methods other than GET and HEAD are answered here, before
// a web Request is made (undici refuses to make one for TRACE or CONNECT, which would be a 500).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

const READ_ONLY = 'The inspector is read-only: it answers GET and HEAD only.\n';

/**
 * The Host header values a browser sends for a server listening on `address:port` from this
 * machine: the address itself, `localhost`, `127.0.0.1` and `[::1]`, each with the port (and
 * without it on port 80), plus `extra` (`--allow-host`). Anything else is refused, so that a web
 * page whose name was rebound to 127.0.0.1 (DNS rebinding) cannot read the store.
 *
 * @param address - the address the server listens on (`127.0.0.1`, `::1`, `0.0.0.0`)
 * @param port - the port it listens on
 * @param extra - more `host` or `host:port` values to accept
 * @returns the accepted values, lower case
 */
export function inspectorHosts(
  address: string,
  port: number,
  extra: readonly string[] = [],
): string[] {
  const bracket = (host: string) =>
    host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const names = new Set([bracket(address), 'localhost', '127.0.0.1', '[::1]']);
  const out = new Set<string>();
  for (const name of names) {
    out.add(`${name}:${port}`.toLowerCase());
    if (port === 80) out.add(name.toLowerCase());
  }
  for (const host of extra) {
    const value = host.trim().toLowerCase();
    out.add(value);
    if (!/:\d+$/.test(value)) out.add(`${value}:${port}`);
  }
  return [...out];
}

/**
 * A Node `request` listener around the inspector's fetch-style handler: anything but GET and HEAD
 * gets 405 at once; the rest becomes a web Request (no body) and the handler's Response is sent.
 *
 * @param handler - the inspector (`createInspector`)
 * @returns the listener for `http.createServer`
 */
export function inspectorListener(
  handler: (request: Request) => Promise<Response>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void respond(handler, req, res);
  };
}

/** The web Request of a GET or HEAD, without a body; undefined when it cannot be made. */
function toRequest(req: IncomingMessage, method: string): Request | undefined {
  try {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.append(name, value);
      else for (const item of value ?? []) headers.append(name, item);
    }
    // The path only: the Host header is the handler's to check, never trusted as the URL's host.
    const path = (req.url ?? '/').startsWith('/') ? (req.url ?? '/') : '/';
    return new Request(new URL(`http://inspector.invalid${path}`), { method, headers });
  } catch {
    return undefined;
  }
}

async function respond(
  handler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const method = req.method ?? 'GET';
  req.resume(); // a body is never read
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    res.end(READ_ONLY);
    return;
  }
  const request = toRequest(req, method);
  const response =
    request === undefined
      ? new Response('Bad request.\n', { status: 400 })
      : await handler(request).catch(
          () => new Response('The inspector failed.\n', { status: 500 }),
        );
  const body = method === 'HEAD' ? undefined : Buffer.from(await response.arrayBuffer());
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name] = value;
  });
  res.writeHead(response.status, out);
  res.end(body);
}

/**
 * Serves the inspector on a Node http server: requests through {@link inspectorListener}, and
 * CONNECT (which Node hands to a `connect` listener, or drops) answered 405 too.
 *
 * @param server - the server
 * @param handler - the inspector (`createInspector`)
 */
export function serveInspector(
  server: Server,
  handler: (request: Request) => Promise<Response>,
): void {
  server.on('request', inspectorListener(handler));
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(
      'HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    );
  });
}

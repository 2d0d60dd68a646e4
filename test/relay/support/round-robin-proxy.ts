// A small HTTP proxy of the tests: each request goes to the next instance in turn, as a load
// balancer without sticky sessions would send it. Responses stream through unbuffered.
import { createServer, request as httpRequest, type Server } from 'node:http';

/** The proxy: its port, and how to stop it. */
export interface RoundRobinProxy {
  readonly port: number;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 in front of the instances' ports. */
export async function startRoundRobinProxy(ports: readonly number[]): Promise<RoundRobinProxy> {
  let next = 0;
  const perClient = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    // A client that names itself (`x-client`) goes round its own circle: each of its requests
    // lands on another instance than the one before.
    const client = req.headers['x-client'];
    let turn = next++;
    if (typeof client === 'string') {
      turn = perClient.get(client) ?? 0;
      perClient.set(client, turn + 1);
    }
    const port = ports[turn % ports.length] as number;
    const upstream = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

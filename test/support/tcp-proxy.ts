// A TCP proxy of the tests' own between a store and its database, that fails one connection on
// purpose at a chosen point of a write transaction. It reads the SQL text the client sends
// (PostgreSQL's Query and Parse messages and MySQL's COM_QUERY carry it in plain bytes) to tell
// where the transaction is; every other connection, and every connection after the fault, is
// passed through untouched.
import { createServer, type Server, Socket } from 'node:net';

/** Where a write transaction is cut. */
export type FaultPoint =
  /** The BEGIN never reaches the server: the connection drops instead. */
  | 'before-begin'
  /** The first INSERT runs on the server; its answer is lost with the connection. */
  | 'after-insert'
  /** The COMMIT never reaches the server: the connection drops instead. */
  | 'before-commit'
  /** The COMMIT runs on the server; its answer is lost with the connection. */
  | 'after-commit'
  /**
   * After the first INSERT is answered, the connection stops carrying bytes but stays open (the
   * server closing it still gets through, as a FIN on a live path does).
   */
  | 'stall'
  /** A read: the first SELECT is held, and the connection carries nothing more. */
  | 'stall-read';

/** All the fault points, in the order a transaction reaches them. */
export const FAULT_POINTS: readonly FaultPoint[] = [
  'before-begin',
  'after-insert',
  'before-commit',
  'after-commit',
  'stall',
];

// Not `\b` in front: a message's length byte before the text may be a letter or digit.
const BEGIN = /(?<![a-z])(begin|start transaction)\b/i;
const INSERT = /(?<![a-z])insert\s+into\b/i;
const COMMIT = /(?<![a-z])commit\b/i;
const SELECT = /(?<![a-z])select\b/i;

/** A proxy listening on 127.0.0.1, forwarding to a database. */
export interface FaultProxy {
  /** The port it listens on. */
  readonly port: number;
  /**
   * Arms one fault: the next connection to reach `point` fails there. With `outage`, the
   * database then seems down, as during a restart: every connection through the proxy is cut
   * and new ones are refused until {@link FaultProxy.restore}. With `after: n`, the first `n`
   * messages that reach `point` pass untouched and the fault takes the next one: a point in the
   * client's progress that the client cannot pass without the proxy (unlike a test reading the
   * client's output, which a loaded machine can deliver late). With `match`, only messages that
   * also match it count (an INSERT into one table, say).
   *
   * @returns a promise that resolves when the fault has happened
   */
  arm(
    point: FaultPoint,
    options?: { readonly outage?: boolean; readonly after?: number; readonly match?: RegExp },
  ): Promise<void>;
  /** The database seems down now: every connection is cut, new ones are refused. */
  outage(): void;
  /** Ends an outage: new connections get through again. */
  restore(): void;
  /** Forgets an armed fault that has not happened. */
  disarm(): void;
  /** Ends the stalled connections (as a network that comes back would reset them). */
  releaseStalled(): void;
  /** Stops listening and ends every connection. */
  close(): Promise<void>;
}

interface Armed {
  readonly point: FaultPoint;
  readonly outage: boolean;
  /** Matching messages still to let through before the fault. */
  skip: number;
  /** What a message must also match to count, if anything. */
  readonly match: RegExp | undefined;
  readonly fired: () => void;
}

/**
 * Starts a proxy to `target`.
 *
 * @param target - the database's host and port
 * @returns the proxy
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const sockets = new Set<Socket>();
  const stalled = new Set<Socket>();
  let armed: Armed | undefined;
  let down = false;
  const fire = (fault: Armed) => {
    if (fault.outage) {
      down = true;
      for (const socket of sockets) socket.destroy();
    }
    fault.fired();
  };

  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    sockets.add(client);
    sockets.add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut);
    upstream.on('error', cut);
    client.on('close', () => {
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      // The server closing the connection (even a stalled one) reaches the client.
      client.destroy();
    });
    // This connection's fault, once it has taken the armed one.
    let fault: Armed | undefined;
    let waitingForAnswer = false;
    let stalling = false;
    const pending: Buffer[] = [];
    let connected = false;

    client.on('data', (data: Buffer) => {
      if (stalling) return;
      const text = data.toString('latin1');
      if (fault === undefined && armed !== undefined) {
        const point = armed.point;
        const matches =
          (point === 'before-begin'
            ? BEGIN.test(text)
            : point === 'after-insert' || point === 'stall'
              ? INSERT.test(text)
              : point === 'stall-read'
                ? SELECT.test(text)
                : COMMIT.test(text)) &&
          (armed.match === undefined || armed.match.test(text));
        if (matches && armed.skip > 0) {
          armed.skip -= 1;
        } else if (matches) {
          fault = armed;
          armed = undefined;
          if (point === 'stall-read') {
            stalling = true;
            stalled.add(client);
            stalled.add(upstream);
            fire(fault);
            return;
          }
          if (point === 'before-begin' || point === 'before-commit') {
            cut();
            fire(fault);
            return;
          }
          waitingForAnswer = true;
        }
      }
      if (connected) upstream.write(data);
      else pending.push(data);
    });
    upstream.on('data', (data: Buffer) => {
      if (stalling) return;
      if (waitingForAnswer && fault !== undefined) {
        waitingForAnswer = false;
        if (fault.point === 'stall') {
          // The INSERT's answer gets through; nothing after it does.
          client.write(data);
          stalling = true;
          stalled.add(client);
          stalled.add(upstream);
          fire(fault);
          return;
        }
        // The statement ran on the server; its answer is lost with the connection.
        cut();
        fire(fault);
        return;
      }
      client.write(data);
    });
    upstream.connect(target.port, target.host, () => {
      connected = true;
      for (const data of pending.splice(0)) upstream.write(data);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    arm(point, options = {}) {
      return new Promise<void>((resolve) => {
        armed = {
          point,
          outage: options.outage === true,
          skip: options.after ?? 0,
          match: options.match,
          fired: resolve,
        };
      });
    },
    outage() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
    disarm() {
      armed = undefined;
    },
    releaseStalled() {
      for (const socket of stalled) socket.destroy();
      stalled.clear();
    },
    close() {
      armed = undefined;
      for (const socket of sockets) socket.destroy();
      for (const socket of stalled) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// toNodeListener under backpressure: a slow client makes every write wait for `drain`; the
// listeners it waits with must not pile up on the response for as long as the stream lasts. A
// client that leaves before the handler answered still gets the response body cancelled (what it
// holds is released), and a request that cannot become a web `Request` (a bad Host header, a
// method the fetch API forbids) is answered, not a crash of the process.
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type NodeRequestLike, toNodeListener } from '../../src/entries/session.js';

/** A response whose every write fills the buffer; `drain` follows on the next turn. */
class SlowResponse extends EventEmitter {
  writes = 0;
  writableEnded = false;
  status = 0;
  writeHead(status: number): this {
    this.status = status;
    return this;
  }
  write(): boolean {
    this.writes++;
    setImmediate(() => this.emit('drain'));
    return false;
  }
  end(): this {
    this.writableEnded = true;
    this.emit('finished');
    return this;
  }
}

const request: NodeRequestLike = {
  method: 'GET',
  url: '/events',
  headers: { host: 'localhost' },
  async *[Symbol.asyncIterator]() {},
};

describe('toNodeListener', () => {
  it('waits for drain without adding a close listener per write', async () => {
    const pieces = 200;
    const handler = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < pieces; i++) controller.enqueue(new TextEncoder().encode(`${i}\n`));
            controller.close();
          },
        }),
      );
    const res = new SlowResponse();
    const finished = new Promise((resolve) => res.once('finished', resolve));
    toNodeListener(handler)(request, res);
    await finished;
    expect(res.status).toBe(200);
    expect(res.writes).toBe(pieces);
    expect(res.listenerCount('close')).toBeLessThanOrEqual(1);
    expect(res.listenerCount('drain')).toBe(0);
  });

  it('stops writing once the client is gone', async () => {
    let pulled = 0;
    const handler = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled++;
            controller.enqueue(new Uint8Array([1]));
          },
        }),
      );
    const res = new SlowResponse();
    const finished = new Promise((resolve) => res.once('finished', resolve));
    toNodeListener(handler)(request, res);
    await new Promise((resolve) => setTimeout(resolve, 20));
    res.emit('close');
    await finished;
    const after = pulled;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pulled - after).toBeLessThanOrEqual(1);
  });

  it('cancels the response body when the client left before the handler answered', async () => {
    let cancelled = false;
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const handler = async (incoming: Request) => {
      await new Promise((resolve) => incoming.signal.addEventListener('abort', resolve));
      answer();
      return new Response(
        new ReadableStream<Uint8Array>({
          cancel() {
            cancelled = true;
          },
        }),
      );
    };
    const res = new SlowResponse();
    toNodeListener(handler)(request, res);
    res.emit('close');
    await answered;
    await expect.poll(() => cancelled).toBe(true);
    expect(res.status).toBe(0);
  });

  it.each([
    ['a Host header that makes no URL', 'GET /threads/h1/chunks HTTP/1.1\r\nHost: a b', 400],
    ['a method the fetch API forbids', 'TRACE /threads/h1/chunks HTTP/1.1\r\nHost: localhost', 405],
  ])('answers %s, and the process goes on', async (_name, head, status) => {
    let called = 0;
    const server = createServer(
      toNodeListener(async () => {
        called++;
        return new Response('ok');
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(text));
        let got = '';
        socket.on('data', (chunk) => {
          got += chunk.toString();
        });
        socket.on('end', () => resolve(got));
        socket.on('error', reject);
      });
    try {
      const answer = await raw(`${head}\r\nConnection: close\r\n\r\n`);
      expect(answer.split('\r\n')[0]).toBe(
        `HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Method Not Allowed'}`,
      );
      expect(called).toBe(0);
      // The server still serves.
      const next = await raw('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      expect(next.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(called).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

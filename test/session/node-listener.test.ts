// toNodeListener under backpressure: a slow client makes every write wait for `drain`; the
// listeners it waits with must not pile up on the response for as long as the stream lasts.
import { EventEmitter } from 'node:events';
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
});

// The Redis relay's reads name their script by digest (`EVALSHA`): a reader reads on every
// wake-up, and sending the script whole each time costs every subscriber. A server whose script
// cache lacks it (a restart, `SCRIPT FLUSH`) is sent it once more, and no read is lost.
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createRedisRelay, type Relay } from '../../src/relay/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { REDIS_URL, redisAvailable } from '../support/services.js';

const available = await redisAvailable();

/** A turn of two text deltas: events 0 to 5. */
function turn(turnId: string): ChunkEvent[] {
  return [
    { type: 'turn-start', turnId },
    { type: 'text-start', id: 'a' },
    { type: 'text-delta', id: 'a', text: 'Hello ' },
    { type: 'text-delta', id: 'a', text: 'there.' },
    { type: 'text-end', id: 'a' },
    { type: 'turn-end', finishReason: 'stop' },
  ];
}

function publishTurn(relay: Relay, threadId: string, turnId: string): void {
  turn(turnId).forEach((event, index) => {
    relay.publish(threadId, event, { id: `${turnId}:${index}`, turnId, index });
  });
}

describe.skipIf(!available)('the Redis relay reading by script digest', () => {
  const clients: Redis[] = [];
  const relays: Relay[] = [];
  afterAll(async () => {
    for (const relay of relays) await relay.close();
    for (const client of clients) client.disconnect();
  });

  it('reads with EVALSHA, and after SCRIPT FLUSH sends the script once more and loses nothing', async () => {
    const prefix = `chunklog-test-sha-${Math.random().toString(36).slice(2)}`;
    const writerClient = new Redis(REDIS_URL);
    const readerClient = new Redis(REDIS_URL);
    const admin = new Redis(REDIS_URL);
    clients.push(writerClient, readerClient, admin);
    /** The script commands the reader's relay sends: `EVALSHA` or `EVAL`. */
    const sent: string[] = [];
    const recording = new Proxy(readerClient, {
      get(target, key) {
        if (key !== 'call') return Reflect.get(target, key, target);
        return (command: string, ...args: Array<string | number>) => {
          if (command === 'EVALSHA' || command === 'EVAL') sent.push(command);
          return target.call(command, ...args);
        };
      },
    });
    const writer = createRedisRelay({ redis: writerClient, prefix });
    const reader = createRedisRelay({ redis: recording, prefix });
    relays.push(writer, reader);
    const thread = `sha-${Math.random()}`;
    const stop = new AbortController();
    const timeout = setTimeout(() => stop.abort(), 20_000);
    const got: string[] = [];
    const following = (async () => {
      for await (const read of reader.follow(thread, { signal: stop.signal })) {
        got.push(read.type === 'gap' ? 'gap' : read.meta.id);
        if (read.type === 'event' && read.meta.turnId === 't2' && read.event.type === 'turn-end')
          return;
      }
    })();
    const until = async (id: string) => {
      while (!got.includes(id) && !stop.signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };

    await admin.call('SCRIPT', 'FLUSH');
    publishTurn(writer, thread, 't1');
    await until('t1:5');
    const afterFirst = sent.length;
    // Every read names the script; the first after the flush is refused and sent whole once.
    expect(sent[0]).toBe('EVALSHA');
    expect(sent.filter((c) => c === 'EVAL').length).toBeLessThanOrEqual(1);

    await admin.call('SCRIPT', 'FLUSH');
    publishTurn(writer, thread, 't2');
    await following;
    clearTimeout(timeout);
    expect(got).toEqual(
      [...turn('t1').keys()]
        .map((i) => `t1:${i}`)
        .concat([...turn('t2').keys()].map((i) => `t2:${i}`)),
    );
    const second = sent.slice(afterFirst);
    expect(second[0]).toBe('EVALSHA');
    expect(second.filter((c) => c === 'EVAL').length).toBeLessThanOrEqual(1);
    // The script is sent whole only right after a read by digest was refused.
    sent.forEach((command, i) => {
      if (command === 'EVAL') expect(sent[i - 1]).toBe('EVALSHA');
    });
  });
});

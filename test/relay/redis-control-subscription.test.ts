// The Redis relay's control subscriptions: a session that stops serving a thread's control before
// its subscribe went out (a turn that ends at once) leaves no channel subscribed behind it; one
// that starts serving while the subscriber connection is down is subscribed once it is back.
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRedisRelay } from '../../src/relay/index.js';
import { REDIS_URL } from '../support/services.js';
import { startFaultProxy } from '../support/tcp-proxy.js';
import { redisKind } from './relay-factories.js';

const redis = await redisKind();
afterAll(() => redis.close());

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(!redis.available)('the Redis relay’s control subscriptions', () => {
  it('leave no channel subscribed after a serve stopped before its subscribe went out', async () => {
    const relay = await redis.open();
    const listeners = redis.controlListeners as (threadId: string) => Promise<number>;
    const stops = ['quick-1', 'quick-2', 'quick-3'].map((threadId) =>
      relay.serveControl(threadId, async () => ({ type: 'not-running' })),
    );
    for (const stop of stops) stop();
    // A later subscribe on the same connection: once it is in, the ones before it are too.
    const barrier = relay.serveControl('barrier', async () => ({ type: 'not-running' }));
    await expect.poll(() => listeners('barrier')).toBe(1);
    for (const threadId of ['quick-1', 'quick-2', 'quick-3']) {
      await expect.poll(() => listeners(threadId)).toBe(0);
    }
    barrier();
    await expect.poll(() => listeners('barrier')).toBe(0);
  });

  it('are made once the connection is back for a turn that started while it was down, and not after it stopped', async () => {
    const target = new URL(REDIS_URL);
    const proxy = await startFaultProxy({
      host: target.hostname,
      port: Number(target.port || 6379),
    });
    closers.push(() => proxy.close());
    const through = new URL(REDIS_URL);
    through.host = `127.0.0.1:${proxy.port}`;
    const client = new Redis(through.toString(), {
      maxRetriesPerRequest: null,
      retryStrategy: () => 20,
    });
    client.on('error', () => {}); // the reconnection noise of the app's own client
    const direct = new Redis(REDIS_URL); // another instance, not behind the proxy
    closers.push(() => {
      client.disconnect();
      direct.disconnect();
    });
    const prefix = `chunklog-blip-${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
    const errors: unknown[] = [];
    const relay = createRedisRelay({ redis: client, prefix, onError: (e) => errors.push(e) });
    const other = createRedisRelay({ redis: direct, prefix });
    closers.push(async () => {
      await relay.close();
      await other.close();
    });
    const subscribers = async (channel: string): Promise<number> => {
      const [, count] = (await direct.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
      return Number(count);
    };

    /** Cuts Redis off, once the relay's subscriber connection is up; returns once it saw the drop. */
    const cut = async (): Promise<void> => {
      // A reader, subscribed on that connection: its end says the connection dropped.
      const reader = `reader-${Math.random().toString(36).slice(2)}`;
      const reading = (async () => {
        for await (const _ of relay.follow(reader)) {
          // nothing is published on it
        }
      })();
      await expect.poll(() => subscribers(`${prefix}:wake:${reader}`)).toBe(1);
      proxy.outage();
      await expect(reading).rejects.toMatchObject({ code: 'relay-unavailable' });
    };
    await cut();

    // A turn starts while Redis is away: its control cannot be subscribed now (reported).
    const stop = relay.serveControl('blip', async () => ({ type: 'cancelled', turnId: 'blip-1' }));
    await expect.poll(() => errors.length).toBeGreaterThan(0);
    proxy.restore();

    // Back: a cancel from another instance reaches the turn.
    await expect.poll(() => subscribers(`${prefix}:control:blip`), { timeout: 10_000 }).toBe(1);
    expect(await other.control('blip', { type: 'cancel' })).toEqual({
      type: 'cancelled',
      turnId: 'blip-1',
    });

    // Stopped, its channel goes, and another drop does not bring it back.
    stop();
    await expect.poll(() => subscribers(`${prefix}:control:blip`)).toBe(0);
    await cut();
    proxy.restore();
    // Answered once the connection is ready again (after its subscriptions were sent).
    await expect.poll(() => relay.runningTurn('blip').catch(() => 'down')).toBeUndefined();
    expect(await subscribers(`${prefix}:control:blip`)).toBe(0);
  }, 30_000);
});

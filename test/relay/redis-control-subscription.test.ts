// The Redis relay's control subscriptions: a session that stops serving a thread's control before
// its subscribe went out (a turn that ends at once) leaves no channel subscribed behind it.
import { afterAll, describe, expect, it } from 'vitest';
import { redisKind } from './relay-factories.js';

const redis = await redisKind();
afterAll(() => redis.close());

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
});

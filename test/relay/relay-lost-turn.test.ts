// A relay whose backend loses a running turn's state mid-turn (Redis restarted without
// persistence, a failover, an eviction; the PostgreSQL relay's rows deleted) loses nothing it is
// handed after that silently: new readers, readers that resume with an id they got before, and a
// reader that followed across the loss get a gap (they reload the store), then the rest of the
// turn through its end; the Redis relay reports the lost turn to `onError`.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import { createPostgresRelay, createRedisRelay, type Relay } from '../../src/relay/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { guardPgPool } from '../../src/store/index.js';
import { POSTGRES_URL, postgresAvailable, REDIS_URL, redisAvailable } from '../support/services.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function unique(): string {
  return `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** A turn of eight events: a turn-start, a text of five deltas, its end, the turn-end. */
const TURN: ChunkEvent[] = [
  { type: 'turn-start', turnId: 't1' },
  { type: 'text-start', id: 'a' },
  ...['one ', 'two ', 'three ', 'four ', 'five'].map(
    (text): ChunkEvent => ({ type: 'text-delta', id: 'a', text }),
  ),
  { type: 'text-end', id: 'a' },
  { type: 'turn-end', finishReason: 'stop' },
];
const LAST = `t1:${TURN.length - 1}`;
const ids = (from: number, to = TURN.length): string[] =>
  TURN.slice(from, to).map((_, k) => `t1:${from + k}`);

function publish(relay: Relay, threadId: string, from: number, to: number): void {
  for (let index = from; index < to; index++)
    relay.publish(threadId, TURN[index] as ChunkEvent, { id: `t1:${index}`, turnId: 't1', index });
}

/**
 * A reader: what it read so far (event ids and `gap`), and its reads until the turn's end (or the
 * id `until`); that fails if the reader ends first, at the latest after 10 s: a reader left
 * hanging is the bug.
 */
function reader(relay: Relay, threadId: string, lastEventId?: string, until = LAST) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 10_000);
  const reads: string[] = [];
  const done = (async () => {
    try {
      for await (const r of relay.follow(threadId, { lastEventId, signal: stop.signal })) {
        reads.push(r.type === 'gap' ? 'gap' : r.meta.id);
        if (r.type === 'event' && r.meta.id === until) return reads;
      }
    } finally {
      clearTimeout(timer);
    }
    throw new Error(`the reader ended before ${until}: ${reads.join(' ')}`);
  })();
  done.catch(() => {}); // awaited by the test; a test that failed first leaves it be
  return { reads, done };
}

/** A reader's reads through the turn's end (or `until`). */
function read(relay: Relay, threadId: string, lastEventId?: string, until = LAST) {
  return reader(relay, threadId, lastEventId, until).done;
}

/** Starts a reader and waits until it read something (it located its start, or read a gap). */
async function started(relay: Relay, threadId: string, lastEventId?: string) {
  const r = reader(relay, threadId, lastEventId);
  await until(() => r.reads.length > 0);
  return r;
}

/** Waits until `check` holds (every 20 ms, at most 10 s). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** A redis-server of this test's own, without persistence: restarted, it is empty. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const ready = until(async () => {
    const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  });
  // A server that never answered is not left behind.
  await ready.catch(async (error: unknown) => {
    await killRedis(child);
    throw error;
  });
  return child;
}

function killRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const redisUp = await redisAvailable();
const pgUp = await postgresAvailable();
const ownRedis = await new Promise<boolean>((resolve) => {
  const probe = spawn('redis-server', ['--version'], { stdio: 'ignore' });
  probe.once('error', () => resolve(false));
  probe.once('exit', (code) => resolve(code === 0));
});

/** Two Redis relays ("instances") on one server and prefix; `errors` collects A's `onError`. */
function redisInstances(url: string | number) {
  const prefix = `chunklog-lost-${unique()}`;
  const errors: unknown[] = [];
  const clients = [0, 1].map(() => {
    // Kept through an outage: the publishes of the outage wait in the offline queue.
    const redis =
      typeof url === 'number'
        ? new Redis(url, '127.0.0.1', { maxRetriesPerRequest: null, retryStrategy: () => 50 })
        : new Redis(url, { maxRetriesPerRequest: null });
    redis.on('error', () => {});
    return redis;
  });
  const [a, b] = clients.map((redis, i) =>
    createRedisRelay({
      redis,
      prefix,
      ...(i === 0 ? { onError: (error: unknown) => errors.push(error) } : {}),
    }),
  ) as [Relay, Relay];
  closers.push(async () => {
    await a.close();
    await b.close();
    for (const client of clients) client.disconnect();
  });
  return { a, b, prefix, errors, clients };
}

/** A's `onError` was told once, with a typed error naming the thread and the turn. */
function expectLostTurnReported(errors: unknown[], threadId: string, eventId: string): void {
  const lost = errors.filter(
    (e) => ChunklogError.isInstance(e) && e.threadId === threadId && e.message.includes('t1'),
  );
  expect(lost).toHaveLength(1);
  expect((lost[0] as ChunklogError).code).toBe('relay-unavailable');
  expect((lost[0] as ChunklogError).value).toEqual({ turnId: 't1', eventId });
}

describe('the Redis relay, when Redis loses a running turn', () => {
  it.skipIf(!ownRedis)(
    'restarted empty mid-turn: the rest of the turn reaches new and resuming readers after a gap, and onError is told',
    async () => {
      const port = await freePort();
      let server = await startRedis(port);
      closers.push(() => killRedis(server));
      const { a, b, errors, clients } = redisInstances(port);
      const thread = `lost-${unique()}`;

      publish(a, thread, 0, 4);
      expect(await read(b, thread, undefined, 't1:3')).toEqual(ids(0, 4));
      await expect(b.runningTurn(thread)).resolves.toBe('t1');

      // kill -9, and a new server on the same port without the data: A's turn goes on meanwhile.
      await killRedis(server);
      publish(a, thread, 4, 5); // waits in A's offline queue
      server = await startRedis(port);
      await Promise.all(clients.map((c) => until(() => c.status === 'ready')));
      publish(a, thread, 5, 7);
      await until(() => errors.length > 0);

      // The turn runs on the relay again (control reaches A); readers get a gap, then events 4..:
      // the publish that waited through the outage registered the turn again.
      await expect(b.runningTurn(thread)).resolves.toBe('t1');
      const fresh = await started(b, thread);
      const resumed = await started(b, thread, 't1:3');
      publish(a, thread, 7, TURN.length);
      expect(await fresh.done).toEqual(['gap', ...ids(4)]);
      expect(await resumed.done).toEqual(['gap', ...ids(4)]);
      // After the turn's end too, for a reader that comes late; and the turn no longer runs.
      expect(await read(b, thread)).toEqual(['gap', ...ids(4)]);
      await expect(b.runningTurn(thread)).resolves.toBeUndefined();
      expectLostTurnReported(errors, thread, 't1:4');
    },
    30_000,
  );

  it.skipIf(!redisUp)(
    'its keys gone mid-turn (shared Redis): every reader gets the rest of the turn; onError is told',
    async () => {
      const { a, b, prefix, errors } = redisInstances(REDIS_URL);
      const thread = `lost-${unique()}`;
      const following = reader(b, thread);
      publish(a, thread, 0, 5);
      await until(() => following.reads.length === 5);

      // What a restart without persistence or a failover leaves: no key of the thread.
      const admin = new Redis(REDIS_URL);
      closers.push(() => admin.disconnect());
      await admin.del(`${prefix}:{${thread}}:events`, `${prefix}:{${thread}}:meta`);

      publish(a, thread, 5, 7);
      await until(() => errors.length > 0);
      const fresh = await started(b, thread);
      const resumed = await started(b, thread, 't1:2');
      publish(a, thread, 7, TURN.length);
      // The reader that followed across missed nothing: the events go on with no gap, once each.
      expect(await following.done).toEqual(ids(0));
      expect(await fresh.done).toEqual(['gap', ...ids(5)]);
      expect(await resumed.done).toEqual(['gap', ...ids(5)]);
      expectLostTurnReported(errors, thread, 't1:5');
      // The next turn is relayed as usual, with no gap and no error.
      a.publish(
        thread,
        { type: 'turn-start', turnId: 't2' },
        { id: 't2:0', turnId: 't2', index: 0 },
      );
      a.publish(thread, { type: 'turn-end' }, { id: 't2:1', turnId: 't2', index: 1 });
      await until(async () => (await b.lastIndex(thread, 't2')) === 1);
      expect(await read(b, thread, undefined, 't2:1')).toEqual(['t2:0', 't2:1']);
      expect(errors).toHaveLength(1);
    },
  );

  it.skipIf(!redisUp)(
    'its keys gone mid-turn after an earlier turn: a reader following across gets a gap, then the rest',
    async () => {
      const { a, b, prefix, errors } = redisInstances(REDIS_URL);
      const thread = `lost-${unique()}`;
      a.publish(
        thread,
        { type: 'turn-start', turnId: 't0' },
        { id: 't0:0', turnId: 't0', index: 0 },
      );
      a.publish(thread, { type: 'turn-end' }, { id: 't0:1', turnId: 't0', index: 1 });
      const following = reader(b, thread);
      publish(a, thread, 0, 5);
      await until(() => following.reads.length === 7);
      const admin = new Redis(REDIS_URL);
      closers.push(() => admin.disconnect());
      await admin.del(`${prefix}:{${thread}}:events`, `${prefix}:{${thread}}:meta`);
      publish(a, thread, 5, TURN.length);
      // It cannot tell that it missed nothing: the turn is numbered anew.
      expect(await following.done).toEqual(['t0:0', 't0:1', ...ids(0, 5), 'gap', ...ids(5)]);
      expect(await read(b, thread)).toEqual(['gap', ...ids(5)]);
      expectLostTurnReported(errors, thread, 't1:5');
    },
  );

  it.skipIf(!redisUp)(
    'its events evicted but the hash kept, or the hash evicted but the stream kept: the rest of the turn still comes',
    async () => {
      const admin = new Redis(REDIS_URL);
      closers.push(() => admin.disconnect());
      for (const evicted of ['events', 'meta']) {
        const { a, b, prefix, errors } = redisInstances(REDIS_URL);
        const thread = `lost-${evicted}-${unique()}`;
        publish(a, thread, 0, 5);
        expect(await read(b, thread, undefined, 't1:4')).toEqual(ids(0, 5));
        await admin.del(`${prefix}:{${thread}}:${evicted}`);
        publish(a, thread, 5, TURN.length);
        await until(async () => (await b.runningTurn(thread)) === undefined);
        expect(await read(b, thread), evicted).toEqual(['gap', ...ids(5)]);
        // Only a lost hash loses the turn's registration; a lost stream loses events only.
        if (evicted === 'meta') expectLostTurnReported(errors, thread, 't1:5');
        else expect(errors).toEqual([]);
      }
    },
  );
});

describe('the PostgreSQL relay, when its rows are deleted mid-turn', () => {
  it.skipIf(!pgUp)(
    'a reader following across, a new one and a resuming one get a gap, then the rest of the turn',
    async () => {
      const table = `relay_lost_${unique()}`;
      const pools = [0, 1].map(() => {
        const pool = guardPgPool(new pg.Pool({ connectionString: POSTGRES_URL, max: 4 }));
        pool.on('error', () => {});
        return pool;
      });
      const errors: unknown[] = [];
      const [a, b] = pools.map((pool) =>
        createPostgresRelay({ pool, table, onError: (e) => errors.push(e) }),
      ) as [ReturnType<typeof createPostgresRelay>, ReturnType<typeof createPostgresRelay>];
      await a.migrate();
      closers.push(async () => {
        await a.close();
        await b.close();
        await pools[0]?.query(`DROP TABLE IF EXISTS ${table}`);
        for (const pool of pools) await pool.end();
      });
      for (const how of ['DELETE FROM', 'TRUNCATE']) {
        const thread = `lost-${unique()}`;
        const following = reader(b, thread);
        publish(a, thread, 0, 5);
        await until(() => following.reads.length === 5);
        await pools[1]?.query(`${how} ${table}`);
        publish(a, thread, 5, 7);
        const fresh = await started(b, thread);
        const resumed = await started(b, thread, 't1:2');
        publish(a, thread, 7, TURN.length);
        // The rows keep their turn's number: the reader that followed across missed nothing.
        expect(await following.done, how).toEqual(ids(0));
        expect(await fresh.done, how).toEqual(['gap', ...ids(5)]);
        expect(await resumed.done, how).toEqual(['gap', ...ids(5)]);
      }
      expect(errors).toEqual([]);
    },
  );
});

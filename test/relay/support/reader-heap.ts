// The heap of a process whose relay readers follow one long turn, for test/relay/reader-memory.test.ts
// and bench/relay.bench.ts:
//   node --expose-gc --import tsx test/relay/support/reader-heap.ts <in-process|redis|postgres> <readers> <events>
// It publishes `events` events of one turn (never ended: the readers still follow at the end) in
// groups of GROUP, and after each group waits until every reader read it, so each reader wakes up
// about once per group, as a reader of a live turn does (without readers, it waits until the relay
// holds the events every HELD_EVERY events and before the heap is taken). The heap after two forced
// collections is taken at about 10% of the events and at the end, and printed as one line of JSON:
// `{ early, late, read, gaps, ms }` (bytes; the fewest events a reader read in order, 0 without
// readers; the gaps the readers were told of; the time taken).
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  createInProcessRelay,
  createPostgresRelay,
  createRedisRelay,
  type Relay,
} from '../../../src/relay/index.js';
import type { ChunkEvent } from '../../../src/schema/chunk-event.js';
import { POSTGRES_URL, REDIS_URL } from '../../support/services.js';

const [kind, readersArg = '1', eventsArg = '50000'] = process.argv.slice(2);
/**
 * Events published between two waits for the readers: each reader wakes up about once per group.
 * One by one (50,000 wake-ups: 1 MB is 21 bytes each), but on PostgreSQL, where a wake-up costs a
 * write and a read of about a millisecond each, by 5 (10,000 wake-ups, 105 bytes each).
 */
const GROUP = kind === 'postgres' ? 5 : 1;
/** Without readers, the publisher waits for the relay to hold its events every this many. */
const HELD_EVERY = 100;
const readers = Number(readersArg);
const events = Number(eventsArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('reader-heap.ts needs node --expose-gc');
if (!Number.isSafeInteger(readers) || readers < 0 || !Number.isSafeInteger(events) || events < 20)
  throw new Error('usage: reader-heap.ts <in-process|redis|postgres> <readers> <events ≥ 20>');

const unique = `heap${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** The relay under test, and what closes it and its connections. */
async function open(): Promise<{ relay: Relay; close: () => Promise<void> }> {
  if (kind === 'in-process') {
    const relay = createInProcessRelay();
    return { relay, close: () => relay.close() };
  }
  if (kind === 'redis') {
    const redis = new Redis(REDIS_URL);
    redis.on('error', () => {});
    const prefix = `chunklog-test-${unique}`;
    const relay = createRedisRelay({ redis, prefix });
    return {
      relay,
      close: async () => {
        await relay.close();
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      },
    };
  }
  if (kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 4 });
    pool.on('error', () => {});
    const table = `relay_${unique}`;
    const relay = createPostgresRelay({ pool, table });
    await relay.migrate();
    return {
      relay,
      close: async () => {
        await relay.close();
        await pool.query(`DROP TABLE IF EXISTS ${table}`);
        await pool.end();
      },
    };
  }
  throw new Error(`unknown relay ${kind}: in-process, redis or postgres`);
}

function heap(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const { relay, close } = await open();
const threadId = `thread-${unique}`;
const turnId = `turn-${unique}`;

// Each reader counts the events it read in order (index after index) and the gaps it was told of.
const read = new Array<number>(readers).fill(0);
let gaps = 0;
let target = 0;
let caughtUp: (() => void) | undefined;
const progressed = () => {
  if (caughtUp !== undefined && read.every((n) => n >= target)) {
    const resolve = caughtUp;
    caughtUp = undefined;
    resolve();
  }
};
const stop = new AbortController();
const following = read.map(async (_, r) => {
  for await (const next of relay.follow(threadId, { signal: stop.signal })) {
    if (next.type === 'gap') gaps++;
    else if (next.meta.turnId === turnId && next.meta.index === read[r]) read[r]++;
    progressed();
  }
});

/** Until every reader read the first `count` events. */
function readAll(count: number): Promise<void> {
  target = count;
  return new Promise<void>((resolve) => {
    caughtUp = resolve;
    progressed();
  });
}

/** Until the relay holds the first `count` events (each look is a round trip: no pause). */
async function held(count: number): Promise<void> {
  while (((await relay.lastIndex(threadId, turnId)) ?? -1) < count - 1);
}

const eventAt = (index: number): ChunkEvent =>
  index === 0
    ? { type: 'turn-start', turnId }
    : index === 1
      ? { type: 'text-start', id: 'a' }
      : { type: 'text-delta', id: 'a', text: `delta ${index} `.padEnd(32, '.') };

const started = performance.now();
let early = 0;
const earlyAt = Math.floor(events / 10 / GROUP) * GROUP;
for (let index = 0; index < events; ) {
  const end = Math.min(events, index + GROUP);
  for (; index < end; index++)
    relay.publish(threadId, eventAt(index), { id: `${turnId}:${index}`, turnId, index });
  if (readers > 0) await readAll(index);
  // Without readers, at most HELD_EVERY events wait for the relay, and none when the heap is taken.
  else if (index % HELD_EVERY === 0 || index === earlyAt || index === events) await held(index);
  if (index === earlyAt) early = heap();
}
const late = heap();
const ms = Math.round(performance.now() - started);
stop.abort();
await Promise.all(following);
await close();
process.stdout.write(
  `${JSON.stringify({ early, late, read: readers === 0 ? 0 : Math.min(...read), gaps, ms })}\n`,
);

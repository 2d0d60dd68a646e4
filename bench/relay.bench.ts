// The relays (`chunklog/relay`):
// (a) latency from a publish to a reader of another relay (its own connections, in this process:
//     a second process would only add its scheduling to the figure) receiving it, p50 and p99, at
//     1,000 events per second, on Redis and on PostgreSQL; limit p99 ≤ 20 ms on loopback;
// (b) a 10,000-delta turn through a session on the Redis relay with 50 remote subscribers (in
//     another process, bench/relay-readers.ts) against the in-process relay with none; limit
//     ≤ 1.2×;
// (c) the heap per reader after 50,000 events: one reader following a turn against none, on each
//     relay, each in a process of its own (test/relay/support/reader-heap.ts, the script of
//     test/relay/reader-memory.test.ts); limit ≤ 1 MB above the run with none.
// Each part is skipped, with a message, when its server does not answer.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createAgentSession } from '../src/entries/session.js';
import {
  createInProcessRelay,
  createPostgresRelay,
  createRedisRelay,
  type PostgresRelay,
  type Relay,
} from '../src/relay/index.js';
import type { ChunkEvent } from '../src/schema/chunk-event.js';
import { createChunkStore } from '../src/store/index.js';
import { createScriptedModel } from '../src/testing/index.js';
import { compare, record } from './harness.js';

const REDIS_URL = process.env.CHUNKLOG_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const POSTGRES_URL =
  process.env.CHUNKLOG_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const quick = process.env.BENCH_QUICK === '1';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(Number(port), hostname, () => done(true));
  });
}

const unique = () => `b${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One run of (a): `count` events published at `rate` per second by `writer`, each carrying its
 * send time; `reader` follows the thread. Returns each event's latency in ms.
 */
async function latencies(
  writer: Relay,
  reader: Relay,
  count: number,
  rate: number,
): Promise<number[]> {
  const threadId = unique();
  const turnId = unique();
  const received: number[] = [];
  const stop = new AbortController();
  let ready!: () => void;
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  const reading = (async () => {
    for await (const read of reader.follow(threadId, { signal: stop.signal })) {
      if (read.type !== 'event') continue;
      if (read.event.type === 'turn-start') ready();
      if (read.event.type === 'text-delta')
        received.push(performance.now() - Number(read.event.text));
      if (read.event.type === 'turn-end') return;
    }
  })();
  const publish = (index: number, event: ChunkEvent) =>
    writer.publish(threadId, event, { id: `${turnId}:${index}`, turnId, index });
  publish(0, { type: 'turn-start', turnId });
  await started;
  publish(1, { type: 'text-start', id: 'a' });
  // Paced: each timer tick publishes the events whose time has come.
  const begin = performance.now();
  let sent = 0;
  while (sent < count) {
    const due = Math.min(count, Math.floor(((performance.now() - begin) * rate) / 1000) + 1);
    while (sent < due) {
      publish(2 + sent, { type: 'text-delta', id: 'a', text: String(performance.now()) });
      sent++;
    }
    await sleep(1);
  }
  publish(2 + count, { type: 'text-end', id: 'a' });
  publish(3 + count, { type: 'turn-end', finishReason: 'stop' });
  await reading;
  stop.abort();
  return received;
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function latencyOn(
  name: string,
  open: () => Promise<{ relays: [Relay, Relay]; close: () => Promise<void> }>,
) {
  const { relays, close } = await open();
  const [writer, reader] = relays;
  const count = quick ? 500 : 2000;
  const runs = quick ? 2 : 5;
  try {
    await latencies(writer, reader, 200, 1000); // warm-up
    const p50s: number[] = [];
    const p99s: number[] = [];
    for (let run = 0; run < runs; run++) {
      const sorted = (await latencies(writer, reader, count, 1000)).sort((a, b) => a - b);
      p50s.push(quantile(sorted, 0.5));
      p99s.push(quantile(sorted, 0.99));
    }
    const mid = (values: number[]) =>
      [...values].sort((a, b) => a - b)[values.length >> 1] as number;
    const range = (values: number[]) =>
      `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)} ms`;
    const p99 = mid(p99s);
    console.log(
      `\nrelay latency, ${name}: publish → a reader on other connections, 1,000 events/s, ${runs} runs of ${count}`,
    );
    console.log(`  p50 ${mid(p50s).toFixed(2)} ms (runs ${range(p50s)})`);
    console.log(`  p99 ${p99.toFixed(2)} ms (runs ${range(p99s)})`);
    const ok = p99 <= 20;
    record(`relay latency, ${name}`, [
      { ok, text: `  ${ok ? 'PASS' : 'MISS'} p99: ${p99.toFixed(2)} ms (≤ 20 ms)` },
    ]);
  } finally {
    await close();
  }
}

const redisUp = await reachable(REDIS_URL);
const postgresUp = await reachable(POSTGRES_URL);

// (a) Latency.
if (redisUp) {
  await latencyOn('Redis', async () => {
    const prefix = `chunklog-bench-${unique()}`;
    const clients = [new Redis(REDIS_URL), new Redis(REDIS_URL)];
    for (const c of clients) c.on('error', () => {});
    const relays = clients.map((redis) => createRedisRelay({ redis, prefix })) as [Relay, Relay];
    return {
      relays,
      close: async () => {
        for (const r of relays) await r.close();
        for (const c of clients) c.disconnect();
      },
    };
  });
} else {
  console.log(
    `[bench] Redis is not reachable at ${REDIS_URL}: the Redis relay figures are skipped.`,
  );
}
if (postgresUp) {
  await latencyOn('PostgreSQL', async () => {
    const table = `relay_bench_${unique()}`;
    const pools = [0, 1].map(() => new pg.Pool({ connectionString: POSTGRES_URL, max: 4 }));
    for (const p of pools) p.on('error', () => {});
    const relays: [PostgresRelay, PostgresRelay] = [
      createPostgresRelay({ pool: pools[0] as pg.Pool, table }),
      createPostgresRelay({ pool: pools[1] as pg.Pool, table }),
    ];
    await relays[0].migrate();
    return {
      relays,
      close: async () => {
        for (const r of relays) await r.close();
        await pools[0]?.query(`DROP TABLE IF EXISTS ${table}`);
        for (const p of pools) await p.end();
      },
    };
  });
} else {
  console.log(
    `[bench] PostgreSQL is not reachable at ${POSTGRES_URL}: the PostgreSQL relay latency is skipped.`,
  );
}

// (b) A 10,000-delta turn: Redis relay with 50 remote subscribers vs the in-process relay alone.
if (redisUp) {
  const DELTAS = 10_000;
  const READERS = 50;
  const dir = mkdtempSync(join(tmpdir(), 'chunklog-relay-bench-'));
  const store = createChunkStore({ sqlite: join(dir, 'bench.db') });
  await store.migrate();
  const prefix = `chunklog-bench-${unique()}`;
  const redis = new Redis(REDIS_URL);
  redis.on('error', () => {});
  const redisRelay = createRedisRelay({ redis, prefix });
  const inProcess = createInProcessRelay();
  const text = Array.from({ length: DELTAS }, (_, i) => `${i} `);
  const readers: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'relay-readers.ts')],
    {
      env: { ...process.env, REDIS_URL, PREFIX: prefix, READERS: String(READERS) },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: readers.stdout as NodeJS.ReadableStream });
  const waiting = new Map<string, () => void>();
  lines.on('line', (line) => {
    waiting.get(line)?.();
    waiting.delete(line);
  });
  const said = (line: string) =>
    new Promise<void>((resolve) => {
      waiting.set(line, resolve);
    });
  const followed: Array<Promise<void>> = [];
  const turnOn = (relay: Relay, threadId: string) => {
    const model = createScriptedModel([{ parts: [{ type: 'text', text }] }]);
    return createAgentSession({ store, threadId, model, relay });
  };
  try {
    await compare({
      title: `a ${DELTAS.toLocaleString('en')}-delta turn through a session (SQLite store)`,
      rounds: quick ? 2 : 9,
      warmup: 1,
      baseline: {
        name: 'in-process relay, no subscribers',
        prepare: () => turnOn(inProcess, unique()),
        run: async (session: ReturnType<typeof createAgentSession>) => {
          await session.send('go');
          await session.idle();
          await session.close();
        },
      },
      contenders: [
        {
          name: `Redis relay, ${READERS} subscribers in another process`,
          prepare: async () => {
            const threadId = unique();
            const following = said(`FOLLOWING ${threadId}`);
            followed.push(said(`DONE ${threadId}`));
            readers.stdin?.write(`${threadId}\n`);
            await following;
            await sleep(200); // their subscriptions land
            return turnOn(redisRelay, threadId);
          },
          run: async (session: ReturnType<typeof createAgentSession>) => {
            await session.send('go');
            await session.idle();
            await session.close();
          },
        },
      ],
      limits: [
        { contender: `Redis relay, ${READERS} subscribers in another process`, atMost: 1.2 },
      ],
      perItem: {
        'in-process relay, no subscribers': DELTAS,
        [`Redis relay, ${READERS} subscribers in another process`]: DELTAS,
      },
    });
    // Every subscriber got every turn to its end.
    await Promise.all(followed);
    console.log(
      `  (each of the ${READERS} remote subscribers followed every turn to its turn-end)`,
    );
  } finally {
    readers.stdin?.end();
    readers.kill('SIGTERM');
    await redisRelay.close();
    redis.disconnect();
    await inProcess.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  console.log('[bench] Redis is not reachable: the turn with 50 remote subscribers is skipped.');
}

// (c) The heap per reader after 50,000 events.
const HEAP_EVENTS = 50_000;
const HEAP_LIMIT = 1024 * 1024;

interface HeapRun {
  readonly early: number;
  readonly late: number;
  readonly read: number;
  readonly gaps: number;
  readonly ms: number;
}

/** One process of support/reader-heap.ts: `readers` readers over HEAP_EVENTS events. */
async function heapRun(relay: string, readers: number): Promise<HeapRun> {
  const script = join(import.meta.dirname, '..', 'test', 'relay', 'support', 'reader-heap.ts');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, relay, String(readers), String(HEAP_EVENTS)],
    { env: process.env, maxBuffer: 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as HeapRun;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

async function heapOn(name: string, relay: string): Promise<void> {
  // Side by side: each process measures its own heap.
  const [none, one] = await Promise.all([heapRun(relay, 0), heapRun(relay, 1)]);
  const grewNone = none.late - none.early;
  const grewOne = one.late - one.early;
  const perReader = grewOne - grewNone;
  console.log(
    `\nrelay reader heap, ${name}: ${HEAP_EVENTS.toLocaleString('en')} events, one reader against none (heap after forced collections, from 10% of the events to the end)`,
  );
  console.log(`  no reader   ${kb(grewNone).padStart(9)}  (${(none.ms / 1000).toFixed(1)} s)`);
  console.log(
    `  one reader  ${kb(grewOne).padStart(9)}  (${(one.ms / 1000).toFixed(1)} s; read ${one.read.toLocaleString('en')} events, ${one.gaps} gaps)`,
  );
  const complete = one.read === HEAP_EVENTS && one.gaps === 0;
  const ok = complete && perReader <= HEAP_LIMIT;
  record(`relay reader heap, ${name}`, [
    {
      ok,
      text: `  ${ok ? 'PASS' : 'MISS'} heap per reader after ${HEAP_EVENTS.toLocaleString('en')} events: ${kb(perReader)} (≤ 1 MB above none${complete ? '' : '; the reader missed events'})`,
    },
  ]);
}

await heapOn('in-process', 'in-process');
if (redisUp) await heapOn('Redis', 'redis');
else console.log('[bench] Redis is not reachable: the Redis relay reader heap is skipped.');
if (postgresUp) await heapOn('PostgreSQL', 'postgres');
else
  console.log('[bench] PostgreSQL is not reachable: the PostgreSQL relay reader heap is skipped.');

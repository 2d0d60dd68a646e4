// Instance A of the crash-takeover test: a session on the shared store and relay runs the scripted
// 5-step turn (durability 'step', a lease with a short ttl, recovery 'continue') and stops dead
// inside the tool of its third step, telling its parent over IPC (and each step write that
// landed), which then SIGKILLs it.
//   argv[2]: JSON { spec: HarnessSpec, threadId, relay: 'redis' | 'postgres', url, prefix, ttlMs }
import { Redis } from 'ioredis';
import pg from 'pg';
import { createAgentSession } from '../../../src/entries/session.js';
import { createPostgresRelay, createRedisRelay, type Relay } from '../../../src/relay/index.js';
import { guardPgPool } from '../../../src/store/index.js';
import { durableScript, durableTools } from '../../session/support/durable-script.js';
import { type HarnessSpec, openStoreFromSpec } from '../../store/support/dialects.js';

interface Job {
  readonly spec: HarnessSpec;
  readonly threadId: string;
  readonly relay: 'redis' | 'postgres';
  readonly url: string;
  readonly prefix: string;
  readonly ttlMs: number;
  /** The pause point (a tool's execute) to stop dead at. */
  readonly stopAt: string;
}

const send = (message: unknown) =>
  new Promise<void>((resolve) => {
    if (process.send) process.send(message, () => resolve());
    else resolve();
  });

if (process.argv[2] !== undefined && process.send !== undefined) {
  const job = JSON.parse(process.argv[2]) as Job;
  const opened = openStoreFromSpec(job.spec);
  // Each step write tells the parent once it landed (steps are written while the next streams).
  const store: typeof opened = Object.create(opened);
  store.appendSteps = async (...args) => {
    const rows = await opened.appendSteps(...args);
    await send({ type: 'written', rows: rows.length });
    return rows;
  };
  let relay: Relay;
  if (job.relay === 'postgres') {
    const pool = guardPgPool(new pg.Pool({ connectionString: job.url, max: 4 }));
    pool.on('error', () => {});
    relay = createPostgresRelay({ pool, table: job.prefix });
  } else {
    const redis = new Redis(job.url, { maxRetriesPerRequest: 2 });
    redis.on('error', () => {});
    relay = createRedisRelay({ redis, prefix: job.prefix });
  }
  const pause = async (name: string) => {
    if (name !== job.stopAt) return;
    await send({ type: 'point', name });
    // Wait for the kill (a timer keeps the process alive; the lease renews meanwhile).
    setInterval(() => {}, 60_000);
    await new Promise(() => {});
  };
  try {
    const session = createAgentSession({
      store,
      threadId: job.threadId,
      model: durableScript(),
      tools: durableTools(pause),
      idGenerator: () => 'turn-1',
      durability: 'step',
      lease: { ttlMs: job.ttlMs, holder: `a-${process.pid}` },
      recovery: 'continue',
      relay,
      // A write that fails shows in the test's output.
      onError: (error) => {
        process.stderr.write(
          `worker onError: ${error instanceof Error ? error.stack : String(error)}\n`,
        );
      },
    });
    await session.send('What do the files export?').rows;
    await send({ type: 'error', message: 'the turn ended without reaching its stop point' });
  } catch (error) {
    await send({ type: 'error', message: error instanceof Error ? error.stack : String(error) });
  }
  process.exit(1);
}

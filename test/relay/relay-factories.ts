// The relays under test, each as a factory of "processes": relays that share the same backend
// (a Redis server, a PostgreSQL database) but nothing in memory, as separate instances would.
import { Redis } from 'ioredis';
import pg from 'pg';
import {
  createInProcessRelay,
  createPostgresRelay,
  createRedisRelay,
  type Relay,
} from '../../src/relay/index.js';
import { guardPgPool } from '../../src/store/index.js';
import { POSTGRES_URL, postgresAvailable, REDIS_URL, redisAvailable } from '../support/services.js';

/** A relay backend: `open()` gives a new process's relay; `close()` ends them all. */
export interface RelayKind {
  readonly name: string;
  readonly available: boolean;
  open(): Promise<Relay>;
  close(): Promise<void>;
  /**
   * What the backend itself holds of a thread, read around the relay: the in-process relay's
   * events kept, the Redis keys named after the thread, the rows of the PostgreSQL relay's table.
   */
  held(threadId: string): Promise<readonly string[]>;
  /**
   * How many processes listen for the thread's control now, where the backend can tell (Redis);
   * the in-process relay serves control at once and needs no wait.
   */
  controlListeners?(threadId: string): Promise<number>;
}

function unique(): string {
  return `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

/** The in-process relay: every "process" is the same relay (one process). */
export function inProcessKind(): RelayKind {
  const relay = createInProcessRelay();
  return {
    name: 'in-process',
    available: true,
    open: async () => relay,
    close: () => relay.close(),
    async held(threadId) {
      // What a reader without an id and one with an unknown id would be given.
      const kept = [...relay.replay(threadId).events, ...relay.replay(threadId, '?:0').events];
      const stop = new AbortController();
      stop.abort();
      for await (const read of relay.follow(threadId, { signal: stop.signal }))
        if (read.type === 'event') kept.push(read);
      return kept.map((k) => k.meta.id);
    },
  };
}

/** Redis relays on a prefix of their own (their keys expiring after `ttlMs`, a day by default). */
export async function redisKind(url = REDIS_URL, ttlMs?: number): Promise<RelayKind> {
  const available = await redisAvailable();
  const prefix = `chunklog-test-${unique()}`;
  const clients: Redis[] = [];
  const relays: Relay[] = [];
  return {
    name: 'Redis',
    available,
    async open() {
      const redis = new Redis(url, { maxRetriesPerRequest: 2 });
      clients.push(redis);
      const relay = createRedisRelay({ redis, prefix, controlTimeoutMs: 30_000, ttlMs });
      relays.push(relay);
      return relay;
    },
    async close() {
      for (const relay of relays) await relay.close();
      for (const client of clients) client.disconnect();
    },
    async controlListeners(threadId) {
      const redis = new Redis(url);
      try {
        const reply = (await redis.pubsub('NUMSUB', `${prefix}:control:${threadId}`)) as [
          string,
          number,
        ];
        return Number(reply[1]);
      } finally {
        redis.disconnect();
      }
    },
    async held(threadId) {
      const redis = new Redis(url);
      try {
        const keys: string[] = [];
        let cursor = '0';
        do {
          const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
          cursor = next;
          keys.push(...batch.filter((k) => k.includes(threadId)));
        } while (cursor !== '0');
        return keys;
      } finally {
        redis.disconnect();
      }
    },
  };
}

/** PostgreSQL relays on a table of their own. */
export async function postgresKind(url = POSTGRES_URL): Promise<RelayKind> {
  const available = await postgresAvailable();
  const table = `relay_${unique()}`;
  const pools: pg.Pool[] = [];
  const relays: Relay[] = [];
  let migrated = false;
  return {
    name: 'PostgreSQL',
    available,
    async open() {
      const pool = guardPgPool(new pg.Pool({ connectionString: url, max: 4 }));
      pool.on('error', () => {});
      pools.push(pool);
      const relay = createPostgresRelay({ pool, table, controlTimeoutMs: 30_000 });
      if (!migrated) {
        await relay.migrate();
        migrated = true;
      }
      relays.push(relay);
      return relay;
    },
    async close() {
      for (const relay of relays) await relay.close();
      if (migrated && pools[0] !== undefined) await pools[0].query(`DROP TABLE IF EXISTS ${table}`);
      for (const pool of pools) await pool.end();
    },
    async held(threadId) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT turn_id, idx FROM ${table} WHERE thread_id = $1 ORDER BY pos`,
          [threadId],
        );
        return rows.map((r: { turn_id: string; idx: number }) => `${r.turn_id}:${r.idx}`);
      } finally {
        await client.end();
      }
    },
  };
}

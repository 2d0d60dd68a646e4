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
  };
}

/** Redis relays on a prefix of their own. */
export async function redisKind(url = REDIS_URL): Promise<RelayKind> {
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
      const relay = createRedisRelay({ redis, prefix, controlTimeoutMs: 30_000 });
      relays.push(relay);
      return relay;
    },
    async close() {
      for (const relay of relays) await relay.close();
      for (const client of clients) client.disconnect();
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
  };
}

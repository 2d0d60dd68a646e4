// A turn continued anew while the PostgreSQL relay still holds the dead process's events (the
// relay was away when the continuation asked for the last index, so it numbered from 0): its
// first event's row replaces the dead numbering's rows in the same statement, so the table holds
// the turn under one number, the live one. Also when that statement landed but its answer was
// lost and the relay wrote it again (under the next number, replacing its first copy too).
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { formatEventId } from '../../src/live/replay-buffer.js';
import {
  createPostgresRelay,
  type PgPoolClientLike,
  type PgPoolLike,
  type RelayRead,
} from '../../src/relay/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { guardPgPool } from '../../src/store/index.js';
import { POSTGRES_URL, postgresAvailable } from '../support/services.js';

const up = await postgresAvailable();
const pools: pg.Pool[] = [];
const table = `relay_renumber_${Math.random().toString(36).slice(2, 10)}`;

afterAll(async () => {
  await pools[0]?.query(`DROP TABLE IF EXISTS ${table}`);
  for (const pool of pools) await pool.end();
});

function newPool(): pg.Pool {
  const pool = guardPgPool(new pg.Pool({ connectionString: POSTGRES_URL, max: 4 }));
  pool.on('error', () => {});
  pools.push(pool);
  return pool;
}

const DEAD: ChunkEvent[] = [
  { type: 'turn-start', turnId: 'n1' },
  { type: 'text-start', id: 'a' },
  ...Array.from(
    { length: 6 },
    (_, i): ChunkEvent => ({ type: 'text-delta', id: 'a', text: `${i}` }),
  ),
];
const CONTINUED: ChunkEvent[] = [
  { type: 'turn-start', turnId: 'n1' },
  { type: 'text-start', id: 'a' },
  { type: 'text-delta', id: 'a', text: 'again' },
];

/** The rows the table holds of the thread, in order: `ord turnId:index epoch`. */
async function rows(pool: pg.Pool, threadId: string): Promise<string[]> {
  const result = await pool.query(
    `SELECT ord, turn_id, idx, epoch FROM ${table} WHERE thread_id = $1 ORDER BY pos`,
    [threadId],
  );
  return result.rows.map(
    (r: { ord: string; turn_id: string; idx: number; epoch: string | null }) =>
      `${r.ord} ${r.turn_id}:${r.idx} ${r.epoch ?? '-'}`,
  );
}

/** The ids a reader from `lastEventId` reads until `last` (or 15 s). */
async function idsUntil(
  relay: { follow(threadId: string, options: object): AsyncIterable<RelayRead> },
  threadId: string,
  lastEventId: string | undefined,
  last: string,
): Promise<string[]> {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 15_000);
  const reads: string[] = [];
  try {
    for await (const read of relay.follow(threadId, { lastEventId, signal: stop.signal })) {
      reads.push(read.type === 'gap' ? 'gap' : read.meta.id);
      if (reads.at(-1) === last) break;
    }
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
  return reads;
}

describe.skipIf(!up)(
  'a PostgreSQL relay, a turn continued anew while it holds the dead numbering',
  () => {
    it('keeps the turn under one number, the live one, also when the first write is written again', async () => {
      const pool = newPool();
      const dead = createPostgresRelay({ pool, table });
      await dead.migrate();
      // The continuing process's relay: the statement that writes the continued turn's first event
      // lands, then its connection drops before the answer (a retryable error), once.
      const direct = newPool();
      let dropped = false;
      const lossy: PgPoolLike = {
        query: (text, values) => direct.query(text, values),
        async connect(): Promise<PgPoolClientLike> {
          const client = await direct.connect();
          const query = client.query.bind(client);
          return Object.assign(client, {
            async query(text: string, values?: unknown[]) {
              const result = await query(text, values);
              if (!dropped && text.includes('replaced AS')) {
                dropped = true;
                throw new Error('Connection terminated unexpectedly');
              }
              return result;
            },
          }) as PgPoolClientLike;
        },
      };
      const errors: unknown[] = [];
      const taker = createPostgresRelay({ pool: lossy, table, onError: (e) => errors.push(e) });
      try {
        const threadId = `renumber-${Math.random()}`;
        DEAD.forEach((event, index) => {
          dead.publish(threadId, event, { id: `n1:${index}`, turnId: 'n1', index });
        });
        await idsUntil(dead, threadId, undefined, `n1:${DEAD.length - 1}`);
        expect(await rows(pool, threadId)).toEqual(DEAD.map((_, i) => `1 n1:${i} -`));

        CONTINUED.forEach((event, index) => {
          taker.publish(threadId, event, {
            id: formatEventId('n1', index, 12),
            turnId: 'n1',
            index,
          });
        });
        const running = CONTINUED.map((_, k) => `n1:r12.${k}`);
        const last = running.at(-1) as string;
        // Written again under the next number, replacing the copy under 2 and the dead rows
        // under 1 (the first statement replaced those already).
        await expect
          .poll(() => rows(pool, threadId))
          .toEqual(running.map((_, k) => `3 n1:${k} 12`));
        expect(dropped).toBe(true);
        expect(errors).toHaveLength(1);
        await expect(dead.lastEventId?.(threadId, 'n1')).resolves.toBe(last);
        // An id of the dead numbering is one gap, then the live numbering; one of it reads on.
        for (const id of ['n1:3', `n1:${DEAD.length - 1}`]) {
          expect(await idsUntil(dead, threadId, id, last), id).toEqual(['gap', ...running]);
        }
        expect(await idsUntil(dead, threadId, 'n1:r12.0', last)).toEqual(running.slice(1));
      } finally {
        await taker.close();
        await dead.close();
      }
    });
  },
);

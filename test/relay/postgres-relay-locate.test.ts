// Where a PostgreSQL relay reader starts must come from one snapshot. A reader that asks for
// the first event of a turn the writer is storing right then saw it missing, and a moment later
// saw the turn's end: it started after a turn it never got and waited for the next one for ever
// (a 30 s timeout of the relay contract in CI, about one run in a hundred on a loaded machine).
// Here the turn lands exactly after the reader's first query, every time.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createPostgresRelay,
  type PgPoolLike,
  type PgResultLike,
  type RelayRead,
} from '../../src/relay/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { POSTGRES_URL, postgresAvailable } from '../support/services.js';

const up = await postgresAvailable();
const pools: pg.Pool[] = [];
const table = `relay_locate_${Math.random().toString(36).slice(2, 10)}`;

afterAll(async () => {
  await pools[0]?.query(`DROP TABLE IF EXISTS ${table}`);
  for (const pool of pools) await pool.end();
});

function newPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 4 });
  pool.on('error', () => {});
  pools.push(pool);
  return pool;
}

const events: ChunkEvent[] = [
  { type: 'turn-start', turnId: 's1' },
  { type: 'text-start', id: 'a' },
  { type: 'text-delta', id: 'a', text: 'hello' },
  { type: 'text-end', id: 'a' },
  { type: 'turn-end', finishReason: 'stop' },
];

describe.skipIf(!up)('a PostgreSQL relay reader resuming from an event', () => {
  it('that is stored just after it asked gets that whole turn, not the next (where it starts is read in one snapshot)', async () => {
    const writer = createPostgresRelay({ pool: newPool(), table });
    await writer.migrate();
    const thread = `locate-${Math.random()}`;
    const publish = (turnId: string, count: number) =>
      events.slice(0, count).forEach((event, index) => {
        const turnEvent = event.type === 'turn-start' ? { ...event, turnId } : event;
        writer.publish(thread, turnEvent, { id: `${turnId}:${index}`, turnId, index });
      });
    const stored = async (turnId: string, count: number) => {
      while ((await writer.lastIndex(thread, turnId)) !== count - 1) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    // The reader's pool: right after the first query that looks for the event seen, the writer
    // stores the whole turn and the start of the next, and the reader's next query runs once
    // they landed (a reader that started after the first turn gets the second's start, and the
    // test ends there rather than waiting for ever).
    const readerPool = newPool();
    let landed: Promise<void> | undefined;
    const pool: PgPoolLike = {
      connect: () => readerPool.connect(),
      async query(text: string, values?: unknown[]): Promise<PgResultLike> {
        const result = await readerPool.query(text, values);
        if (landed === undefined && text.includes('turn_id = $2 AND idx = $3')) {
          landed = (async () => {
            publish('s1', events.length);
            await stored('s1', events.length);
            publish('s2', 2);
            await stored('s2', 2);
          })();
          await landed;
        }
        return result;
      },
    };
    const reader = createPostgresRelay({ pool, table });
    const reads: RelayRead[] = [];
    const stop = new AbortController();
    for await (const read of reader.follow(thread, { lastEventId: 's1:0', signal: stop.signal })) {
      reads.push(read);
      if (read.type === 'event' && (read.event.type === 'turn-end' || read.meta.turnId === 's2'))
        break;
    }
    stop.abort();
    await reader.close();
    await writer.close();
    expect(landed).toBeDefined();
    // Not stored when asked: a gap, then the turn from its start (not a wait after its end).
    expect(reads.map((r) => (r.type === 'gap' ? 'gap' : r.meta.id))).toEqual([
      'gap',
      ...events.map((_, i) => `s1:${i}`),
    ]);
  });
});

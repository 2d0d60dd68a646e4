// What a relay of the version before epochs wrote is read on: Redis stream entries without an
// epoch field and PostgreSQL rows of a table without the epoch column (which `migrate()` adds)
// are a plain numbering, `${turnId}:${index}`, resumed from as before; a turn continued on after
// them carries its epoch from its first new event. And what the new version writes of a plain
// numbering is what the old one wrote, so its instances read on during a rolling deploy.
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { formatEventId } from '../../src/live/replay-buffer.js';
import {
  createPostgresRelay,
  createRedisRelay,
  type Relay,
  type RelayRead,
} from '../../src/relay/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { guardPgPool } from '../../src/store/index.js';
import { POSTGRES_URL, postgresAvailable, REDIS_URL, redisAvailable } from '../support/services.js';

const hasRedis = await redisAvailable();
const hasPostgres = await postgresAvailable();
const closing: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

/** The first five events of a running turn: the dead process's, written by the old version. */
const OLD_EVENTS: ChunkEvent[] = [
  { type: 'turn-start', turnId: 'p1' },
  { type: 'text-start', id: 'a' },
  { type: 'text-delta', id: 'a', text: 'Hello ' },
  { type: 'text-delta', id: 'a', text: 'there' },
  { type: 'text-delta', id: 'a', text: ', ' },
];
/** The continuation's events, numbered on from 5 with epoch 12. */
const CONTINUED: ChunkEvent[] = [
  { type: 'turn-start', turnId: 'p1' },
  { type: 'text-delta', id: 'a', text: 'again.' },
  { type: 'text-end', id: 'a' },
  { type: 'turn-end', finishReason: 'stop' },
];
const OLD_IDS = OLD_EVENTS.map((_, i) => `p1:${i}`);
const CONTINUED_IDS = CONTINUED.map((_, k) => `p1:r12.${5 + k}`);

function publishContinued(relay: Relay, threadId: string): void {
  CONTINUED.forEach((event, k) => {
    const index = 5 + k;
    relay.publish(threadId, event, { id: formatEventId('p1', index, 12), turnId: 'p1', index });
  });
}

/**
 * The ids a reader from `lastEventId` reads, until the turn's end or its first read when `first`
 * (or 15 s without it).
 */
async function idsUntilEnd(relay: Relay, threadId: string, lastEventId?: string, first = false) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), 15_000);
  const reads: string[] = [];
  try {
    for await (const read of relay.follow(threadId, { lastEventId, signal: stop.signal })) {
      reads.push(idOf(read));
      if (first || (read.type === 'event' && read.event.type === 'turn-end')) break;
    }
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
  return reads;
}
const idOf = (read: RelayRead) => (read.type === 'gap' ? 'gap' : read.meta.id);

/** Checks the new relay on what the old version wrote: read, resumed, continued, ended. */
async function readsOnAfterOldVersion(relay: Relay, threadId: string): Promise<void> {
  await expect(relay.lastIndex(threadId, 'p1')).resolves.toBe(4);
  await expect(relay.lastEventId?.(threadId, 'p1')).resolves.toBe('p1:4');
  publishContinued(relay, threadId);
  expect(await idsUntilEnd(relay, threadId)).toEqual([...OLD_IDS, ...CONTINUED_IDS]);
  expect(await idsUntilEnd(relay, threadId, 'p1:2')).toEqual([
    ...OLD_IDS.slice(3),
    ...CONTINUED_IDS,
  ]);
  expect(await idsUntilEnd(relay, threadId, 'p1:r12.6')).toEqual(CONTINUED_IDS.slice(2));
  // An epoch where the old version wrote a plain event was not given.
  expect(await idsUntilEnd(relay, threadId, 'p1:r12.2', true)).toEqual(['gap']);
}

describe.skipIf(!hasRedis)('the Redis relay after the version before epochs', () => {
  it('reads entries without an epoch field as plain ids, and writes plain ones the same way', async () => {
    const prefix = `chunklog-test-compat-${Math.random().toString(36).slice(2)}`;
    const redis = new Redis(REDIS_URL);
    const relay = createRedisRelay({ redis, prefix });
    closing.push(async () => {
      await relay.close();
      redis.disconnect();
    });
    const threadId = `compat-${Math.random()}`;
    const stream = `${prefix}:{${threadId}}:events`;
    const meta = `${prefix}:{${threadId}}:meta`;
    // What the old publish script wrote for the dead process's events: turn 1, fields e and t.
    await redis.hset(meta, '#ord', 1, 't:p1', 1, '#running', 'p1', '#numbering', 'p1');
    for (const [index, event] of OLD_EVENTS.entries())
      await redis.xadd(stream, `1-${index}`, 'e', JSON.stringify(event), 't', 'p1');

    await readsOnAfterOldVersion(relay, threadId);
    // A plain event is written as before (no epoch field); a continued one carries `r`.
    relay.publish(
      threadId,
      { type: 'turn-start', turnId: 'p2' },
      {
        id: 'p2:0',
        turnId: 'p2',
        index: 0,
      },
    );
    const written = async () => (await redis.xrange(stream, '2-0', '2-0'))[0]?.[1];
    while ((await written()) === undefined) await new Promise((r) => setTimeout(r, 10));
    expect(await written()).toEqual([
      'e',
      JSON.stringify({ type: 'turn-start', turnId: 'p2' }),
      't',
      'p2',
    ]);
    const continued = await redis.xrange(stream, '1-5', '1-5');
    expect(continued[0]?.[1].slice(-2)).toEqual(['r', '12']);
  });
});

describe.skipIf(!hasPostgres)('the PostgreSQL relay after the version before epochs', () => {
  it('migrate() adds the epoch column to an old table; its rows and an old instance’s are plain ids', async () => {
    const table = `relay_compat_${Math.random().toString(36).slice(2, 10)}`;
    const pool = guardPgPool(new pg.Pool({ connectionString: POSTGRES_URL, max: 4 }));
    pool.on('error', () => {});
    const relay = createPostgresRelay({ pool, table });
    closing.push(async () => {
      await relay.close();
      await pool.query(`DROP TABLE IF EXISTS ${table}`);
      await pool.end();
    });
    // The table as the version before epochs created it, with the dead process's rows.
    await pool.query(`CREATE TABLE ${table} (
        pos bigserial PRIMARY KEY,
        thread_id text NOT NULL,
        ord bigint NOT NULL,
        idx integer NOT NULL,
        turn_id text NOT NULL,
        ended boolean NOT NULL,
        event text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    const threadId = `compat-${Math.random()}`;
    /** Writes rows as the old version's statement did: no epoch column named. */
    const writeOld = (from: number, to: number) =>
      pool.query(
        `INSERT INTO ${table} (thread_id, ord, idx, turn_id, ended, event)
         SELECT $1, 1, i, 'p1', false, e FROM unnest($2::int[], $3::text[]) AS u(i, e)`,
        [
          threadId,
          OLD_EVENTS.slice(from, to).map((_, k) => from + k),
          OLD_EVENTS.slice(from, to).map((e) => JSON.stringify(e)),
        ],
      );
    await writeOld(0, 3);
    await relay.migrate();
    await relay.migrate(); // once added, the column is left as it is
    // An instance of the old version, still running during the deploy, writes on.
    await writeOld(3, 5);

    await readsOnAfterOldVersion(relay, threadId);
    const { rows } = await pool.query(
      `SELECT idx, epoch FROM ${table} WHERE thread_id = $1 ORDER BY pos`,
      [threadId],
    );
    expect(rows.map((r: { epoch: string | null }) => r.epoch)).toEqual([
      ...OLD_EVENTS.map(() => null),
      ...CONTINUED.map(() => '12'),
    ]);
  });
});

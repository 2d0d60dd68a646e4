// What a read makes of a store in a bad state, on every dialect: a row whose created_at is not a
// time is a corrupt row like any other (and `onCorruptRow: 'skip'` leaves it out); a database
// that was never migrated says that migrate() is missing; getChunks pages 50 rows by default.
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { textDrafts } from '../../src/testing/index.js';
import { rejected } from '../support/chunklog-error.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';

const available = await availableDialects();
const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

for (const name of ['sqlite', 'postgres', 'mysql'] as const) {
  describe.skipIf(!available.includes(name))(`store reads on ${name}`, () => {
    const harness = () => {
      const h = createHarness(name);
      harnesses.push(h);
      return h;
    };

    it('reports a created_at that is not a time as a corrupt row, and skips it when asked', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      await store.appendTurn('when', textDrafts('a', 2));
      await store.appendTurn('when', textDrafts('b', 2));
      const chunks = sql.table(`${h.prefix}chunks`);
      // Beyond the range of a Date (±8.64e15 ms): the column holds it, a Date cannot.
      await sql`update ${chunks} set created_at = ${9e15} where seq = 3`.execute(h.raw);
      for (const read of [
        () => store.getChunks('when', { limit: 10 }),
        () => store.getRows('when'),
        () => store.getMessages('when'),
        () => store.getTurn('when', 'b'),
        () => store.getChunksAfter('when', { limit: 10 }),
      ]) {
        const error = await rejected(read());
        expect(error.code).toBe('corrupt-row');
        expect(error.seq).toBe(3);
        expect(error.message).toMatch(/created_at "?9000000000000000"? is not a time/);
      }
      const skipped = await store.getRows('when', { onCorruptRow: 'skip' });
      expect(skipped.map((r) => r.seq)).toEqual([1, 2, 4]);
      expect(skipped.every((r) => !Number.isNaN(Date.parse(r.createdAt ?? '')))).toBe(true);
      const lenient = h.openStore({ onCorruptRow: 'skip' });
      expect((await lenient.getChunks('when', { limit: 10 })).chunks.map((r) => r.seq)).toEqual([
        1, 2, 4,
      ]);
      if (name === 'sqlite') {
        // SQLite keeps whatever it is given: text in an integer column.
        await sql`update ${chunks} set created_at = 'yesterday' where seq = 1`.execute(h.raw);
        expect((await rejected(store.getRows('when'))).seq).toBe(1);
        expect((await lenient.getRows('when')).map((r) => r.seq)).toEqual([2, 4]);
      }
      await lenient.close();
      await store.close();
    });

    it('reports a thread row holding no time, no seq or no metadata object as a corrupt row naming the thread', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      await store.createThread('bad', { metadata: { a: 1 } });
      await store.appendTurn('bad', textDrafts('a', 2));
      await store.createThread('fine');
      const threads = sql.table(`${h.prefix}threads`);
      const corruptions = [
        [
          sql`update ${threads} set created_at = ${9e15} where id = 'bad'`,
          /created_at "?9000000000000000"? is not a time/,
        ],
        [
          sql`update ${threads} set updated_at = ${-9e15} where id = 'bad'`,
          /updated_at "?-9000000000000000"? is not a time/,
        ],
        [sql`update ${threads} set next_seq = 0 where id = 'bad'`, /next_seq "?0"? is not a seq/],
        [
          sql`update ${threads} set metadata = ${'[1]'} where id = 'bad'`,
          /metadata .* is not a JSON object/,
        ],
      ] as const;
      for (const [corrupt, message] of corruptions) {
        const before = await sql<
          Record<string, unknown>
        >`select * from ${threads} where id = 'bad'`.execute(h.raw);
        await corrupt.execute(h.raw);
        for (const read of [() => store.getThread('bad'), () => store.listThreads({ limit: 10 })]) {
          const error = await rejected(read());
          expect(error.code).toBe('corrupt-row');
          expect(error.threadId).toBe('bad');
          expect(error.message).toMatch(message);
        }
        // Only that thread is unreadable, and repairing the row repairs the reads.
        expect((await store.getThread('fine')).total).toBe(0);
        const row = before.rows[0] as Record<string, unknown>;
        await sql`update ${threads} set created_at = ${row.created_at}, updated_at = ${row.updated_at}, next_seq = ${row.next_seq}, metadata = ${typeof row.metadata === 'string' || row.metadata === null ? row.metadata : JSON.stringify(row.metadata)} where id = 'bad'`.execute(
          h.raw,
        );
        expect(await store.getThread('bad')).toMatchObject({
          id: 'bad',
          total: 2,
          metadata: { a: 1 },
        });
      }
      await store.close();
    });

    it('reports a turn row holding no time or no seq as a corrupt row naming the thread and turn', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      // A failed turn has a row of its own; a completed one is read from its rows.
      await store.appendTurn('turned', textDrafts('a', 2), { status: 'failed' });
      await store.appendTurn('turned', textDrafts('b', 1));
      const turns = sql.table(`${h.prefix}turns`);
      const corruptions = [
        [
          sql`update ${turns} set created_at = ${9e15} where turn_id = 'a'`,
          /created_at .* is not a time/,
        ],
        [
          sql`update ${turns} set updated_at = ${-9e15} where turn_id = 'a'`,
          /updated_at .* is not a time/,
        ],
        [sql`update ${turns} set next_seq = 0 where turn_id = 'a'`, /next_seq "?0"? is not a seq/],
      ] as const;
      for (const [corrupt, message] of corruptions) {
        const before = await sql<
          Record<string, unknown>
        >`select * from ${turns} where turn_id = 'a'`.execute(h.raw);
        await corrupt.execute(h.raw);
        for (const read of [
          () => store.getTurnInfo('turned', 'a'),
          () => store.listTurns('turned'),
        ]) {
          const error = await rejected(read());
          expect(error.code).toBe('corrupt-row');
          expect(error.threadId).toBe('turned');
          expect(error.message).toMatch(/turn "a" of thread "turned"/);
          expect(error.message).toMatch(message);
        }
        const row = before.rows[0] as Record<string, unknown>;
        await sql`update ${turns} set created_at = ${row.created_at}, updated_at = ${row.updated_at}, next_seq = ${row.next_seq} where turn_id = 'a'`.execute(
          h.raw,
        );
        expect(await store.getTurnInfo('turned', 'a')).toMatchObject({
          turnId: 'a',
          status: 'failed',
          firstSeq: 1,
          nextSeq: 3,
        });
      }
      const chunks = sql.table(`${h.prefix}chunks`);
      await sql`update ${chunks} set created_at = ${9e15} where turn_id = 'b'`.execute(h.raw);
      const error = await rejected(store.getTurnInfo('turned', 'b'));
      expect(error.code).toBe('corrupt-row');
      expect(error.threadId).toBe('turned');
      expect(error.message).toMatch(/turn "b" of thread "turned" .*created_at .* is not a time/);
      await store.close();
    });

    it('says that migrate() is missing on a database it was never run on', async () => {
      const h = harness();
      const store = h.openStore();
      for (const call of [
        () => store.appendTurn('never', textDrafts('a', 1)),
        () => store.getChunks('never', { limit: 5 }),
        () => store.getRows('never'),
        () => store.listThreads({ limit: 5 }),
        () => store.createThread('never'),
        () => store.hasTurn('never', 'a'),
      ]) {
        const error = await rejected(call());
        expect(error.code).toBe('not-migrated');
        expect(error.message).toMatch(/migrate\(\)/);
        expect(error.cause).toBeInstanceOf(Error);
      }
      await store.migrate();
      expect(await store.appendTurn('never', textDrafts('a', 1))).toHaveLength(1);
      await store.close();
    });

    it('pages 50 rows when no limit is given, as the HTTP route does', async () => {
      const h = harness();
      const store = h.openStore();
      await store.migrate();
      await store.appendTurn('fifty', textDrafts('a', 60));
      const page = await store.getChunks('fifty');
      expect(page.chunks.map((r) => r.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 11));
      expect(page).toMatchObject({ total: 60, oldestSeq: 11, hasMore: true });
      const older = await store.getChunks('fifty', { before: 11 });
      expect(older.chunks).toHaveLength(10);
      const forward = await store.getChunksAfter('fifty');
      expect(forward.chunks.map((r) => r.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect((await store.listThreads()).threads.map((t) => t.id)).toEqual(['fifty']);
      await store.close();
    });
  });
}

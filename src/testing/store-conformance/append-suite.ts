// The conformance kit: migrate and appendTurn
import type { ChunkRowDraft } from '../../schema/chunk-row.js';
import { draftsOf, sampleDrafts, textDrafts } from './drafts.js';
import type { Kit } from './kit.js';

/**
 * Checks that `appendTurn` refuses each value of an option with `invalid-option` naming it, and
 * that the turn it was given (`bad`) is not stored.
 */
async function expectRefused(
  kit: Kit,
  threadId: string,
  option: string,
  values: readonly unknown[],
): Promise<void> {
  for (const value of values) {
    const error = await kit.expectCode(
      kit.store.appendTurn(threadId, textDrafts('bad', 1), { [option]: value } as never),
      'invalid-option',
    );
    kit.api.expect(error.option, `the option ${option} = ${String(value)} names`).toBe(option);
  }
  kit.api
    .expect(await kit.store.hasTurn(threadId, 'bad'), 'the refused turn is stored')
    .toBe(false);
}

/** Declares the kit's tests of migrate and appendTurn. */
export function describeAppendSuite(kit: Kit): void {
  const { describe, it, expect } = kit.api;
  describe('migrate', () => {
    it('is idempotent', async () => {
      await kit.store.migrate();
      await kit.store.migrate();
    });
  });

  describe('appendTurn', () => {
    it('stores every row type and reads it back unchanged, with dense seqs from 1', async () => {
      const t = kit.thread('roundtrip');
      const drafts = sampleDrafts('turn-1');
      const rows = await kit.store.appendTurn(t, drafts);
      expect(rows.map((r) => r.seq)).toEqual(drafts.map((_, i) => i + 1));
      expect(draftsOf(rows)).toStrictEqual(drafts);
      for (const row of rows) {
        expect(row.threadId).toBe(t);
        expect(typeof row.createdAt).toBe('string');
      }
      const back = await kit.store.getRows(t);
      expect(back).toStrictEqual(rows);
      const second = await kit.store.appendTurn(t, sampleDrafts('turn-2', 'again'));
      expect(second.map((r) => r.seq)).toEqual(drafts.map((_, i) => drafts.length + i + 1));
    });

    it('creates the thread it does not know yet', async () => {
      const t = kit.thread('autocreate');
      await kit.expectCode(kit.store.getThread(t), 'thread-not-found');
      await kit.store.appendTurn(t, textDrafts('a', 2));
      const info = await kit.store.getThread(t);
      expect(info.id).toBe(t);
      expect(info.total).toBe(2);
    });

    it('stores a large turn whole', async () => {
      const t = kit.thread('large');
      const rows = await kit.store.appendTurn(t, textDrafts('big', 1234));
      expect(rows).toHaveLength(1234);
      const back = await kit.store.getRows(t);
      expect(back.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
      expect(back.every((r) => r.turnId === 'big')).toBe(true);
    });

    it('does not store a turn id twice, and returns the stored rows', async () => {
      const t = kit.thread('idempotent');
      const first = await kit.store.appendTurn(t, textDrafts('once', 3));
      const again = await kit.store.appendTurn(t, textDrafts('once', 5));
      expect(again).toStrictEqual(first);
      expect((await kit.store.getThread(t)).total).toBe(3);
      const next = await kit.store.appendTurn(t, textDrafts('next', 1));
      expect(next[0]?.seq).toBe(4);
    });

    it('stamps an imported turn with the createdAt it is given, and keeps seqs and activity as they are', async () => {
      const t = kit.thread('created-at');
      await kit.store.appendTurn(t, textDrafts('now', 1));
      const started = Date.now();
      const imported = await kit.store.appendTurn(t, textDrafts('old', 2), {
        createdAt: '2020-01-02T03:04:05.678+01:00',
      });
      expect(imported.map((r) => [r.seq, r.createdAt])).toEqual([
        [2, '2020-01-02T02:04:05.678Z'],
        [3, '2020-01-02T02:04:05.678Z'],
      ]);
      const dated = await kit.store.appendTurn(t, textDrafts('dated', 1), {
        createdAt: new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 999)),
      });
      expect(dated[0]?.createdAt).toBe('1999-12-31T23:59:59.999Z');
      const rows = await kit.store.getRows(t);
      expect(rows.slice(1)).toStrictEqual([...imported, ...dated]);
      // The thread's last activity is the append, not the imported time.
      expect(started).toBeLessThanOrEqual(Date.parse((await kit.store.getThread(t)).updatedAt));
      // A turn already stored keeps its rows and their time.
      const again = await kit.store.appendTurn(t, textDrafts('old', 2), {
        createdAt: '2024-05-05T00:00:00Z',
      });
      expect(again).toStrictEqual(imported);

      await expectRefused(kit, t, 'createdAt', [
        '2020-01-02',
        '2020-01-02T03:04:05',
        'yesterday',
        '2020-13-40T00:00:00Z',
        new Date(Number.NaN),
        1_600_000_000_000,
      ]);
      await expectRefused(kit, t, 'seq', [1]);
      expect((await kit.store.getThread(t)).total).toBe(4);
    });

    it('places an imported turn at firstSeq after a gap; refuses one below the next seq or with no room below 2^31 and writes nothing; a retry answers the stored rows', async () => {
      const t = kit.thread('first-seq');
      await kit.store.appendTurn(t, textDrafts('t1', 2));
      const placed = await kit.store.appendTurn(t, textDrafts('t2', 2), { firstSeq: 7 });
      expect(placed.map((r) => r.seq)).toEqual([7, 8]);
      const next = await kit.store.appendTurn(t, textDrafts('t3', 1));
      expect(next.map((r) => r.seq)).toEqual([9]);
      expect((await kit.store.getRows(t)).map((r) => r.seq)).toEqual([1, 2, 7, 8, 9]);
      expect(await kit.store.appendTurn(t, textDrafts('t2', 2), { firstSeq: 3 })).toStrictEqual(
        placed,
      );
      await expectRefused(kit, t, 'firstSeq', [9, 0, 2.5, '12', 2 ** 31 - 1]);
      expect((await kit.store.getThread(t)).total).toBe(9);
    });

    it('validates every draft before writing anything', async () => {
      const t = kit.thread('invalid');
      const bad = [
        ...textDrafts('v', 2),
        { turnId: 'v', step: 0, role: 'assistant', type: 'text', data: { text: 42 } },
      ] as unknown as ChunkRowDraft[];
      const error = await kit.expectCode(kit.store.appendTurn(t, bad), 'invalid-row');
      expect(error.path?.[0]).toBe(2);
      await kit.expectCode(
        kit.store.appendTurn(t, [...textDrafts('a', 1), ...textDrafts('b', 1)]),
        'invalid-row',
      );
      await kit.expectCode(
        kit.store.appendTurn(t, [{ ...textDrafts('x', 1)[0], step: -1 }] as ChunkRowDraft[]),
        'invalid-row',
      );
      await kit.expectCode(kit.store.getThread(t), 'thread-not-found');
      await kit.expectCode(kit.store.appendTurn('', textDrafts('x', 1)), 'invalid-option');
      await kit.expectCode(kit.store.appendTurn('a\u0000b', textDrafts('x', 1)), 'invalid-option');
      await kit.expectCode(
        kit.store.appendTurn('x'.repeat(256), textDrafts('x', 1)),
        'invalid-option',
      );
    });

    it('keeps threads apart', async () => {
      const a = kit.thread('iso-a');
      const b = kit.thread('iso-b');
      await kit.store.appendTurn(a, textDrafts('same-turn', 2));
      await kit.store.appendTurn(b, textDrafts('same-turn', 3));
      await kit.store.appendTurn(a, textDrafts('a2', 1));
      expect((await kit.store.getRows(a)).map((r) => [r.threadId, r.seq])).toEqual([
        [a, 1],
        [a, 2],
        [a, 3],
      ]);
      expect((await kit.store.getRows(b)).map((r) => r.seq)).toEqual([1, 2, 3]);
      expect((await kit.store.getRows(b)).every((r) => r.threadId === b)).toBe(true);
    });

    it('treats ids as exact strings (case, trailing spaces, unicode)', async () => {
      const base = kit.thread('Exact');
      const variants = [base, base.toLowerCase(), `${base} `, `${base}é`, `${base}e\u0301`];
      for (const v of variants) kit.created.add(v);
      for (const [i, v] of variants.entries())
        await kit.store.appendTurn(v, textDrafts(`T ${i} `, i + 1));
      for (const [i, v] of variants.entries()) {
        const rows = await kit.store.getRows(v);
        expect(rows.map((r) => [r.threadId, r.turnId])).toEqual(
          Array.from({ length: i + 1 }, () => [v, `T ${i} `]),
        );
      }
      await kit.store.appendTurn(base, textDrafts('t x', 1));
      await kit.store.appendTurn(base, textDrafts('T X', 1));
      expect((await kit.store.getRows(base)).map((r) => r.turnId)).toEqual(['T 0 ', 't x', 'T X']);
    });
  });
}

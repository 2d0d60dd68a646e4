// The conformance kit: getChunks and getRows pages
import type { ChunkRow } from '../../schema/chunk-row.js';
import { textDrafts } from './drafts.js';
import type { Kit } from './kit.js';

/** Declares the kit's tests of getChunks and getRows pages. */
export function describePagesSuite(kit: Kit): void {
  const { describe, it, expect } = kit.api;
  describe('getChunks', () => {
    it('pages backwards by keyset with total, oldestSeq and hasMore', async () => {
      const t = kit.thread('pages');
      for (let i = 0; i < 7; i++) await kit.store.appendTurn(t, textDrafts(`p${i}`, 3));
      const all = await kit.store.getRows(t);
      expect(all).toHaveLength(21);
      const tail = await kit.store.getChunks(t, { limit: 5 });
      expect(tail).toStrictEqual({
        chunks: all.slice(16),
        total: 21,
        oldestSeq: 17,
        hasMore: true,
      });
      const collected: ChunkRow[] = [...tail.chunks];
      let before = tail.oldestSeq;
      let pages = 1;
      while (before !== null) {
        const page = await kit.store.getChunks(t, { limit: 5, before });
        expect(page.total).toBe(21);
        if (page.chunks.length === 0) {
          expect(page).toStrictEqual({ chunks: [], total: 21, oldestSeq: null, hasMore: false });
          break;
        }
        expect(page.oldestSeq).toBe(page.chunks[0]?.seq);
        expect(page.hasMore).toBe((page.oldestSeq ?? 0) > 1);
        collected.unshift(...page.chunks);
        pages++;
        if (!page.hasMore) break;
        before = page.oldestSeq;
      }
      expect(pages).toBe(5);
      expect(collected).toStrictEqual(all);
      expect(await kit.store.getChunks(t, { limit: 1000, before: 3 })).toStrictEqual({
        chunks: all.slice(0, 2),
        total: 21,
        oldestSeq: 1,
        hasMore: false,
      });
      expect(await kit.store.getChunks(t, { limit: 3, before: 500 })).toStrictEqual({
        chunks: all.slice(18),
        total: 21,
        oldestSeq: 19,
        hasMore: true,
      });
      expect(
        await kit.store.getChunks(t, { limit: 3, before: Number.MAX_SAFE_INTEGER }),
      ).toStrictEqual(await kit.store.getChunks(t, { limit: 3 }));
      expect(await kit.store.getRows(t, { afterSeq: 19 })).toStrictEqual(all.slice(19));
      expect(await kit.store.getRows(t, { afterSeq: Number.MAX_SAFE_INTEGER })).toStrictEqual([]);
      expect(await kit.store.getChunks(t, { limit: 3, before: 1 })).toStrictEqual({
        chunks: [],
        total: 21,
        oldestSeq: null,
        hasMore: false,
      });
    });

    it('gives an empty page for an empty thread', async () => {
      const t = kit.thread('empty');
      await kit.store.createThread(t);
      expect(await kit.store.getChunks(t, { limit: 10 })).toStrictEqual({
        chunks: [],
        total: 0,
        oldestSeq: null,
        hasMore: false,
      });
      expect(await kit.store.getRows(t)).toEqual([]);
    });

    it('checks limit (1 to 1,000) and before', async () => {
      const t = kit.thread('limits');
      await kit.store.appendTurn(t, textDrafts('l', 1));
      for (const limit of [0, -1, 1001, 1.5, Number.NaN, '10' as unknown as number]) {
        const error = await kit.expectCode(kit.store.getChunks(t, { limit }), 'invalid-option');
        expect(error.option).toBe('limit');
      }
      await kit.expectCode(kit.store.getChunks(t, { limit: 10, before: -1 }), 'invalid-option');
      await kit.expectCode(kit.store.getChunks(t, { limit: 10, before: 1.5 }), 'invalid-option');
      expect((await kit.store.getChunks(t, { limit: 1000 })).chunks).toHaveLength(1);
    });
  });
}

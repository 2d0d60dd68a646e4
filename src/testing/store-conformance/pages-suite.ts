// The conformance kit: getChunks, getChunksAfter and getRows pages
import type { ChunkRow } from '../../schema/chunk-row.js';
import type { ForwardChunkPage } from '../../store/types.js';
import { textDrafts } from './drafts.js';
import type { Kit } from './kit.js';

/** Declares the kit's tests of getChunks, getChunksAfter and getRows pages. */
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
        // Every row lies below `before`, and the pages end: a store that answers the same page
        // again fails here rather than looping (a synchronous driver never lets a timeout fire).
        expect(page.chunks.at(-1)?.seq).toBeLessThanOrEqual(before - 1);
        collected.unshift(...page.chunks);
        pages++;
        expect(pages, 'pages of 5 rows to read 21 rows backwards').toBeLessThanOrEqual(5);
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

  /**
   * A forward page without its `threadStart`, checked first: a store may leave it out (a session
   * then does not see an expiry until it reads the thread again), and one that tells it tells
   * the thread's first row (`first`).
   */
  const unstarted = (
    page: ForwardChunkPage,
    first: ChunkRow | undefined,
  ): Omit<ForwardChunkPage, 'threadStart'> => {
    const { threadStart, ...rest } = page;
    if (threadStart !== undefined) {
      expect(threadStart).toStrictEqual({
        seq: first?.seq,
        turnId: first?.turnId,
        createdAt: first?.createdAt,
      });
    }
    return rest;
  };
  describe('getChunksAfter', () => {
    it('pages forwards by keyset with total, newestSeq and hasMore', async () => {
      const t = kit.thread('forward');
      for (let i = 0; i < 7; i++) await kit.store.appendTurn(t, textDrafts(`f${i}`, 3));
      const all = await kit.store.getRows(t);
      const collected: ChunkRow[] = [];
      let afterSeq = 0;
      let pages = 0;
      for (;;) {
        const page = await kit.store.getChunksAfter(t, { limit: 5, afterSeq });
        pages++;
        const expected = all.slice(afterSeq, afterSeq + 5);
        expect(unstarted(page, all[0])).toStrictEqual({
          chunks: expected,
          total: 21,
          newestSeq: expected.at(-1)?.seq ?? null,
          hasMore: afterSeq + 5 < 21,
        });
        collected.push(...page.chunks);
        if (!page.hasMore) break;
        expect(pages, 'pages of 5 rows to read 21 rows forwards').toBeLessThanOrEqual(4);
        afterSeq = page.newestSeq ?? afterSeq;
      }
      expect(pages).toBe(5);
      expect(collected).toStrictEqual(all);
      expect(unstarted(await kit.store.getChunksAfter(t, { limit: 1000 }), all[0])).toStrictEqual({
        chunks: all,
        total: 21,
        newestSeq: 21,
        hasMore: false,
      });
      for (const beyond of [21, 500, Number.MAX_SAFE_INTEGER]) {
        expect(
          unstarted(await kit.store.getChunksAfter(t, { limit: 3, afterSeq: beyond }), all[0]),
        ).toStrictEqual({
          chunks: [],
          total: 21,
          newestSeq: null,
          hasMore: false,
        });
      }
      // After a truncation the pages follow the thread as it is now.
      await kit.store.truncateAfter(t, 10);
      expect(
        unstarted(await kit.store.getChunksAfter(t, { limit: 5, afterSeq: 8 }), all[0]),
      ).toStrictEqual({
        chunks: all.slice(8, 10),
        total: 10,
        newestSeq: 10,
        hasMore: false,
      });
    });

    it('gives an empty page for an empty thread, and thread-not-found for a missing one', async () => {
      const t = kit.thread('forward-empty');
      await kit.expectCode(kit.store.getChunksAfter(t, { limit: 10 }), 'thread-not-found');
      await kit.store.createThread(t);
      expect(await kit.store.getChunksAfter(t, { limit: 10 })).toStrictEqual({
        chunks: [],
        total: 0,
        newestSeq: null,
        hasMore: false,
      });
    });

    it('checks limit (1 to 1,000) and afterSeq', async () => {
      const t = kit.thread('forward-limits');
      await kit.store.appendTurn(t, textDrafts('l', 1));
      for (const limit of [0, -1, 1001, 1.5, Number.NaN, '10' as unknown as number]) {
        const error = await kit.expectCode(
          kit.store.getChunksAfter(t, { limit }),
          'invalid-option',
        );
        expect(error.option).toBe('limit');
      }
      for (const afterSeq of [-1, 1.5, '2' as unknown as number]) {
        const error = await kit.expectCode(
          kit.store.getChunksAfter(t, { limit: 10, afterSeq }),
          'invalid-option',
        );
        expect(error.option).toBe('afterSeq');
      }
      const unknown = await kit.expectCode(
        kit.store.getChunksAfter(t, { limit: 10, before: 2 } as never),
        'invalid-option',
      );
      expect(unknown.option).toBe('before');
    });
  });
}

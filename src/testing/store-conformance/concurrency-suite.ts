// The conformance kit: concurrent writers (invariant 6)
import { textDrafts } from './drafts.js';
import type { Kit } from './kit.js';

/** Declares the kit's tests of concurrent writers (invariant 6). */
export function describeConcurrencySuite(kit: Kit): void {
  const { describe, it, expect } = kit.api;
  describe('concurrent writers', () => {
    it('allocate dense seqs and keep every turn whole, stored once', async () => {
      const t = kit.thread('concurrent');
      const stores = [
        kit.store,
        ...(await Promise.all(Array.from({ length: kit.writers - 1 }, kit.open))),
      ];
      const sizes = new Map<string, number>();
      const jobs: Array<Promise<unknown>> = [];
      for (const [w, s] of stores.entries()) {
        jobs.push(
          (async () => {
            for (let i = 0; i < kit.turnsPerWriter; i++) {
              const turnId = `w${w}-t${i}`;
              const size = 1 + ((w * 7 + i * 5) % 9);
              sizes.set(turnId, size);
              // Two concurrent appends of the same turn: a client retrying after a timeout.
              const [a, b] = await Promise.all([
                s.appendTurn(t, textDrafts(turnId, size)),
                stores[(w + 1) % stores.length]?.appendTurn(t, textDrafts(turnId, size)),
              ]);
              expect(b).toStrictEqual(a);
            }
          })(),
        );
      }
      await Promise.all(jobs);
      const rows = await kit.store.getRows(t);
      kit.expectDenseWholeTurns(rows, sizes);
      expect((await kit.store.getThread(t)).total).toBe(rows.length);
    });

    it('never mix rows of concurrent threads', async () => {
      const ids = Array.from({ length: kit.writers }, (_, i) => kit.thread(`mix-${i}`));
      const stores = [
        kit.store,
        ...(await Promise.all(Array.from({ length: kit.writers - 1 }, kit.open))),
      ];
      await Promise.all(
        stores.flatMap((s, w) =>
          ids.map(async (id) => {
            for (let i = 0; i < 3; i++) await s.appendTurn(id, textDrafts(`${id}-${w}-${i}`, 2));
          }),
        ),
      );
      for (const id of ids) {
        const rows = await kit.store.getRows(id);
        expect(rows).toHaveLength(kit.writers * 3 * 2);
        expect(rows.every((r) => r.threadId === id && r.turnId.startsWith(id))).toBe(true);
        expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
      }
    });
  });
}

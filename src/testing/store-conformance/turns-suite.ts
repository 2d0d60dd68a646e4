// The conformance kit: getTurn and hasTurn
import { sampleDrafts, textDrafts } from './drafts.js';
import type { Kit } from './kit.js';

/** Declares the kit's tests of getTurn and hasTurn. */
export function describeTurnsSuite(kit: Kit): void {
  const { describe, it, expect } = kit.api;
  describe('getTurn and hasTurn', () => {
    it('read one turn whole, in seq order, from among others, and only its thread', async () => {
      const t = kit.thread('turn');
      const other = kit.thread('turn-other');
      await kit.store.appendTurn(t, textDrafts('before', 3));
      const stored = await kit.store.appendTurn(t, sampleDrafts('wanted'));
      await kit.store.appendTurn(t, textDrafts('after', 2));
      await kit.store.appendTurn(other, textDrafts('wanted', 4));
      expect(await kit.store.getTurn(t, 'wanted')).toStrictEqual(stored);
      expect(await kit.store.getTurn(t, 'before')).toStrictEqual(
        (await kit.store.getRows(t)).slice(0, 3),
      );
      expect((await kit.store.getTurn(other, 'wanted'))?.map((r) => [r.threadId, r.seq])).toEqual(
        [1, 2, 3, 4].map((seq) => [other, seq]),
      );
      expect(await kit.store.hasTurn(t, 'wanted')).toBe(true);
      expect(await kit.store.hasTurn(other, 'after')).toBe(false);
    });

    it('answer null / false for a turn id not stored (ids are exact strings)', async () => {
      const t = kit.thread('turn-absent');
      await kit.store.appendTurn(t, textDrafts('Turn', 2));
      for (const id of ['turn', 'TURN', 'Turn ', 'missing']) {
        expect(await kit.store.getTurn(t, id)).toBeNull();
        expect(await kit.store.hasTurn(t, id)).toBe(false);
      }
      // A truncated turn is gone; stored again, it is found again.
      await kit.store.appendTurn(t, textDrafts('later', 1));
      await kit.store.truncateAfter(t, 2);
      expect(await kit.store.getTurn(t, 'later')).toBeNull();
      expect(await kit.store.hasTurn(t, 'later')).toBe(false);
      await kit.store.appendTurn(t, textDrafts('later', 1));
      expect((await kit.store.getTurn(t, 'later'))?.map((r) => r.seq)).toEqual([3]);
    });

    it('tell a missing thread apart: getTurn fails with thread-not-found, hasTurn says false', async () => {
      const t = kit.thread('turn-no-thread');
      const error = await kit.expectCode(kit.store.getTurn(t, 'x'), 'thread-not-found');
      expect(error.threadId).toBe(t);
      expect(await kit.store.hasTurn(t, 'x')).toBe(false);
      await kit.store.createThread(t);
      expect(await kit.store.getTurn(t, 'x')).toBeNull();
    });

    it('check the ids and options they are given', async () => {
      const t = kit.thread('turn-checks');
      await kit.store.appendTurn(t, textDrafts('x', 1));
      for (const bad of ['', 'a\u0000b', 'x'.repeat(256), 7 as unknown as string]) {
        const error = await kit.expectCode(kit.store.getTurn(t, bad), 'invalid-option');
        expect(error.option).toBe('turnId');
        const probe = await kit.expectCode(kit.store.hasTurn(t, bad), 'invalid-option');
        expect(probe.option).toBe('turnId');
      }
      const thread = await kit.expectCode(kit.store.hasTurn('', 'x'), 'invalid-option');
      expect(thread.option).toBe('threadId');
      const option = await kit.expectCode(
        kit.store.getTurn(t, 'x', { limit: 1 } as never),
        'invalid-option',
      );
      expect(option.option).toBe('limit');
    });
  });

  describe('findInterruptedTurns', () => {
    it('truncateAfter takes the status of the turns it cuts: a running turn cut is not found interrupted', async () => {
      const t = kit.thread('turn-cut');
      const user = (turnId: string) => [
        { turnId, step: 0, role: 'user' as const, type: 'text' as const, data: { text: 'hi' } },
        {
          turnId,
          step: 0,
          role: 'assistant' as const,
          type: 'text' as const,
          data: { text: 'yo' },
        },
      ];
      await kit.store.appendTurn(t, user('kept'));
      await kit.store.beginTurn(t, user('ended'));
      await kit.store.setTurnStatus(t, 'ended', 'failed');
      await kit.store.beginTurn(t, user('running'));
      expect(await kit.store.truncateAfter(t, 2)).toBe(4);
      expect(await kit.store.getTurnInfo(t, 'running')).toBeNull();
      expect(await kit.store.getTurnInfo(t, 'ended')).toBeNull();
      expect((await kit.store.listTurns(t)).map((turn) => turn.turnId)).toEqual([]);
      const interrupted = await kit.store.findInterruptedTurns({ limit: 1000 });
      expect(interrupted.filter((turn) => turn.threadId === t)).toEqual([]);
      // The cut turn's id starts anew, at the freed seqs.
      const again = await kit.store.beginTurn(t, user('running'));
      expect(again.created).toBe(true);
      expect(again.rows.map((row) => row.seq)).toEqual([3, 4]);
      expect(await kit.store.getTurnInfo(t, 'running')).toMatchObject({
        status: 'running',
        firstSeq: 3,
        nextSeq: 5,
      });
    });

    it("lists running turns of threads whose lease is missing or expired, not a live holder's", async () => {
      const live = kit.thread('interrupted-live');
      const none = kit.thread('interrupted-none');
      const released = kit.thread('interrupted-released');
      const ended = kit.thread('interrupted-ended');
      const user = (turnId: string) => [
        { turnId, step: 0, role: 'user' as const, type: 'text' as const, data: { text: 'hi' } },
      ];
      const holder = await kit.store.acquireLease(live, 'worker-1', { ttlMs: 3_600_000 });
      await kit.store.beginTurn(live, user('a'), { fence: holder.lease });
      await kit.store.beginTurn(none, user('b'));
      const gone = await kit.store.acquireLease(released, 'worker-2', { ttlMs: 3_600_000 });
      await kit.store.beginTurn(released, user('c'), { fence: gone.lease });
      await kit.store.releaseLease(released, gone.lease);
      await kit.store.beginTurn(ended, user('d'));
      await kit.store.setTurnStatus(ended, 'd', 'failed');
      const mine = new Set([live, none, released, ended]);
      const found = (await kit.store.findInterruptedTurns({ limit: 1000 })).filter((t) =>
        mine.has(t.threadId),
      );
      expect(found.map((t) => [t.threadId, t.turnId, t.status]).sort()).toEqual(
        [
          [none, 'b', 'running'],
          [released, 'c', 'running'],
        ].sort(),
      );
      for (const bad of [0, 1001, 1.5, '10']) {
        const error = await kit.expectCode(
          kit.store.findInterruptedTurns({ limit: bad as number }),
          'invalid-option',
        );
        expect(error.option).toBe('limit');
      }
    });
  });
}

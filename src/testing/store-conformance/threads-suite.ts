// The conformance kit: thread operations and close
import { textDrafts } from './drafts.js';
import type { Kit } from './kit.js';

/** Declares the kit's tests of thread operations and close. */
export function describeThreadsSuite(kit: Kit): void {
  const { describe, it, expect } = kit.api;
  describe('threads', () => {
    it('reading a thread that does not exist or was deleted is thread-not-found', async () => {
      const t = kit.thread('missing');
      for (const call of [
        () => kit.store.getChunks(t, { limit: 10 }),
        () => kit.store.getRows(t),
        () => kit.store.getThread(t),
        () => kit.store.truncateAfter(t, 0),
        () => kit.store.forkThread(t, { atSeq: 1 }),
      ]) {
        const error = await kit.expectCode(call(), 'thread-not-found');
        expect(error.threadId).toBe(t);
      }
      await kit.store.appendTurn(t, textDrafts('x', 2));
      expect(await kit.store.deleteThread(t)).toBe(true);
      expect(await kit.store.deleteThread(t)).toBe(false);
      await kit.expectCode(kit.store.getChunks(t, { limit: 10 }), 'thread-not-found');
      await kit.expectCode(kit.store.getRows(t), 'thread-not-found');
      const again = await kit.store.appendTurn(t, textDrafts('x', 1));
      expect(again.map((r) => r.seq)).toEqual([1]);
    });

    it('creates threads with metadata, and refuses a taken id', async () => {
      const t = kit.thread('create');
      const info = await kit.store.createThread(t, {
        metadata: { title: 'Hi', tags: ['a'], n: 1 },
      });
      expect(info).toMatchObject({
        id: t,
        total: 0,
        metadata: { title: 'Hi', tags: ['a'], n: 1 },
      });
      expect(await kit.store.getThread(t)).toStrictEqual(info);
      await kit.expectCode(kit.store.createThread(t), 'thread-exists');
      const generated = await kit.store.createThread();
      kit.created.add(generated.id);
      expect(generated.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(generated.metadata).toBeUndefined();
      await kit.expectCode(
        kit.store.createThread(kit.thread('badmeta'), {
          metadata: [1] as unknown as Record<string, never>,
        }),
        'invalid-option',
      );
    });

    it('lists threads by last activity, by keyset', async () => {
      const ids = [kit.thread('list-a'), kit.thread('list-b'), kit.thread('list-c')];
      const pause = () => new Promise((resolve) => setTimeout(resolve, 15));
      for (const id of ids) {
        await kit.store.appendTurn(id, textDrafts('1', 1));
        await pause();
      }
      await kit.store.appendTurn(ids[0] as string, textDrafts('2', 1));
      const listed: string[] = [];
      let before: string | undefined;
      for (let pages = 0; pages < 10_000; pages++) {
        const page = await kit.store.listThreads({ limit: 2, before });
        expect(page.threads.length).toBeLessThanOrEqual(2);
        listed.push(...page.threads.map((th) => th.id));
        if (!page.hasMore) {
          expect(page.nextBefore).toBeNull();
          break;
        }
        before = page.nextBefore ?? undefined;
      }
      expect(new Set(listed).size).toBe(listed.length);
      expect(listed.filter((id) => ids.includes(id))).toEqual([ids[0], ids[2], ids[1]]);
      const top = await kit.store.listThreads({ limit: 1000 });
      const times = top.threads.map((th) => th.updatedAt);
      expect(times).toEqual([...times].sort().reverse());
      await kit.expectCode(kit.store.listThreads({ limit: 0 }), 'invalid-option');
      await kit.expectCode(
        kit.store.listThreads({ limit: 5, before: 'nonsense' }),
        'invalid-option',
      );
    });

    it('truncates after a seq, and the next turn continues from there', async () => {
      const t = kit.thread('truncate');
      await kit.store.appendTurn(t, textDrafts('a', 3));
      await kit.store.appendTurn(t, textDrafts('b', 3));
      expect(await kit.store.truncateAfter(t, 10)).toBe(0);
      expect(await kit.store.truncateAfter(t, 3)).toBe(3);
      expect((await kit.store.getThread(t)).total).toBe(3);
      expect((await kit.store.getChunks(t, { limit: 10 })).total).toBe(3);
      const c = await kit.store.appendTurn(t, textDrafts('c', 2));
      expect(c.map((r) => r.seq)).toEqual([4, 5]);
      const b = await kit.store.appendTurn(t, textDrafts('b', 1));
      expect(b.map((r) => r.seq)).toEqual([6]);
      expect(await kit.store.truncateAfter(t, 0)).toBe(6);
      expect(await kit.store.getRows(t)).toEqual([]);
      await kit.expectCode(kit.store.truncateAfter(t, -1), 'invalid-option');
    });

    it('refuses a fork at the end of a turn that is still running, and allows it once ended', async () => {
      const t = kit.thread('fork-running');
      await kit.store.appendTurn(t, textDrafts('a', 2));
      await kit.store.beginTurn(t, textDrafts('b', 2));
      for (const atSeq of [4, 99]) {
        const error = await kit.expectCode(kit.store.forkThread(t, { atSeq }), 'invalid-option');
        expect(error.option).toBe('atSeq');
        expect(error.message.includes('still running; fork before it (2)')).toBe(true);
      }
      const before = await kit.store.forkThread(t, { atSeq: 2 });
      kit.created.add(before.id);
      expect(before.total).toBe(2);
      await kit.store.setTurnStatus(t, 'b', 'completed');
      const after = await kit.store.forkThread(t, { atSeq: 4 });
      kit.created.add(after.id);
      expect(after.total).toBe(4);
    });

    it('forks a thread at a seq into an independent thread', async () => {
      const t = kit.thread('fork-src');
      await kit.store.createThread(t, { metadata: { title: 'src' } });
      await kit.store.appendTurn(t, textDrafts('a', 2));
      await kit.store.appendTurn(t, textDrafts('b', 2));
      const source = await kit.store.getRows(t);
      const forkId = kit.thread('fork-dst');
      // Seq 3 is inside turn b (seqs 3 and 4): a fork there would cut the turn in two.
      const inside = await kit.expectCode(
        kit.store.forkThread(t, { atSeq: 3, newThreadId: forkId }),
        'invalid-option',
      );
      expect(inside.option).toBe('atSeq');
      expect(
        inside.message.includes('fork at a turn boundary: 2 (before it) or 4 (after it)'),
      ).toBe(true);
      const fork = await kit.store.forkThread(t, { atSeq: 2, newThreadId: forkId });
      expect(fork).toMatchObject({ id: forkId, total: 2, metadata: { title: 'src' } });
      const copied = await kit.store.getRows(forkId);
      expect(copied).toStrictEqual(source.slice(0, 2).map((r) => ({ ...r, threadId: forkId })));
      const more = await kit.store.appendTurn(forkId, textDrafts('c', 1));
      expect(more[0]?.seq).toBe(3);
      expect(await kit.store.getRows(t)).toStrictEqual(source);
      const empty = await kit.store.forkThread(t, { atSeq: 0, metadata: { title: 'empty' } });
      kit.created.add(empty.id);
      expect(empty).toMatchObject({ total: 0, metadata: { title: 'empty' } });
      const whole = await kit.store.forkThread(t, { atSeq: 99 });
      kit.created.add(whole.id);
      expect(whole.total).toBe(4);
      await kit.expectCode(
        kit.store.forkThread(t, { atSeq: 1, newThreadId: forkId }),
        'thread-exists',
      );
      await kit.expectCode(kit.store.forkThread(t, { atSeq: -1 }), 'invalid-option');
    });
  });

  describe('close', () => {
    it('refuses calls after close', async () => {
      const s = await kit.open();
      await s.close();
      await s.close();
      await kit.expectCode(
        (async () => s.getChunks(kit.thread('closed'), { limit: 1 }))(),
        'closed',
      );
    });
  });
}

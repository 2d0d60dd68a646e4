// Forks by reference meet the privacy features (issues 32 and 34): a fork of an encrypted thread
// reads its parent's rows with the parent's key; `eraseThread` of a thread whose forks read its
// rows is refused (`thread-has-forks`) before any key is destroyed, and goes through once the
// forks are erased; retention cuts a chain of forks, each sentinel sealed with its owner's key
// (notes/0121). On every dialect available.
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryKeyProvider, type ThreadKeyProvider } from '../../src/store/index.js';
import { rejected } from '../support/chunklog-error.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { DAY, qa, T0 } from './support/retention-turns.js';

const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

const available = await availableDialects();

describe.each(['sqlite', 'postgres', 'mysql'] as const)(
  'forks of encrypted threads on %s',
  (name) => {
    async function open() {
      const harness = createHarness(name);
      harnesses.push(harness);
      const keys = createMemoryKeyProvider();
      /** The threads whose keys the store asked for, in order. */
      const asked: string[] = [];
      const counting: ThreadKeyProvider = {
        getKey: (threadId, version) => {
          asked.push(threadId);
          return keys.getKey(threadId, version);
        },
        createKey: (threadId) => {
          asked.push(threadId);
          return keys.createKey(threadId);
        },
        destroyKey: (threadId, version) => keys.destroyKey(threadId, version),
      };
      const store = harness.openStore({
        encryption: { keys: counting },
        now: () => T0 + 10 * DAY,
      });
      await store.migrate();
      for (const [i, day] of [0, 1].entries()) {
        await store.appendTurn('parent', qa(`p${i}`, `parent question ${i}`), {
          createdAt: new Date(T0 + day * DAY),
        });
      }
      await store.forkThread('parent', { atSeq: 4, newThreadId: 'fork' });
      await store.appendTurn('fork', qa('f0', 'fork question'), { createdAt: new Date(T0) });
      return { store, keys, asked };
    }

    it.skipIf(!available.includes(name))(
      'a fork reads the parent rows with the parent key, its own with its own',
      async () => {
        const { store } = await open();
        const rows = await store.getRows('fork');
        expect(rows.map((r) => [r.seq, r.turnId, r.threadId])).toEqual([
          [1, 'p0', 'fork'],
          [2, 'p0', 'fork'],
          [3, 'p1', 'fork'],
          [4, 'p1', 'fork'],
          [5, 'f0', 'fork'],
          [6, 'f0', 'fork'],
        ]);
        expect(rows[0]?.data).toEqual({ text: 'parent question 0' });
        expect(rows[5]?.data).toEqual({ text: 'answer to fork question' });
        const page = await store.getChunks('fork', { limit: 3 });
        expect(page.chunks.map((r) => r.seq)).toEqual([4, 5, 6]);
        await store.close();
      },
    );

    it.skipIf(!available.includes(name))(
      'eraseThread of a parent is refused while a fork reads it, its key kept; then erases',
      async () => {
        const { store } = await open();
        const refused = await rejected(store.eraseThread('parent'));
        expect(refused.code).toBe('thread-has-forks');
        expect(refused.message).toContain('Erase the forks first');
        // Nothing was destroyed: the parent and the fork read as before.
        expect((await store.getRows('parent')).map((r) => r.data)).toContainEqual({
          text: 'parent question 1',
        });
        expect(await store.getRows('fork')).toHaveLength(6);
        expect(await store.eraseThread('fork')).toBe(true);
        expect(await store.eraseThread('parent')).toBe(true);
        expect((await rejected(store.getThread('parent'))).code).toBe('thread-not-found');
        await store.close();
      },
    );

    it.skipIf(!available.includes(name))(
      'eraseThread of a conversation is refused while a fork reads it, every version keeping its key; then erases all of them',
      async () => {
        const { store, keys } = await open();
        await store.addAlternative('parent', { turnId: 'p1', newThreadId: 'version' });
        await store.appendTurn('version', qa('v1', 'edited question'));
        await store.switchAlternative('parent', 'parent');
        const before = Object.keys(keys.export()).sort();
        expect(before).toEqual(['fork', 'parent', 'version']);
        const refused = await rejected(store.eraseThread('parent'));
        expect(refused.code).toBe('thread-has-forks');
        expect(Object.keys(keys.export()).sort()).toEqual(before);
        expect((await store.getRows('version')).map((r) => r.data)).toContainEqual({
          text: 'edited question',
        });
        expect(await store.eraseThread('fork')).toBe(true);
        expect(await store.eraseThread('parent')).toBe(true);
        expect(Object.keys(keys.export())).toEqual([]);
        expect((await rejected(store.getThread('version'))).code).toBe('thread-not-found');
        await store.close();
      },
    );

    it.skipIf(!available.includes(name))(
      'expire cuts a parent with forks and the forks, each with its own key, and leaves none whole',
      async () => {
        const { store, asked } = await open();
        await store.appendTurn('plain', qa('x0', 'old'), { createdAt: new Date(T0) });
        await store.appendTurn('plain', qa('x1', 'new'), { createdAt: new Date(T0 + 9 * DAY) });
        asked.length = 0;
        const result = await store.expire({ before: new Date(T0 + 5 * DAY) });
        // A key is fetched (under the thread's lock) only for a thread that lost turns.
        expect(new Set(asked)).toEqual(new Set(['plain', 'parent', 'fork']));
        expect(result).toEqual({ threads: 3, turns: 4, rows: 8, leftWhole: [] });
        // The parent's last removed row is the fork's point: one sentinel for both; the fork's
        // own turn has its own, sealed with its key.
        const rows = await store.getRows('fork');
        expect(rows.map((r) => [r.seq, r.turnId, r.threadId])).toEqual([
          [4, 'expired-4', 'fork'],
          [6, 'expired-6', 'fork'],
        ]);
        expect(rows.map((r) => (r.data as { kind?: string }).kind)).toEqual([
          'context-truncated',
          'context-truncated',
        ]);
        expect(JSON.stringify(await store.getMessages('fork'))).not.toContain('question');
        expect((await store.getRows('parent')).map((r) => r.turnId)).toEqual(['expired-4']);
        await store.close();
      },
    );
  },
);

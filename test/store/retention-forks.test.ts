// Retention through forks (notes/0121): `expire` cuts a thread with forks and the forks too, each
// row by its owner, owners before their forks; the row where a fork stops reading the cut rows
// becomes a sentinel too, so that nothing a fork shows goes without one saying so. Every thread
// whose path reads the rows cut loses its history states; a fork's `threadStart` is where its
// path starts, so a warm session on a fork reads again; `getAlternatives` hides a version whose
// first turn is gone unless it is the active one. On every dialect, in clear and encrypted.
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import { toModelMessages } from '../../src/model-messages/index.js';
import type { ChunkRow } from '../../src/schema/index.js';
import { type ChunkStore, createMemoryKeyProvider } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { DAY, qa, T0 } from './support/retention-turns.js';

const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

/** A row as `[seq, turn id, what it says]`: a sentinel by the turns it stands for. */
function shown(row: ChunkRow): [number, string, string | number] {
  const data = row.data as { text?: string; truncation?: { leftOutTurns: number } };
  return [row.seq, row.turnId, data.truncation?.leftOutTurns ?? data.text ?? ''];
}

/** Everything a thread shows, by every read: rows, pages both ways, history, messages. */
async function everything(store: ChunkStore, threadId: string): Promise<string> {
  return JSON.stringify([
    await store.getRows(threadId),
    await store.getChunks(threadId, { limit: 1000 }),
    await store.getChunksAfter(threadId, { limit: 1000 }),
    (await store.getHistory(threadId)).messages,
    await store.getMessages(threadId),
  ]);
}

const available = await availableDialects();
const cases = (['sqlite', 'postgres', 'mysql'] as const).flatMap((name) =>
  [false, true].map((encrypted) => ({ name, encrypted })),
);

describe.each(cases)(
  'expire through forks on $name (encrypted: $encrypted)',
  ({ name, encrypted }) => {
    async function open(options: { snapshotMinRows?: number } = {}) {
      const harness = createHarness(name);
      harnesses.push(harness);
      const store = harness.openStore({
        now: () => T0 + 10 * DAY,
        ...options,
        ...(encrypted ? { encryption: { keys: createMemoryKeyProvider() } } : {}),
      });
      await store.migrate();
      return store;
    }
    const at = (day: number) => ({ createdAt: new Date(T0 + day * DAY) });

    it.skipIf(!available.includes(name))(
      'cuts a thread with forks and its forks, a sentinel where each fork stops reading the cut rows; no read of any shows a removed turn, and warm sessions read again',
      async () => {
        const store = await open();
        for (let i = 0; i < 3; i++)
          await store.appendTurn('parent', qa(`p${i}`, `old question ${i}`), at(0));
        await store.forkThread('parent', { atSeq: 2, newThreadId: 'early' });
        await store.appendTurn('early', qa('e0', 'early fresh'), at(9));
        await store.forkThread('parent', { atSeq: 6, newThreadId: 'late' });
        await store.appendTurn('late', qa('l0', 'old late question'), at(0));
        await store.appendTurn('late', qa('l1', 'late fresh'), at(9));
        await store.appendTurn('parent', qa('p3', 'parent fresh'), at(9));
        const model = createScriptedModel([{ parts: [{ type: 'text', text: 'ok' }] }]);
        const input = { text: 'next', turnId: 'n' };
        const warm = {
          late: createAgentSession({ store, threadId: 'late', model }),
          early: createAgentSession({ store, threadId: 'early', model }),
        };
        expect(JSON.stringify(await warm.late.modelMessages(input))).toContain('old question 0');
        expect(JSON.stringify(await warm.early.modelMessages(input))).toContain('old question 0');

        const result = await store.expire({ before: new Date(T0 + 5 * DAY) });
        expect(result).toEqual({ threads: 2, turns: 4, rows: 8, leftWhole: [] });
        expect((await store.getRows('parent')).map(shown)).toEqual([
          [2, 'expired-2', 1],
          [6, 'expired-6', 2],
          [7, 'p3', 'parent fresh'],
          [8, 'p3', 'answer to parent fresh'],
        ]);
        expect((await store.getRows('early')).map(shown)).toEqual([
          [2, 'expired-2', 1],
          [3, 'e0', 'early fresh'],
          [4, 'e0', 'answer to early fresh'],
        ]);
        const late = await store.getRows('late');
        expect(late.map(shown)).toEqual([
          [2, 'expired-2', 1],
          [6, 'expired-6', 2],
          [8, 'expired-8', 1],
          [9, 'l1', 'late fresh'],
          [10, 'l1', 'answer to late fresh'],
        ]);
        expect(late[2]?.data).toMatchObject({
          kind: 'context-truncated',
          truncation: { firstKeptTurnId: 'l1', firstKeptSeq: 9, leftOutTurns: 1 },
        });
        // A fork point's sentinel names itself: what follows it depends on the path read.
        expect((await store.getRows('early'))[0]?.data).toMatchObject({
          truncation: { firstKeptTurnId: 'expired-2', leftOutTurns: 1 },
        });
        for (const threadId of ['parent', 'early', 'late']) {
          const all = await everything(store, threadId);
          expect(all).not.toContain('old question');
          expect(all).not.toContain('old late question');
        }
        // Each path starts at the newest sentinel it starts with.
        const start = async (threadId: string, afterSeq: number) =>
          (await store.getChunksAfter(threadId, { afterSeq, limit: 1 })).threadStart;
        expect(await start('late', 8)).toMatchObject({ seq: 8, turnId: 'expired-8' });
        expect(await start('late', 0)).toMatchObject({ seq: 8, turnId: 'expired-8' });
        expect(await start('early', 2)).toMatchObject({ seq: 2, turnId: 'expired-2' });
        expect(await start('parent', 6)).toMatchObject({ seq: 6, turnId: 'expired-6' });
        // Warm sessions send what sessions opened now send, without the removed turns.
        for (const threadId of ['late', 'early'] as const) {
          const fresh = createAgentSession({ store, threadId, model });
          const sent = JSON.stringify(await warm[threadId].modelMessages(input));
          expect(sent).toBe(JSON.stringify(await fresh.modelMessages(input)));
          expect(sent).not.toContain('old question');
          await fresh.close();
          await warm[threadId].close();
        }
        expect(toModelMessages(await store.getMessages('late')).map((m) => m.role)).toEqual([
          'user',
          'assistant',
        ]);
        // Nothing left to remove: a second expiry changes nothing, the sentinels included.
        const before = await store.getRows('late');
        expect(await store.expire({ before: new Date(T0 + 5 * DAY) })).toEqual({
          threads: 0,
          turns: 0,
          rows: 0,
          leftWhole: [],
        });
        expect(await store.getRows('late')).toEqual(before);
        await store.close();
      },
    );

    it.skipIf(!available.includes(name))(
      "an expiry of a fork's parent drops the fork's history states and moves its threadStart, though the path's first row stays the same",
      async () => {
        const store = await open({ snapshotMinRows: 2 });
        await store.appendTurn('g', qa('g0', 'root question'), at(0));
        await store.appendTurn('g', qa('g1', 'root question again'), at(0));
        await store.forkThread('g', { atSeq: 4, newThreadId: 'p' });
        await store.appendTurn('p', qa('p0', 'middle question'), at(2));
        await store.forkThread('p', { atSeq: 6, newThreadId: 'f' });
        await store.appendTurn('f', qa('f0', 'fork question'), at(9));
        await store.appendTurn('f', qa('f1', 'fork question again'), at(9));
        // The root's turns go; the middle one is too new yet.
        expect(await store.expire({ before: new Date(T0 + DAY) })).toMatchObject({
          threads: 1,
          turns: 2,
        });
        const start = async () =>
          (await store.getChunksAfter('f', { afterSeq: 8, limit: 1 })).threadStart;
        expect(await start()).toMatchObject({ seq: 4, turnId: 'expired-4' });
        const model = createScriptedModel([{ parts: [{ type: 'text', text: 'ok' }] }]);
        const input = { text: 'next', turnId: 'n' };
        const warm = createAgentSession({ store, threadId: 'f', model });
        expect(JSON.stringify(await warm.modelMessages(input))).toContain('middle question');
        // Its history state folds the middle turn: a read through it would show it again.
        expect(JSON.stringify((await store.getHistory('f')).messages)).toContain('middle question');

        expect(await store.expire({ before: new Date(T0 + 3 * DAY) })).toMatchObject({
          threads: 1,
          turns: 1,
          leftWhole: [],
        });
        expect((await store.getRows('f')).map(shown)).toEqual([
          [4, 'expired-4', 2],
          [6, 'expired-6', 1],
          [7, 'f0', 'fork question'],
          [8, 'f0', 'answer to fork question'],
          [9, 'f1', 'fork question again'],
          [10, 'f1', 'answer to fork question again'],
        ]);
        // The path's first row is the root's sentinel still; where it starts moved on.
        expect((await store.getChunksAfter('f', { limit: 1 })).chunks[0]?.turnId).toBe('expired-4');
        expect(await start()).toMatchObject({ seq: 6, turnId: 'expired-6' });
        expect(JSON.stringify((await store.getHistory('f')).messages)).not.toContain('middle');
        const fresh = createAgentSession({ store, threadId: 'f', model });
        const sent = JSON.stringify(await warm.modelMessages(input));
        expect(sent).toBe(JSON.stringify(await fresh.modelMessages(input)));
        expect(sent).not.toContain('middle question');
        await fresh.close();
        await warm.close();
        await store.close();
      },
    );

    it.skipIf(!available.includes(name))(
      'a warm session on a fork with no rows of its own yet reads again when an expiry of its parent stops before the fork point',
      async () => {
        const store = await open();
        await store.appendTurn('parent', qa('p0', 'old question'), at(0));
        await store.appendTurn('parent', qa('p1', 'fresh question'), at(9));
        await store.forkThread('parent', { atSeq: 4, newThreadId: 'f' });
        const model = createScriptedModel([{ parts: [{ type: 'text', text: 'ok' }] }]);
        const input = { text: 'next', turnId: 'n' };
        const warm = createAgentSession({ store, threadId: 'f', model });
        expect(JSON.stringify(await warm.modelMessages(input))).toContain('old question');
        expect(await store.expire({ before: new Date(T0 + 5 * DAY) })).toMatchObject({ turns: 1 });
        // The row the session folded last (the fork point) is still there, unchanged.
        expect((await store.getRows('f')).map(shown)).toEqual([
          [2, 'expired-2', 1],
          [3, 'p1', 'fresh question'],
          [4, 'p1', 'answer to fresh question'],
        ]);
        const fresh = createAgentSession({ store, threadId: 'f', model });
        const sent = JSON.stringify(await warm.modelMessages(input));
        expect(sent).toBe(JSON.stringify(await fresh.modelMessages(input)));
        expect(sent).not.toContain('old question');
        await fresh.close();
        await warm.close();
        await store.close();
      },
    );

    it.skipIf(!available.includes(name))(
      'getAlternatives hides a version whose first turn is gone unless it is the active one; versions lists it with no turn',
      async () => {
        const store = await open();
        await store.appendTurn('chat', qa('t1', 'one'), at(0));
        await store.appendTurn('chat', qa('t2', 'two'), at(9));
        await store.addAlternative('chat', { turnId: 't2', newThreadId: 'v' });
        await store.appendTurn('v', qa('t2b', 'two again'), at(0));
        await store.switchAlternative('chat', 'chat');
        const listed = async () => {
          const { branches, versions } = await store.getAlternatives('chat');
          return {
            branches: branches.map((b) => ({
              atSeq: b.atSeq,
              active: b.active,
              alternatives: b.alternatives.map((a) => [a.threadId, a.turnId]),
            })),
            versions: versions.map((v) => [v.threadId, v.turnId]),
          };
        };
        expect(await listed()).toEqual({
          branches: [
            {
              atSeq: 2,
              active: 0,
              alternatives: [
                ['chat', 't2'],
                ['v', 't2b'],
              ],
            },
          ],
          versions: [
            ['chat', 't1'],
            ['v', 't2b'],
          ],
        });
        expect(await store.expire({ before: new Date(T0 + 5 * DAY) })).toEqual({
          threads: 2,
          turns: 2,
          rows: 4,
          leftWhole: [],
        });
        expect((await store.getRows('v')).map(shown)).toEqual([
          [2, 'expired-2', 1],
          [4, 'expired-4', 1],
        ]);
        // The version's turn is gone: nothing to switch to at turn 2 from the conversation's path.
        expect(await listed()).toEqual({
          branches: [],
          versions: [
            ['chat', undefined],
            ['v', undefined],
          ],
        });
        // While it is the active one it stays listed, with no turn, so `active` names it.
        await store.switchAlternative('chat', 'v');
        expect(await listed()).toEqual({
          branches: [
            {
              atSeq: 2,
              active: 1,
              alternatives: [
                ['chat', 't2'],
                ['v', undefined],
              ],
            },
          ],
          versions: [
            ['chat', undefined],
            ['v', undefined],
          ],
        });
        await store.close();
      },
    );

    it.skipIf(!available.includes(name))(
      "a client's system turn named like a sentinel is no sentinel: a fork starting with one starts at the sentinel before it",
      async () => {
        const store = await open();
        for (let i = 0; i < 2; i++)
          await store.appendTurn('parent', qa(`p${i}`, `old question ${i}`), at(0));
        await store.forkThread('parent', { atSeq: 4, newThreadId: 'mine' });
        const notice = { kind: 'notice', text: 'a note of my own' } as const;
        await store.appendTurn(
          'mine',
          [{ turnId: 'expired-mine', step: 0, role: 'system', type: 'system', data: notice }],
          at(9),
        );
        await store.appendTurn('mine', qa('m0', 'fresh'), at(9));
        await store.expire({ before: new Date(T0 + 5 * DAY) });
        expect((await store.getRows('mine')).map(shown)).toEqual([
          [4, 'expired-4', 2],
          [5, 'expired-mine', 'a note of my own'],
          [6, 'm0', 'fresh'],
          [7, 'm0', 'answer to fresh'],
        ]);
        for (const afterSeq of [0, 4, 5, 6]) {
          const page = await store.getChunksAfter('mine', { afterSeq, limit: 1 });
          expect(page.threadStart).toMatchObject({ seq: 4, turnId: 'expired-4' });
        }
        await store.close();
      },
    );
  },
);

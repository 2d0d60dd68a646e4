// Retention (issue 34): `expire({ before })` removes whole old turns from a thread's start and
// leaves a `context-truncated` sentinel in their place, so the history read back and the model
// input start at the first turn kept; the removed turns' status rows go; usage totals stay; a
// running turn stops the run; a later expiry folds the earlier sentinel into its own. On every
// dialect, in clear and encrypted.
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import { toModelMessages } from '../../src/model-messages/index.js';
import type { ChunkRowDraft } from '../../src/schema/index.js';
import { createMemoryKeyProvider } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { availableDialects, createHarness, type DialectHarness } from './support/dialects.js';
import { DAY, qa, T0 } from './support/retention-turns.js';

const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});

const available = await availableDialects();
const cases = (['sqlite', 'postgres', 'mysql'] as const).flatMap((name) =>
  [false, true].map((encrypted) => ({ name, encrypted })),
);

describe.each(cases)('expire on $name (encrypted: $encrypted)', ({ name, encrypted }) => {
  it.skipIf(!available.includes(name))('removes old turns behind a sentinel', async () => {
    const harness = createHarness(name);
    harnesses.push(harness);
    let now = T0 + 10 * DAY;
    const store = harness.openStore({
      now: () => now,
      ...(encrypted ? { encryption: { keys: createMemoryKeyProvider() } } : {}),
    });
    await store.migrate();
    // The first turn runs (it has a status row, as a session's turns do); the others are appended.
    now = T0;
    const [question, answer] = qa('turn-0', 'q0') as [ChunkRowDraft, ChunkRowDraft];
    await store.beginTurn('t', [question]);
    await store.appendSteps('t', 'turn-0', [answer], {
      status: 'completed',
      usage: [{ step: 0, usage: { inputTokens: 10, outputTokens: 1 } }],
    });
    now = T0 + 10 * DAY;
    for (const [i, day] of [1, 5].entries()) {
      await store.appendTurn('t', qa(`turn-${i + 1}`, `q${i + 1}`), {
        createdAt: new Date(T0 + day * DAY),
        usage: [{ step: 0, usage: { inputTokens: 10 * (i + 2), outputTokens: 1 } }],
      });
    }
    expect((await store.listTurns('t')).map((turn) => turn.turnId)).toEqual(['turn-0']);
    await store.appendTurn('other', qa('x', 'fresh'), { createdAt: new Date(T0 + 9 * DAY) });
    const usage = await store.getThreadUsage('t');
    expect((await store.getChunksAfter('t', { limit: 1 })).threadStart).toMatchObject({
      seq: 1,
      turnId: 'turn-0',
    });
    // A session open on the thread, its history read: after the expiry it sends what a session
    // opened then sends.
    const model = createScriptedModel([{ parts: [{ type: 'text', text: 'ok' }] }]);
    const open = createAgentSession({ store, threadId: 't', model });
    const input = { text: 'next', turnId: 'n' };
    expect(JSON.stringify(await open.modelMessages(input))).toContain('q0');

    const result = await store.expire({ before: new Date(T0 + 2 * DAY) });
    expect(result).toEqual({ threads: 1, turns: 2, rows: 4, leftWhole: [] });
    const rows = await store.getRows('t');
    expect(rows.map((r) => [r.seq, r.type, r.turnId])).toEqual([
      [4, 'system', 'expired-4'],
      [5, 'text', 'turn-2'],
      [6, 'text', 'turn-2'],
    ]);
    expect(rows[0]?.data).toMatchObject({
      kind: 'context-truncated',
      truncation: { firstKeptTurnId: 'turn-2', firstKeptSeq: 5, leftOutTurns: 2 },
    });
    expect((await store.getChunksAfter('t', { afterSeq: 4, limit: 1 })).threadStart).toStrictEqual({
      seq: 4,
      turnId: 'expired-4',
      createdAt: rows[0]?.createdAt,
    });
    const messages = await store.getMessages('t');
    expect(JSON.stringify(toModelMessages(messages))).not.toContain('q0');
    const opened = createAgentSession({ store, threadId: 't', model });
    const warm = JSON.stringify(await open.modelMessages(input));
    expect(warm).toBe(JSON.stringify(await opened.modelMessages(input)));
    expect(warm).not.toContain('q0');
    await opened.close();
    expect(toModelMessages(messages).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(await store.getThreadUsage('t')).toEqual(usage);
    // The removed turns' status rows go with them.
    expect(await store.listTurns('t')).toEqual([]);
    const page = await store.getChunks('t', { limit: 50 });
    expect([page.chunks.length, page.oldestSeq, page.hasMore, page.total]).toEqual([
      3,
      4,
      false,
      6,
    ]);
    expect((await store.getRows('other')).length).toBe(2);
    // A fork inside the removed start would read nothing: refused, naming where one may go.
    const inside = await store.forkThread('t', { atSeq: 2 }).catch((e: unknown) => e);
    expect(ChunklogError.hasCode(inside, 'invalid-option')).toBe(true);
    expect((inside as ChunklogError).option).toBe('atSeq');
    expect((inside as ChunklogError).message).toContain('fork at 0 or at 4 or after');

    // A running turn stops the run; the next expiry folds the sentinel in.
    now = T0 + 6 * DAY;
    await store.beginTurn('t', qa('turn-3', 'q3').slice(0, 1));
    await store.appendTurn('t', qa('turn-4', 'q4'), { createdAt: new Date(T0 + 6 * DAY) });
    now = T0 + 20 * DAY;
    expect(await store.expire({ before: new Date(T0 + 8 * DAY), threadId: 't' })).toEqual({
      threads: 1,
      turns: 1,
      rows: 3,
      leftWhole: [],
    });
    const after = await store.getRows('t');
    expect(after.map((r) => r.turnId)).toEqual(['expired-6', 'turn-3', 'turn-4', 'turn-4']);
    // A second expiry is seen too (the sentinel moved on).
    const second = createAgentSession({ store, threadId: 't', model });
    expect(JSON.stringify(await open.modelMessages(input))).toBe(
      JSON.stringify(await second.modelMessages(input)),
    );
    await second.close();
    await open.close();
    expect(after[0]?.data).toMatchObject({
      truncation: { firstKeptTurnId: 'turn-3', firstKeptSeq: 7, leftOutTurns: 3 },
    });
    expect(await store.expire({ before: new Date(T0 + 8 * DAY) })).toEqual({
      threads: 0,
      turns: 0,
      rows: 0,
      leftWhole: [],
    });
    // A time without a zone would be read in the server's local time; a day that does not exist
    // would roll into the next month: both are refused, as appendTurn's createdAt refuses them.
    for (const before of ['yesterday', '2026-12-01T00:00:00', '2026-02-30T00:00:00Z']) {
      const error = await store.expire({ before }).catch((e: unknown) => e);
      expect(ChunklogError.hasCode(error, 'invalid-option')).toBe(true);
      expect((error as ChunklogError).option).toBe('before');
    }
    const noneOlder = { threads: 0, turns: 0, rows: 0, leftWhole: [] };
    expect(await store.expire({ before: new Date(T0).toISOString() })).toEqual(noneOlder);
    expect(await store.expire({ before: T0 })).toEqual(noneOlder);
    await store.close();
  });
  it.skipIf(!available.includes(name))(
    "a page that reaches the sentinel says hasMore: false, on the thread and on a fork of it, whether or not the store read the fork's row before",
    async () => {
      const harness = createHarness(name);
      harnesses.push(harness);
      const now = T0 + 10 * DAY;
      const options = {
        now: () => now,
        ...(encrypted ? { encryption: { keys: createMemoryKeyProvider() } } : {}),
      };
      const store = harness.openStore(options);
      await store.migrate();
      for (let i = 0; i < 3; i++) {
        await store.appendTurn('t', qa(`old-${i}`, `q${i}`), { createdAt: new Date(T0) });
      }
      await store.appendTurn('t', qa('new', 'fresh'), { createdAt: new Date(T0 + 9 * DAY) });
      await store.expire({ before: new Date(T0 + DAY) });
      const seqs = (await store.getRows('t')).map((r) => r.seq);
      expect(seqs).toEqual([6, 7, 8]);
      const page = (p: { chunks: readonly { seq: number }[]; hasMore: boolean }) => [
        p.chunks.map((r) => r.seq),
        p.hasMore,
      ];
      // A full page whose oldest row is the sentinel: nothing older.
      expect(page(await store.getChunks('t', { limit: 3 }))).toEqual([[6, 7, 8], false]);
      expect(page(await store.getChunks('t', { limit: 2 }))).toEqual([[7, 8], true]);
      expect(page(await store.getChunks('t', { limit: 1, before: 7 }))).toEqual([[6], false]);

      // A fork of it: its shared part asked of a store that never read the fork, then again.
      await store.forkThread('t', { atSeq: 8, newThreadId: 'f' });
      await store.appendTurn('f', qa('f1', 'on the fork'));
      const fresh = harness.openStore(options);
      for (const limit of [3, 50]) {
        for (let read = 0; read < 2; read++) {
          expect(page(await fresh.getChunks('f', { limit, before: 9 }))).toEqual([
            [6, 7, 8],
            false,
          ]);
        }
      }
      for (let read = 0; read < 2; read++) {
        expect(page(await fresh.getChunks('f', { limit: 2, before: 9 }))).toEqual([[7, 8], true]);
      }
      expect(page(await fresh.getChunks('f', { limit: 5 }))).toEqual([[6, 7, 8, 9, 10], false]);
      expect(page(await fresh.getChunks('f', { limit: 4 }))).toEqual([[7, 8, 9, 10], true]);
      await fresh.close();
      await store.close();
    },
  );
  it.skipIf(!available.includes(name))(
    "takes a client's turn named like a sentinel for a turn: a fresh one stops the run, a running one is not cut",
    async () => {
      const harness = createHarness(name);
      harnesses.push(harness);
      let now = T0 + 10 * DAY;
      const store = harness.openStore({
        now: () => now,
        ...(encrypted ? { encryption: { keys: createMemoryKeyProvider() } } : {}),
      });
      await store.migrate();
      const at = (day: number) => ({ createdAt: new Date(T0 + day * DAY) });
      // A fresh turn whose id starts like a sentinel's, between two old ones.
      await store.appendTurn('fresh', qa('turn-0', 'q0'), at(0));
      await store.appendTurn('fresh', qa('expired-mine', 'kept'), at(9));
      await store.appendTurn('fresh', qa('turn-2', 'q2'), at(1));
      // A running turn of one row whose id is exactly what a sentinel at its seq would be.
      await store.appendTurn('running', qa('turn-0', 'q0'), at(0));
      now = T0 + 9 * DAY;
      await store.beginTurn('running', qa('expired-3', 'running question').slice(0, 1));
      now = T0 + 10 * DAY;

      expect(await store.expire({ before: new Date(T0 + 2 * DAY) })).toEqual({
        threads: 2,
        turns: 2,
        rows: 4,
        leftWhole: [],
      });
      expect((await store.getRows('fresh')).map((r) => [r.seq, r.turnId])).toEqual([
        [2, 'expired-2'],
        [3, 'expired-mine'],
        [4, 'expired-mine'],
        [5, 'turn-2'],
        [6, 'turn-2'],
      ]);
      const running = await store.getRows('running');
      expect(running.map((r) => [r.seq, r.turnId, r.type])).toEqual([
        [2, 'expired-2', 'system'],
        [3, 'expired-3', 'text'],
      ]);
      expect(running[1]?.data).toEqual({ text: 'running question' });
      expect((await store.listTurns('running')).map((t) => [t.turnId, t.status])).toEqual([
        ['expired-3', 'running'],
      ]);
      await store.close();
    },
  );
});

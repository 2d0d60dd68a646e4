// One writer per thread across processes: the session's lease (two stores over one SQLite file
// stand for two processes), takeover with an injected store clock, fencing of the old holder,
// recovery of its interrupted turn, and a turn id sent again (also to a second instance with
// default options on PostgreSQL and MariaDB, where the lease is on by default).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeInterruptedTurns,
  createAgentSession,
  recoverInterruptedTurns,
} from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import { toModelMessages } from '../../src/model-messages/index.js';
import { createInProcessRelay } from '../../src/relay/index.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { availableDialects, createHarness } from '../store/support/dialects.js';
import { readFile, slowTool } from './fixtures.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function twoStores(clock: { now: number }): Promise<[ChunkStore, ChunkStore]> {
  const dir = mkdtempSync(join(tmpdir(), 'chunklog-lease-'));
  const file = join(dir, 'thread.db');
  const a = createChunkStore({ sqlite: file }, { now: () => clock.now });
  const b = createChunkStore({ sqlite: file }, { now: () => clock.now });
  await a.migrate();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => a.close());
  cleanups.push(() => b.close());
  return [a, b];
}

async function rejection(promise: Promise<unknown>): Promise<ChunklogError> {
  try {
    await promise;
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

/** Counts the calls of models that must not be called. */
let unexpectedCalls = 0;
afterEach(() => {
  expect(unexpectedCalls).toBe(0);
  unexpectedCalls = 0;
});

/** A model that must not be called: a call is counted (and fails the test). */
function neverCalled() {
  const model = createScriptedModel([{ parts: [{ type: 'text', text: 'SHOULD NOT RUN' }] }]);
  const doStream = model.doStream.bind(model);
  return Object.assign(Object.create(model) as typeof model, {
    doStream: (options: Parameters<typeof doStream>[0]) => {
      unexpectedCalls++;
      return doStream(options);
    },
  });
}

const HOUR = 3_600_000;

/** A worker that held `threadId`'s lease for an hour, began `turnId` and published its start on `relayKey`, then died. */
async function beginOnDeadWorker(
  store: ChunkStore,
  relay: ReturnType<typeof createInProcessRelay>,
  at: { threadId: string; relayKey: string; turnId: string },
): Promise<void> {
  const { threadId, relayKey, turnId } = at;
  const held = await store.acquireLease(threadId, 'worker', { ttlMs: HOUR });
  await store.beginTurn(
    threadId,
    [{ turnId, step: 0, role: 'user', type: 'text', data: { text: 'hello' } }],
    { fence: held.lease },
  );
  relay.publish(relayKey, { type: 'turn-start', turnId }, { id: `${turnId}:0`, turnId, index: 0 });
}

/**
 * A conversation `conv` whose regenerated first turn made alternative `alt`, where a worker began
 * turn q2 (published on the conversation's relay key, which every reader follows) and died; two
 * stores on one clock, the relay cleaned up after the test.
 */
async function deadTurnOnAlternative() {
  const clock = { now: 1_000_000 };
  const [storeA, storeB] = await twoStores(clock);
  const relay = createInProcessRelay();
  cleanups.push(() => relay.close());
  await storeA.appendTurn('conv', [
    { turnId: 'q1', step: 0, role: 'user', type: 'text', data: { text: 'first' } },
    { turnId: 'q1', step: 0, role: 'assistant', type: 'text', data: { text: 'one' } },
  ]);
  const alternative = await storeA.addAlternative('conv', { turnId: 'q1', newThreadId: 'alt' });
  await beginOnDeadWorker(storeA, relay, {
    threadId: alternative.id,
    relayKey: 'conv',
    turnId: 'q2',
  });
  return { clock, storeA, storeB, relay };
}

/** Session `a1`: its turn waits in the tool `slow` until released, then answers. */
function waitsInTool(
  store: ChunkStore,
  threadId: string,
  lease: { ttlMs: number; holder?: string },
) {
  const slow = slowTool();
  const session = createAgentSession({
    store,
    threadId,
    model: createScriptedModel([
      { parts: [{ type: 'tool-call', toolName: 'slow', input: { ms: 1 } }] },
      { parts: [{ type: 'text', text: 'A is done.' }] },
    ]),
    tools: { slow: slow.tool },
    idGenerator: () => 'a1',
    lease,
  });
  return { session, slow };
}

describe('the session lease', () => {
  it('is held by one session of two given the same holder name (two requests on one pod)', async () => {
    const clock = { now: 1_000_000 };
    const [storeA, storeB] = await twoStores(clock);
    const { session: a, slow } = waitsInTool(storeA, 'shared', { ttlMs: HOUR, holder: 'pod-1' });
    cleanups.push(() => a.close());
    const turnA = a.send('first');
    await slow.started;
    const b = createAgentSession({
      store: storeB,
      threadId: 'shared',
      model: neverCalled(),
      idGenerator: () => 'b1',
      lease: { ttlMs: HOUR, holder: 'pod-1', onBusy: 'error' },
    });
    cleanups.push(() => b.close());
    const refused = await rejection(b.send('second').result);
    expect(refused.code).toBe('thread-busy');
    expect(refused.message).toContain('pod-1#');
    slow.release('done');
    expect((await turnA.result).outcome).toBe('completed');
  });

  it('refuses a holder name longer than 246 characters', () => {
    const open = (holder: string) =>
      createAgentSession({
        store: createChunkStore({ sqlite: ':memory:' }),
        threadId: 'th',
        model: neverCalled(),
        lease: { holder },
      });
    expect(() => open('h'.repeat(246)).close()).not.toThrow();
    let thrown: unknown;
    try {
      open('h'.repeat(247));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'invalid-option', option: 'lease.holder' });
  });

  it('refuses a busy thread, takes an expired lease over, closes the dead turn, and fences the old holder', async () => {
    const clock = { now: 1_000_000 };
    const [storeA, storeB] = await twoStores(clock);
    const slow = slowTool();
    const a = createAgentSession({
      store: storeA,
      threadId: 'shared',
      model: createScriptedModel([
        {
          parts: [
            { type: 'text', text: 'Reading.' },
            { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } },
          ],
        },
        { parts: [{ type: 'tool-call', toolName: 'slow', input: { ms: 1 } }] },
        { parts: [{ type: 'text', text: 'never stored' }] },
      ]),
      tools: { read_file: readFile, slow: slow.tool },
      idGenerator: () => 'a1',
      durability: 'step',
      lease: { ttlMs: HOUR, holder: 'process-a' },
    });
    const turnA = a.send('first');
    await slow.started;
    // B while A's lease is live: thread-busy, the model not called, nothing stored.
    const busy = createAgentSession({
      store: storeB,
      threadId: 'shared',
      model: neverCalled(),
      idGenerator: () => 'b0',
      lease: { ttlMs: HOUR, holder: 'process-b', onBusy: 'error' },
    });
    const refused = await rejection(busy.send('second').result);
    expect(refused.code).toBe('thread-busy');
    expect(await storeB.hasTurn('shared', 'b0')).toBe(false);
    await busy.close();

    // A stalls past its lease (the store's clock jumps): B takes it over.
    clock.now += HOUR + 1;
    const b = createAgentSession({
      store: storeB,
      threadId: 'shared',
      model: createScriptedModel([{ parts: [{ type: 'text', text: 'B answers.' }] }]),
      idGenerator: () => 'b1',
      durability: 'step',
      lease: { ttlMs: HOUR, holder: 'process-b', onBusy: 'error' },
    });
    await b.send('second').rows;
    expect(await storeB.getTurnInfo('shared', 'a1')).toMatchObject({ status: 'interrupted' });
    expect(await storeB.getTurnInfo('shared', 'b1')).toMatchObject({ status: 'completed' });
    const before = await storeB.getRows('shared');

    // A comes back: its writes are refused, it stores nothing more.
    slow.release('late');
    const failed = await rejection(turnA.rows);
    expect(failed.code).toBe('lease-lost');
    const after = await storeB.getRows('shared');
    expect(after).toEqual(before);
    expect(after.map((r) => r.seq)).toEqual(after.map((_, i) => i + 1));
    // A's turn: its user message, its finished step 0, an error result for the call it never
    // answered, the interrupted marker; then B's turn, contiguous.
    const aRows = after.filter((r) => r.turnId === 'a1');
    expect(aRows[0]).toMatchObject({ role: 'user', data: { text: 'first' } });
    expect(aRows.at(-1)).toMatchObject({ type: 'system', data: { kind: 'interrupted' } });
    expect(after.findIndex((r) => r.turnId === 'b1')).toBe(aRows.length);
    // The next model input has no orphan call.
    const messages = toModelMessages(await storeB.getMessages('shared'));
    const calls = messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((p) => p.type === 'tool-call') : [],
    );
    const results = messages.flatMap((m) =>
      Array.isArray(m.content) ? m.content.filter((p) => p.type === 'tool-result') : [],
    );
    expect(results.map((r) => (r as { toolCallId: string }).toolCallId).sort()).toEqual(
      calls.map((c) => (c as { toolCallId: string }).toolCallId).sort(),
    );
    await a.close();
    await b.close();
  });

  it('waits for a live holder by default, and runs after it releases', async () => {
    const clock = { now: 5_000 };
    const [storeA, storeB] = await twoStores(clock);
    const { session: a, slow } = waitsInTool(storeA, 'w', { ttlMs: HOUR });
    const b = createAgentSession({
      store: storeB,
      threadId: 'w',
      model: createScriptedModel([{ parts: [{ type: 'text', text: 'B done.' }] }]),
      idGenerator: () => 'b1',
      lease: { ttlMs: HOUR },
    });
    const turnA = a.send('one');
    await slow.started;
    const turnB = b.send('two');
    slow.release('ok');
    await turnA.rows;
    await turnB.rows;
    const rows = await storeA.getRows('w');
    const order = rows.map((r) => r.turnId);
    expect(order.indexOf('b1')).toBe(order.lastIndexOf('a1') + 1);
    await a.close();
    await b.close();
  });

  it('with handoffMs, another process waiting for the lease gets it between two queued turns', async () => {
    const clock = { now: 5_000 };
    const [storeA, storeB] = await twoStores(clock);
    const slow = slowTool();
    let ids = 0;
    const a = createAgentSession({
      store: storeA,
      threadId: 'fair',
      model: createScriptedModel([
        { parts: [{ type: 'tool-call', toolName: 'slow', input: { ms: 1 } }] },
        { parts: [{ type: 'text', text: 'A1.' }] },
        { parts: [{ type: 'text', text: 'A2.' }] },
        { parts: [{ type: 'text', text: 'A3.' }] },
      ]),
      tools: { slow: slow.tool },
      idGenerator: () => `a${++ids}`,
      // Waiters look every 250 ms at most; 3 s leaves a wide margin on a busy machine (nothing
      // here asserts elapsed time: a late timer could only reorder the turns).
      lease: { ttlMs: HOUR, handoffMs: 3000 },
    });
    const b = createAgentSession({
      store: storeB,
      threadId: 'fair',
      model: createScriptedModel([{ parts: [{ type: 'text', text: 'B.' }] }]),
      idGenerator: () => 'b1',
      lease: { ttlMs: HOUR },
    });
    const queued = [a.send('one'), a.send('two'), a.send('three')];
    await slow.started;
    const turnB = b.send('other process');
    slow.release('ok');
    for (const turn of queued) await turn.rows;
    await turnB.rows;
    const order = [...new Set((await storeA.getRows('fair')).map((r) => r.turnId))];
    // Back to back (handoffMs 0), B would come last; handed off, it runs right after A's first.
    expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect(() =>
      createAgentSession({
        store: storeA,
        threadId: 'fair',
        model: neverCalled(),
        lease: { handoffMs: -1 },
      }),
    ).toThrow(expect.objectContaining({ code: 'invalid-option', option: 'lease.handoffMs' }));
    await a.close();
    await b.close();
  });

  it('a turn cancelled while it waits out handoffMs is dropped, the model not called', async () => {
    const clock = { now: 5_000 };
    const [store] = await twoStores(clock);
    const model = createScriptedModel([{ parts: [{ type: 'text', text: 'First.' }] }]);
    const session = createAgentSession({
      store,
      threadId: 'handoff-cancel',
      model,
      lease: { ttlMs: HOUR, handoffMs: 60_000 },
    });
    const first = session.send('one');
    const second = session.send('two');
    await first.rows;
    second.cancel();
    expect((await second.result).outcome).toBe('dropped');
    expect(model.prompts).toHaveLength(1);
    await session.close();
  });

  it('never runs a stored turn id again: returns the stored turn, or turn-exists', async () => {
    const clock = { now: 1 };
    const [store] = await twoStores(clock);
    const first = createAgentSession({
      store,
      threadId: 'r',
      model: createScriptedModel([{ parts: [{ type: 'text', text: 'Once.' }] }]),
    });
    const rows = await first.send({ text: 'hi', turnId: 'client-1' }).rows;
    await first.close();
    const retry = createAgentSession({ store, threadId: 'r', model: neverCalled() });
    const again = retry.send({ text: 'hi', turnId: 'client-1' });
    expect(await again.result).toMatchObject({ outcome: 'completed', rows });
    const strict = createAgentSession({
      store,
      threadId: 'r',
      model: neverCalled(),
      onExistingTurn: 'error',
    });
    expect((await rejection(strict.send({ text: 'hi', turnId: 'client-1' }).result)).code).toBe(
      'turn-exists',
    );
    expect((await store.getThread('r')).total).toBe(rows.length);
    await retry.close();
    await strict.close();
  });

  it('closes an interrupted turn by an explicit call', async () => {
    const clock = { now: 1 };
    const [store] = await twoStores(clock);
    await store.beginTurn('x', [
      { turnId: 'dead', step: 0, role: 'user', type: 'text', data: { text: 'q' } },
    ]);
    expect((await closeInterruptedTurns(store, 'x')).map((t) => t.turnId)).toEqual(['dead']);
    expect(await store.getTurnInfo('x', 'dead')).toMatchObject({ status: 'interrupted' });
    expect(await closeInterruptedTurns(store, 'x')).toEqual([]);
  });
});

const serverDialects = (await availableDialects()).filter((name) => name !== 'sqlite');

for (const name of ['postgres', 'mysql'] as const) {
  describe.skipIf(!serverDialects.includes(name))(`${name}, default options`, () => {
    it('a retried turn id sent to a second instance while the first runs it calls the model once', async () => {
      const harness = createHarness(name);
      cleanups.push(() => harness.dispose());
      const storeA = harness.openStore();
      const storeB = harness.openStore();
      await storeA.migrate();
      cleanups.push(() => storeA.close());
      cleanups.push(() => storeB.close());
      const slow = slowTool();
      // Two instances, each with the options a user writes first: no lease, no durability option.
      const a = createAgentSession({
        store: storeA,
        threadId: 'retried',
        model: createScriptedModel([
          { parts: [{ type: 'tool-call', toolName: 'slow', input: { ms: 1 } }] },
          { parts: [{ type: 'text', text: 'Answered once.' }] },
        ]),
        tools: { slow: slow.tool },
      });
      const b = createAgentSession({ store: storeB, threadId: 'retried', model: neverCalled() });
      cleanups.push(() => a.close());
      cleanups.push(() => b.close());
      const first = a.send({ text: 'hi', turnId: 'client-7' });
      await slow.started;
      // The client's POST times out and is retried; the load balancer picks the other instance.
      const retried = b.send({ text: 'hi', turnId: 'client-7' });
      slow.release('ok');
      const rows = await first.rows;
      expect(await retried.result).toMatchObject({ outcome: 'completed', rows });
      const stored = await storeB.getRows('retried');
      expect(stored.filter((row) => row.turnId === 'client-7')).toHaveLength(rows.length);
      expect(JSON.stringify(stored)).toContain('Answered once.');
    });
  });
}

describe('a turn whose process died, closed by the next holder', () => {
  it.each([
    ['step', 'stored running, closed by the next holder'],
    ['turn', 'stored whole at its end, so the store has none of it'],
  ] as const)(
    'is ended on the relay before the next turn starts there (durability %s: %s), its readers stop waiting',
    async (durability, _why) => {
      const clock = { now: 1_000_000 };
      const [storeA, storeB] = await twoStores(clock);
      const relay = createInProcessRelay();
      cleanups.push(() => relay.close());
      const seen: string[] = [];
      const reading = new AbortController();
      cleanups.push(() => reading.abort());
      void (async () => {
        for await (const read of relay.follow('shared', { signal: reading.signal })) {
          if (read.type === 'event') seen.push(`${read.meta.turnId} ${read.event.type}`);
        }
      })();
      const slow = slowTool();
      const a = createAgentSession({
        store: storeA,
        relay,
        threadId: 'shared',
        model: createScriptedModel([
          { parts: [{ type: 'tool-call', toolName: 'slow', input: { ms: 1 } }] },
        ]),
        tools: { slow: slow.tool },
        idGenerator: () => 'a1',
        durability,
        lease: { ttlMs: HOUR },
      });
      const turnA = a.send('first');
      await slow.started;
      expect(await relay.runningTurn('shared')).toBe('a1');
      expect((await storeA.getTurnInfo('shared', 'a1'))?.status ?? null).toBe(
        durability === 'step' ? 'running' : null,
      );
      // A's process is gone (it stalls past its lease): B takes the lease over.
      clock.now += HOUR + 1;
      const b = createAgentSession({
        store: storeB,
        relay,
        threadId: 'shared',
        model: createScriptedModel([{ parts: [{ type: 'text', text: 'B answers.' }] }]),
        idGenerator: () => 'b1',
        lease: { ttlMs: HOUR },
      });
      cleanups.push(() => b.close());
      await b.send('second').rows;
      await expect.poll(() => seen.includes('b1 turn-end')).toBe(true);
      const ends = seen.filter((s) => s.endsWith('turn-end') || s.endsWith('turn-start'));
      expect(ends).toEqual(['a1 turn-start', 'a1 turn-end', 'b1 turn-start', 'b1 turn-end']);
      expect(await relay.runningTurn('shared')).toBeUndefined();
      slow.release('late');
      expect((await rejection(turnA.rows)).code).toBe('lease-lost');
      await a.close();
    },
  );

  it('is ended on the relay by a sweep given it', async () => {
    const clock = { now: 1_000_000 };
    const [storeA, storeB] = await twoStores(clock);
    const relay = createInProcessRelay();
    cleanups.push(() => relay.close());
    // A worker began turn d1 and published two of its events, then died.
    await beginOnDeadWorker(storeA, relay, { threadId: 'gone', relayKey: 'gone', turnId: 'd1' });
    relay.publish('gone', { type: 'text-start', id: 'x' }, { id: 'd1:1', turnId: 'd1', index: 1 });
    expect(await relay.runningTurn('gone')).toBe('d1');
    clock.now += 2 * HOUR;
    await expect(recoverInterruptedTurns(storeB, { relay: {} as never })).rejects.toMatchObject({
      code: 'invalid-option',
      option: 'relay',
    });
    const swept = await recoverInterruptedTurns(storeB, { relay });
    expect(swept).toEqual([{ threadId: 'gone', outcome: 'closed', turnIds: ['d1'] }]);
    expect(await relay.runningTurn('gone')).toBeUndefined();
    expect(relay.replay('gone', 'd1:1').events.map((e) => [e.meta.id, e.event.type])).toEqual([
      ['d1:2', 'turn-end'],
    ]);
  });

  it('is continued by a sweep through its conversation’s session when it ran on the active alternative', async () => {
    const { clock, storeB, relay } = await deadTurnOnAlternative();
    clock.now += 2 * HOUR;
    const asked: string[] = [];
    const swept = await recoverInterruptedTurns(storeB, {
      relay,
      continueWith: (threadId) => {
        asked.push(threadId);
        return createAgentSession({
          store: storeB,
          threadId,
          relay,
          model: createScriptedModel([{ parts: [{ type: 'text', text: 'two' }] }]),
          lease: { ttlMs: HOUR },
        });
      },
    });
    // The app's sessions serve conversations: the sweep asks for the conversation's.
    expect(asked).toEqual(['conv']);
    expect(swept).toEqual([{ threadId: 'alt', outcome: 'continued', turnIds: ['q2'] }]);
    expect(await storeB.getTurnInfo('alt', 'q2')).toMatchObject({ status: 'completed' });
    // Its readers follow the conversation's key: the continuation reached them there.
    expect(await relay.runningTurn('conv')).toBeUndefined();
    const followed = relay.replay('conv', 'q2:0').events.map((e) => e.event.type);
    expect(followed).toContain('text-delta');
    expect(followed.at(-1)).toBe('turn-end');
  });

  it('is closed by a sweep given continueWith when it ran on an alternative no longer active', async () => {
    const { clock, storeA, storeB } = await deadTurnOnAlternative();
    // The user switched back to the first version while the turn's worker was dead.
    await storeA.switchAlternative('conv', 'conv');
    clock.now += 2 * HOUR;
    const swept = await recoverInterruptedTurns(storeB, {
      continueWith: () => {
        throw new Error('no session continues a path nobody reads');
      },
    });
    expect(swept).toEqual([{ threadId: 'alt', outcome: 'closed', turnIds: ['q2'] }]);
    expect(await storeB.getTurnInfo('alt', 'q2')).toMatchObject({ status: 'interrupted' });
  });

  it('is ended by a sweep on the relay key of its conversation when it ran on an alternative', async () => {
    const { clock, storeB, relay } = await deadTurnOnAlternative();
    clock.now += 2 * HOUR;
    const swept = await recoverInterruptedTurns(storeB, { relay });
    expect(swept).toEqual([{ threadId: 'alt', outcome: 'closed', turnIds: ['q2'] }]);
    expect(await relay.runningTurn('conv')).toBeUndefined();
    expect(relay.replay('conv', 'q2:0').events.map((e) => [e.meta.id, e.event.type])).toEqual([
      ['q2:1', 'turn-end'],
    ]);
  });
});

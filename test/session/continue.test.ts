// The `continue` recovery policy: a turn left `running` by a dead writer is picked up under the
// same turn id — unanswered calls re-run only for tools marked safe (else an error result), a
// `resumed` system chunk marks the point, the model continues from the stored steps, and its
// steps are appended to the turn. On a SQLite file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentSession,
  createAgentSession,
  type EventMeta,
} from '../../src/entries/session.js';
import { ChunklogError } from '../../src/errors/index.js';
import { createInProcessRelay, type Relay } from '../../src/relay/index.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { readFile, slowTool } from './fixtures.js';
import { storeInterruptedTurn } from './support/interrupted-turn.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HOUR = 3_600_000;

async function twoStores(clock: { now: number }): Promise<[ChunkStore, ChunkStore]> {
  const dir = mkdtempSync(join(tmpdir(), 'chunklog-continue-'));
  const file = join(dir, 'thread.db');
  const a = createChunkStore({ sqlite: file }, { now: () => clock.now });
  const b = createChunkStore({ sqlite: file }, { now: () => clock.now });
  await a.migrate();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => a.close());
  cleanups.push(() => b.close());
  return [a, b];
}

/** A tool that counts its runs. */
function counted(name: string) {
  const runs: unknown[] = [];
  return {
    runs,
    tool: tool({
      description: name,
      inputSchema: z.object({ path: z.string(), text: z.string().optional() }),
      execute: async (input) => {
        runs.push(input);
        return `${name} ran on ${input.path}`;
      },
    }),
  };
}

const dense = (rows: readonly ChunkRow[]) =>
  expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));

describe("recovery: 'continue'", () => {
  it('re-runs an unanswered call only for a tool marked safe, marks the resume point, and continues the model from the stored steps', async () => {
    const [store] = await twoStores({ now: 1_000_000 });
    await storeInterruptedTurn(store, 't');
    const read = counted('read_file');
    const write = counted('write_file');
    const model = createScriptedModel([{ parts: [{ type: 'text', text: 'Copied.' }] }]);
    const inner = createInProcessRelay();
    const relayed: string[] = [];
    const publish = (threadId: string, event: ChunkEvent, meta: EventMeta) => {
      relayed.push(meta.id);
      inner.publish(threadId, event, meta);
    };
    const relay = new Proxy(inner, {
      get: (target, key) => {
        if (key === 'publish') return publish;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as Relay;
    const session = createAgentSession({
      store,
      threadId: 't',
      model,
      tools: { read_file: read.tool, write_file: write.tool },
      durability: 'step',
      recovery: { policy: 'continue', rerunTools: ['read_file'] },
      relay,
    });
    const events: Array<{ event: ChunkEvent; id: string }> = [];
    session.subscribe((event, meta) => events.push({ event, id: meta.id }));
    const [result, ...more] = await session.resumeInterruptedTurns();
    expect(more).toEqual([]);
    expect(result).toMatchObject({ turnId: 'turn-1', outcome: 'completed' });
    // The safe call ran again; the other did not.
    expect(read.runs).toEqual([{ path: 'a.ts' }]);
    expect(write.runs).toEqual([]);

    const rows = await store.getRows('t');
    dense(rows);
    expect(result?.rows.map((r) => r.seq)).toEqual(rows.map((r) => r.seq));
    expect(rows.map((r) => [r.step, r.type, r.role])).toEqual([
      [0, 'text', 'user'],
      [0, 'text', 'assistant'],
      [0, 'tool_call', 'assistant'],
      [0, 'tool_call', 'assistant'],
      [0, 'tool_result', 'tool'],
      [0, 'tool_result', 'tool'],
      [0, 'system', 'assistant'],
      [1, 'text', 'assistant'],
    ]);
    expect(rows[4]?.data).toEqual({
      callId: 'c1',
      name: 'read_file',
      result: 'read_file ran on a.ts',
    });
    expect(rows[5]?.data).toMatchObject({ callId: 'c2', isError: true });
    expect(rows[6]?.data).toMatchObject({ kind: 'resumed' });
    expect(rows[7]?.data).toMatchObject({ text: 'Copied.' });
    expect(await store.getTurnInfo('t', 'turn-1')).toMatchObject({ status: 'completed' });

    // The model saw the stored steps, both calls answered, and not the UI-only marker.
    const prompt = model.prompts[0] ?? [];
    expect(prompt.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(JSON.stringify(prompt)).not.toContain('resumed');
    const toolMessage = prompt[2] as { content: Array<{ toolCallId: string }> };
    expect(toolMessage.content.map((p) => p.toolCallId).sort()).toEqual(['c1', 'c2']);

    // Subscribers got the continued turn like a turn: start, the recovery rows, the step, end.
    const types = events.map((e) => e.event.type);
    expect(types[0]).toBe('turn-start');
    expect(types.at(-1)).toBe('turn-end');
    expect(types.slice(1, 4)).toEqual(['tool-result', 'tool-result', 'system']);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events.every((e) => e.id.startsWith('turn-1:'))).toBe(true);
    // The relay got every one of them, in order.
    expect(relayed).toEqual(events.map((e) => e.id));

    // Nothing left to continue.
    expect(await session.resumeInterruptedTurns()).toEqual([]);
    await session.close();
  });

  it('with a relay, numbers the continued turn after the last event the relay holds of it (from 0 when it cannot say)', async () => {
    const [store] = await twoStores({ now: 1_000_000 });
    const run = async (lastIndex: () => Promise<number | undefined>, threadId: string) => {
      await storeInterruptedTurn(store, threadId);
      const inner = createInProcessRelay();
      const relay = new Proxy(inner, {
        get: (target, key) => {
          if (key === 'lastIndex') return lastIndex;
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) as Relay;
      const errors: unknown[] = [];
      const session = createAgentSession({
        store,
        threadId,
        model: createScriptedModel([{ parts: [{ type: 'text', text: 'Copied.' }] }]),
        durability: 'step',
        recovery: 'continue',
        relay,
        onError: (error) => errors.push(error),
      });
      const ids: number[] = [];
      const wire: string[] = [];
      session.subscribe((_event, meta) => {
        ids.push(meta.index);
        wire.push(meta.id);
      });
      const [result] = await session.resumeInterruptedTurns();
      expect(result?.outcome).toBe('completed');
      // The ids carry the continuation's epoch: the seq of the `resumed` row it stored.
      const resumed = result?.rows.find((r) => r.type === 'system');
      expect(wire).toEqual(ids.map((index) => `turn-1:r${resumed?.seq}.${index}`));
      // Readers that joined after the takeover resume from the continued turn's own ids.
      const replay = session.replay(wire[1]);
      await session.close();
      return { ids, errors, replay };
    };
    // The dead process published events 0…11 of the turn.
    const on = await run(async () => 11, 'numbered');
    expect(on.ids).toEqual(on.ids.map((_, i) => 12 + i));
    expect(on.errors).toEqual([]);
    expect(on.replay.gap).toBe(false);
    expect(on.replay.events.map((e) => e.meta.index)).toEqual(on.ids.slice(2));
    // A relay that cannot be asked: from 0 (readers see a gap), and the app is told.
    const failing = await run(async () => {
      throw new ChunklogError('relay-unavailable', 'away');
    }, 'unnumbered');
    expect(failing.ids).toEqual(failing.ids.map((_, i) => i));
    expect(failing.errors).toHaveLength(1);
  });

  it('with a rerun predicate, a tool that throws gets an error result and the turn goes on', async () => {
    const [store] = await twoStores({ now: 1_000_000 });
    await storeInterruptedTurn(store, 't');
    const failing = tool({
      description: 'fails',
      inputSchema: z.object({ path: z.string() }),
      execute: async (): Promise<string> => {
        throw new Error('disk gone');
      },
    });
    const session = createAgentSession({
      store,
      threadId: 't',
      model: createScriptedModel([{ parts: [{ type: 'text', text: 'Sorry.' }] }]),
      tools: { read_file: failing, write_file: failing },
      recovery: { policy: 'continue', rerunTools: (call) => call.toolName === 'read_file' },
    });
    await session.resumeInterruptedTurns();
    const results = (await store.getRows('t')).filter((r) => r.type === 'tool_result');
    expect(results.map((r) => r.data)).toEqual([
      { callId: 'c1', name: 'read_file', result: 'disk gone', isError: true },
      expect.objectContaining({ callId: 'c2', isError: true }),
    ]);
    await session.close();
  });

  it('with a lease, the next send continues the dead holder’s turn first, and fences the old holder', async () => {
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
    // Step 0 is written when step 1 starts: wait until it landed.
    while (((await storeA.getTurn('shared', 'a1')) ?? []).length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const storedBefore = (await storeA.getTurn('shared', 'a1')) ?? [];

    clock.now += HOUR + 1;
    const modelB = createScriptedModel([
      // a1's remaining step (the slow call's step was never stored: the model runs it again)
      { parts: [{ type: 'text', text: 'a.ts exports f.' }] },
      { parts: [{ type: 'text', text: 'B answers.' }] },
    ]);
    const b = createAgentSession({
      store: storeB,
      threadId: 'shared',
      model: modelB,
      tools: { read_file: readFile, slow: slow.tool },
      idGenerator: () => 'b1',
      durability: 'step',
      lease: { ttlMs: HOUR, holder: 'process-b', onBusy: 'error' },
      recovery: 'continue',
    });
    const seen: string[] = [];
    b.subscribe((event, meta) => {
      if (event.type === 'turn-start') seen.push(meta.turnId);
    });
    await b.send('second').rows;
    expect(seen).toEqual(['a1', 'b1']);
    expect(await storeB.getTurnInfo('shared', 'a1')).toMatchObject({ status: 'completed' });
    expect(await storeB.getTurnInfo('shared', 'b1')).toMatchObject({ status: 'completed' });
    // a1's continuation saw its stored step (the call and its result), b1 saw all of a1.
    expect(modelB.prompts[0]?.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(JSON.stringify(modelB.prompts[1])).toContain('a.ts exports f.');

    const rows = await storeB.getRows('shared');
    dense(rows);
    const a1 = rows.filter((r) => r.turnId === 'a1');
    expect(a1.slice(0, storedBefore.length)).toEqual(storedBefore);
    expect(a1[storedBefore.length]).toMatchObject({ type: 'system', data: { kind: 'resumed' } });
    expect(a1.at(-1)).toMatchObject({ step: 1, type: 'text', data: { text: 'a.ts exports f.' } });
    expect(rows.findIndex((r) => r.turnId === 'b1')).toBe(a1.length);

    // A comes back: its writes are refused.
    slow.release('late');
    await expect(turnA.rows).rejects.toSatisfy((e) => ChunklogError.hasCode(e, 'lease-lost'));
    expect(await storeB.getRows('shared')).toEqual(rows);
    await a.close();
    await b.close();
  });

  it.each([
    {
      stop: 'a cancel',
      press: (session: AgentSession) => expect(session.cancel('Stop pressed')).toBe(true),
      // The send the takeover was admitted for runs after the continued turn.
      send: 'completed',
      b1: { status: 'completed' },
    },
    {
      stop: 'close()',
      press: (session: AgentSession) => void session.close(),
      // Closing drops the send that was waiting for its admission: nothing of it is stored.
      send: 'dropped',
      b1: null,
    },
  ])(
    '$stop while a takeover continues a dead turn cancels that turn (the running one)',
    async ({ press, send, b1 }) => {
      const clock = { now: 1_000_000 };
      const [storeA, storeB] = await twoStores(clock);
      const dead = await storeA.acquireLease('t', 'process-a', { ttlMs: HOUR });
      await storeA.beginTurn(
        't',
        [{ turnId: 'a1', step: 0, role: 'user', type: 'text', data: { text: 'first' } }],
        { fence: dead.lease },
      );
      clock.now += HOUR + 1;
      const slow = slowTool();
      const session = createAgentSession({
        store: storeB,
        threadId: 't',
        model: createScriptedModel([
          { parts: [{ type: 'tool-call', toolName: 'slow', input: { ms: 1 } }] },
          { parts: [{ type: 'text', text: 'B answers.' }] },
        ]),
        tools: { slow: slow.tool },
        idGenerator: () => 'b1',
        durability: 'step',
        lease: { ttlMs: HOUR, holder: 'process-b' },
        recovery: 'continue',
      });
      cleanups.push(() => session.close());
      const sent = session.send('second');
      await slow.started;
      // The continued turn runs inside b1's admission: it is the running turn, and the stop's.
      expect(session.runningTurnId).toBe('a1');
      press(session);
      slow.release('too late');
      expect((await sent.result).outcome).toBe(send);
      expect(await storeB.getTurnInfo('t', 'a1')).toMatchObject({ status: 'cancelled' });
      const stored = await storeB.getTurnInfo('t', 'b1');
      expect(stored).toEqual(b1 === null ? null : expect.objectContaining(b1));
    },
  );

  it('a turn whose stored steps already ended it is completed without calling the model', async () => {
    const [store] = await twoStores({ now: 1_000_000 });
    await store.beginTurn('t', [
      { turnId: 'turn-1', step: 0, role: 'user', type: 'text', data: { text: 'Hi' } },
    ]);
    await store.appendSteps('t', 'turn-1', [
      { turnId: 'turn-1', step: 0, role: 'assistant', type: 'text', data: { text: 'Hello!' } },
    ]);
    const model = createScriptedModel([{ parts: [{ type: 'text', text: 'SHOULD NOT RUN' }] }]);
    const session = createAgentSession({ store, threadId: 't', model, recovery: 'continue' });
    const [result] = await session.resumeInterruptedTurns();
    expect(model.callCount).toBe(0);
    expect(result?.outcome).toBe('completed');
    expect((await store.getRows('t')).map((r) => r.type)).toEqual(['text', 'text', 'system']);
    expect(await store.getTurnInfo('t', 'turn-1')).toMatchObject({ status: 'completed' });
    await session.close();
  });

  it('validates the option', async () => {
    const [store] = await twoStores({ now: 1 });
    const model = createScriptedModel([{ parts: [{ type: 'text', text: 'x' }] }]);
    for (const [recovery, option] of [
      ['resume', 'recovery'],
      [{ policy: 'again' }, 'recovery.policy'],
      [{ policy: 'continue', rerunTools: 'read_file' }, 'recovery.rerunTools'],
      [{ policy: 'continue', rerunTools: [''] }, 'recovery.rerunTools'],
      [{ policy: 'continue', safe: true }, 'recovery.safe'],
    ] as const) {
      let caught: unknown;
      try {
        createAgentSession({ store, threadId: 't', model, recovery: recovery as never });
      } catch (error) {
        caught = error;
      }
      expect(ChunklogError.hasCode(caught, 'invalid-option'), JSON.stringify(recovery)).toBe(true);
      expect((caught as ChunklogError).option).toBe(option);
    }
    // A store without the methods recovery needs is refused whatever the policy (the session's
    // store is a Pick of ChunkStore), naming what is missing.
    const bare = { appendTurn: store.appendTurn };
    expect(() =>
      createAgentSession({ store: bare as never, threadId: 't', model, recovery: 'continue' }),
    ).toThrow(/listTurns/);
  });
});

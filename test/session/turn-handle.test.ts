// A turn handle keeps its turn's events only while an iterator may still read them: every
// iterator started before the turn settled gets every event, and once the turn settled and
// those iterators finished, the handle holds none (a handle kept for its `rows` or `result`
// does not keep the turn's events).
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, type TurnHandle } from '../../src/entries/session.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';
import { toUIMessageStream } from '../../src/ui-messages/index.js';
import { gate, openSqliteStore, recordEvents, sequentialIds } from './support.js';

/** What a handle holds (an internal of the session's handle, not of the public type). */
const retained = (turn: TurnHandle): number =>
  (turn as TurnHandle & { readonly retainedEvents: number }).retainedEvents;

/** A long turn: 3,000 text deltas in one step. */
const longStep = {
  parts: [{ type: 'text' as const, text: Array.from({ length: 3000 }, (_, i) => `word${i} `) }],
};

describe('a turn handle’s event buffer', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  async function setup(script: Parameters<typeof createScriptedModel>[0]) {
    const { store, dispose } = await openSqliteStore();
    const session = createAgentSession({
      store,
      threadId: 'h',
      model: createScriptedModel(script),
      idGenerator: sequentialIds(),
    });
    disposers.push(async () => {
      await session.close();
      await dispose();
    });
    return session;
  }

  it('is dropped once the turn settled and its iterator finished; a handle never iterated keeps nothing', async () => {
    const session = await setup([longStep, longStep]);
    const recorded = recordEvents(session);
    const iterated = session.send('one');
    const seen: ChunkEvent[] = [];
    for await (const event of iterated) seen.push(event);
    await iterated.result;
    expect(seen.length).toBeGreaterThan(3000);
    expect(seen).toEqual(recorded.ofTurn('t1'));
    expect(retained(iterated)).toBe(0);

    const kept = session.send('two');
    const { rows } = await kept.result;
    expect(rows.length).toBeGreaterThan(0);
    expect(recorded.ofTurn('t2').length).toBeGreaterThan(3000);
    expect(retained(kept)).toBe(0);
  });

  it('keeps every event for an iterator started in time, however slowly it reads', async () => {
    const release = gate();
    const session = await setup([
      {
        parts: [
          { type: 'text', text: 'a b c' },
          { type: 'wait', until: release.promise },
        ],
      },
    ]);
    const recorded = recordEvents(session);
    const turn = session.send('go');
    const fast = turn[Symbol.asyncIterator]();
    const slow = turn[Symbol.asyncIterator]();
    const first = await slow.next();
    expect(first.value).toEqual({ type: 'turn-start', turnId: 't1', userText: 'go' });
    release.open();
    const fastEvents: ChunkEvent[] = [];
    for (let r = await fast.next(); !r.done; r = await fast.next()) fastEvents.push(r.value);
    await turn.result;
    // Settled, and the fast iterator finished; the slow one still needs the buffer.
    const all = recorded.ofTurn('t1');
    expect(fastEvents).toEqual(all);
    expect(retained(turn)).toBe(all.length);
    const slowEvents: ChunkEvent[] = [first.value as ChunkEvent];
    for (let r = await slow.next(); !r.done; r = await slow.next()) slowEvents.push(r.value);
    expect(slowEvents).toEqual(all);
    expect(retained(turn)).toBe(0);
  });

  it('is dropped when the last iterator breaks out early', async () => {
    const session = await setup([longStep]);
    const turn = session.send('go');
    let count = 0;
    for await (const _event of turn) {
      if (++count === 3) break;
    }
    await turn.result;
    expect(retained(turn)).toBe(0);
  });

  it('serves a UI message stream made at once but read after the turn settled', async () => {
    const session = await setup(parseScript('text Hello there'));
    const turn = session.send('go');
    // A Response body read later (a slow client): the stream starts its iteration when it is
    // made (its first pull), before the turn settles.
    const stream = toUIMessageStream(turn);
    await turn.result;
    const chunks: Array<{ type: string; delta?: string }> = [];
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.map((c) => c.type)).toContain('finish');
    expect(
      chunks
        .filter((c) => c.type === 'text-delta')
        .map((c) => c.delta)
        .join(''),
    ).toBe('Hello there');
    expect(retained(turn)).toBe(0);
  });

  it('gives an iterator started after the turn settled no events, and so does a dropped turn', async () => {
    const session = await setup(parseScript('text hi'));
    const turn = session.send('go');
    await turn.result;
    const late: ChunkEvent[] = [];
    for await (const event of turn) late.push(event);
    expect(late).toEqual([]);

    const dropped = session.send('never', { signal: AbortSignal.abort() });
    expect((await dropped.result).outcome).toBe('dropped');
    const none: ChunkEvent[] = [];
    for await (const event of dropped) none.push(event);
    expect(none).toEqual([]);
  });
});

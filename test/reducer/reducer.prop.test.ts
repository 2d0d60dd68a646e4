// Properties of the reducer over arbitrary sequences of schema-valid events, in any order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createTurnState,
  evictLeadingChunks,
  foldTurn,
  reduceTurn,
  type TurnState,
} from '../../src/reducer/index.js';
import {
  type Chunk,
  type ChunkEvent,
  ChunkEventSchema,
  ChunkSchema,
  type ToolCallEntry,
} from '../../src/schema/index.js';
import { deepFreeze, snapshot } from '../support/deep-freeze.js';
import { chunkEventsArb, NON_TOOL_EVENT_TYPES } from '../support/event-arbitraries.js';

const publicFields = (s: TurnState) => ({
  chunks: s.chunks,
  chunkCount: s.chunkCount,
  openIndex: s.openIndex,
  evicted: s.evicted,
  turnId: s.turnId,
  assistantId: s.assistantId,
  step: s.step,
  ended: s.ended,
  finishReason: s.finishReason,
  usage: s.usage,
  steps: s.steps,
});

function reduceAll(events: readonly ChunkEvent[], initial = createTurnState()): TurnState[] {
  const states = [initial];
  for (const event of events) states.push(reduceTurn(states.at(-1) as TurnState, event));
  return states;
}

// ---- Tagging: every event leaves a unique, visible mark, so that its chunk can be traced. ----

const TOKEN = /«(\d+)»/g;

/** Marks event `n`: delta texts start with «n», blocks carry metadata key `e<n>`, etc. */
function tag(event: ChunkEvent, n: number): ChunkEvent {
  const mark = { tag: { [`e${n}`]: true } };
  switch (event.type) {
    case 'text-delta':
    case 'reasoning-delta':
      return { ...event, text: `«${n}»${event.text}` };
    case 'text-start':
    case 'text-end':
    case 'reasoning-start':
    case 'reasoning-end':
      return { ...event, providerMetadata: { ...event.providerMetadata, ...mark } };
    case 'error':
      return { ...event, message: `E${n}` };
    case 'system':
      return { ...event, text: `S${n}` };
    case 'custom':
      return { ...event, kind: `p.k${n}` };
    case 'source':
      return { ...event, source: { ...event.source, id: `src${n}` } };
    case 'file':
      return { ...event, filename: `f${n}` };
    case 'steering-message':
      return { ...event, text: `G${n}` };
    case 'tool-approval-request':
      return { ...event, approvalId: `p-${event.toolCallId}` };
    case 'tool-approval-response':
      return {
        ...event,
        toolCallId: event.toolCallId ?? 'c1',
        approvalId: `p-${event.toolCallId ?? 'c1'}`,
      };
    default:
      return event;
  }
}

const taggedEventsArb = chunkEventsArb().map((events) => events.map(tag));

function callIdOf(event: ChunkEvent): string | undefined {
  return 'toolCallId' in event ? event.toolCallId : undefined;
}

/**
 * The index of the event that created `chunk`, read from the marks it carries (a deferred result
 * was created by the first result of its call).
 */
function origin(
  chunk: Chunk,
  firstMention: Map<string, number>,
  firstResult: Map<string, number>,
): number {
  const marks: number[] = [];
  const num = (s: string, prefix: string) => Number(s.slice(prefix.length));
  switch (chunk.type) {
    case 'text':
    case 'thinking':
      for (const m of chunk.text.matchAll(TOKEN)) marks.push(Number(m[1]));
      for (const key of Object.keys(chunk.providerMetadata?.tag ?? {})) marks.push(num(key, 'e'));
      break;
    case 'error':
      marks.push(num(chunk.message, 'E'));
      break;
    case 'system':
      marks.push(num(chunk.text, 'S'));
      break;
    case 'custom':
      marks.push(num(chunk.kind, 'p.k'));
      break;
    case 'source':
      marks.push(num(chunk.source.id, 'src'));
      break;
    case 'file':
      marks.push(num(chunk.filename ?? '', 'f'));
      break;
    case 'steering':
      marks.push(num(chunk.text, 'G'));
      break;
    case 'tool-batch':
      for (const call of chunk.calls) {
        const mention = call.deferred === true ? firstResult : firstMention;
        marks.push(mention.get(call.id) ?? Number.NaN);
      }
      break;
  }
  return Math.min(...marks);
}

describe('reduceTurn properties', () => {
  it('the arbitraries make schema-valid events', () => {
    fc.assert(
      fc.property(chunkEventsArb(), (events) => {
        for (const event of events) expect(ChunkEventSchema.parse(event)).toStrictEqual(event);
      }),
      { numRuns: 50 },
    );
  });

  it('never throws, and every state is well formed: valid JSON chunks, O(1) accessors agree', () => {
    fc.assert(
      fc.property(chunkEventsArb(), (events) => {
        for (const state of reduceAll(events)) {
          expect(state.chunkCount).toBe(state.chunks.length);
          state.chunks.forEach((chunk, i) => {
            expect(state.chunkAt(i)).toBe(chunk);
            expect(ChunkSchema.parse(chunk)).toStrictEqual(chunk);
          });
          expect(JSON.parse(JSON.stringify(state.chunks))).toStrictEqual(state.chunks);
          if (state.openIndex !== null) {
            expect(state.openIndex).toBeGreaterThanOrEqual(0);
            expect(state.openIndex).toBeLessThan(state.chunkCount);
          }
        }
      }),
    );
  });

  it('order kept: chunks are in the order of the events that created them', () => {
    fc.assert(
      fc.property(taggedEventsArb, (events) => {
        const firstMention = new Map<string, number>();
        const firstResult = new Map<string, number>();
        events.forEach((event, n) => {
          const id = callIdOf(event);
          if (id !== undefined && !firstMention.has(id)) firstMention.set(id, n);
          if (event.type === 'tool-result' && !firstResult.has(event.toolCallId)) {
            firstResult.set(event.toolCallId, n);
          }
        });
        const origins = foldTurn(events).chunks.map((c) => origin(c, firstMention, firstResult));
        for (const o of origins) expect(Number.isInteger(o)).toBe(true);
        for (let i = 1; i < origins.length; i++) {
          expect(origins[i]).toBeGreaterThan(origins[i - 1] as number);
        }
      }),
    );
  });

  it('lossless: every delta byte is present exactly once, in arrival order, in a chunk of its kind', () => {
    fc.assert(
      fc.property(taggedEventsArb, (events) => {
        const seen = new Set<number>();
        for (const chunk of foldTurn(events).chunks) {
          if (chunk.type !== 'text' && chunk.type !== 'thinking') continue;
          const wanted = chunk.type === 'text' ? 'text-delta' : 'reasoning-delta';
          const starts = [...chunk.text.matchAll(TOKEN)];
          expect(chunk.text.slice(0, starts[0]?.index ?? chunk.text.length)).toBe('');
          let previous = -1;
          starts.forEach((m, i) => {
            const n = Number(m[1]);
            const event = events[n] as ChunkEvent;
            expect(event.type).toBe(wanted);
            expect(seen.has(n)).toBe(false);
            expect(n).toBeGreaterThan(previous);
            const end = starts[i + 1]?.index ?? chunk.text.length;
            expect(chunk.text.slice(m.index, end)).toBe((event as { text: string }).text);
            seen.add(n);
            previous = n;
          });
        }
        const deltas = events.flatMap((ev, n) =>
          ev.type === 'text-delta' || ev.type === 'reasoning-delta' ? [n] : [],
        );
        expect([...seen].sort((a, b) => a - b)).toEqual(deltas);
      }),
    );
  });

  it('lossless: every error, system, custom, source, file and steering event is one chunk', () => {
    fc.assert(
      fc.property(taggedEventsArb, (events) => {
        const standalone = new Set([
          'error',
          'system',
          'custom',
          'source',
          'file',
          'steering-message',
        ]);
        const expected = events.flatMap((ev, n) => (standalone.has(ev.type) ? [n] : []));
        const chunks = foldTurn(events).chunks.filter((c) =>
          ['error', 'system', 'custom', 'source', 'file', 'steering'].includes(c.type),
        );
        expect(chunks.map((c) => origin(c, new Map(), new Map()))).toEqual(expected);
      }),
    );
  });

  it('lossless: every call is one entry holding its last input, last result (there or in its one deferred result), all progress', () => {
    fc.assert(
      fc.property(taggedEventsArb, (events) => {
        const all = foldTurn(events).chunks.flatMap((c) =>
          c.type === 'tool-batch' ? c.calls : [],
        );
        const entries = all.filter((entry) => entry.deferred !== true);
        const deferredResults = new Map(
          all.filter((entry) => entry.deferred === true).map((entry) => [entry.id, entry]),
        );
        expect(deferredResults.size).toBe(all.length - entries.length);
        for (const id of deferredResults.keys())
          expect(entries.some((e) => e.id === id)).toBe(true);
        const ids = entries.map((entry) => entry.id);
        expect(new Set(ids).size).toBe(ids.length);
        const mentioned = new Set(events.flatMap((ev) => callIdOf(ev) ?? []));
        expect(new Set(ids)).toEqual(mentioned);
        for (const entry of entries) {
          const mine = events.filter((ev) => callIdOf(ev) === entry.id);
          const lastCall = mine.findLast((ev) => ev.type === 'tool-call');
          const lastResult = mine.findLast((ev) => ev.type === 'tool-result');
          const progress = mine.flatMap((ev) =>
            ev.type === 'tool-progress' && ev.text !== undefined ? [ev.text] : [],
          );
          const preliminary = mine.findLast(
            (ev) => ev.type === 'tool-progress' && ev.output !== undefined,
          );
          expect(entry.input).toStrictEqual(
            lastCall?.type === 'tool-call' ? lastCall.input : undefined,
          );
          const deferred = deferredResults.get(entry.id);
          const outcome = deferred ?? entry;
          if (deferred !== undefined) expect('result' in entry).toBe(false);
          if (lastResult?.type === 'tool-result') {
            expect(outcome.result).toStrictEqual(lastResult.output);
            expect(outcome.isError).toBe(lastResult.isError === true ? true : undefined);
            expect(outcome.denied).toBe(lastResult.denied === true ? true : undefined);
          } else {
            expect('result' in entry).toBe(false);
          }
          expect(entry.progress).toBe(progress.length > 0 ? progress.join('') : undefined);
          expect(entry.preliminary).toStrictEqual(
            preliminary?.type === 'tool-progress' ? preliminary.output : undefined,
          );
          expect(entry.orphan).toBe(orphanExpected(entry, mine));
        }
      }),
    );
  });

  it('pure: deep-frozen events and states are accepted and no state ever changes', () => {
    fc.assert(
      fc.property(chunkEventsArb(), fc.integer({ min: 0, max: 60 }), (events, branchAt) => {
        deepFreeze(events);
        const before = snapshot(events);
        const states: TurnState[] = [deepFreeze(createTurnState())];
        const seen: string[] = [snapshot(states[0])];
        for (const event of events) {
          const next = reduceTurn(states.at(-1) as TurnState, event);
          states.push(next);
          seen.push(snapshot(next));
          if (states.length % 3 === 0) deepFreeze(next);
        }
        // A branch from an older state neither disturbs the states made after it nor sees them.
        const at = Math.min(branchAt, states.length - 1);
        const base = states[at] as TurnState;
        const fresh = foldTurn([...events.slice(0, at), ...events]);
        expect(publicFields(foldTurn(events, base))).toStrictEqual(publicFields(fresh));
        expect(publicFields(reduceAll(events, base).at(-1) as TurnState)).toStrictEqual(
          publicFields(fresh),
        );
        expect(snapshot(events)).toBe(before);
        for (const [i, state] of states.entries()) expect(snapshot(state)).toBe(seen[i]);
      }),
    );
  });

  it('shared buffers: a branch from any older state is independent of every other branch', () => {
    fc.assert(
      fc.property(
        chunkEventsArb(),
        chunkEventsArb({ maxLength: 20 }),
        fc.nat(),
        (events, other, pick) => {
          const states = reduceAll(events);
          const seen = states.map((state) => snapshot(state));
          const at = pick % states.length;
          const branch = reduceAll(other, states[at]).at(-1) as TurnState;
          const fresh = foldTurn([...events.slice(0, at), ...other]);
          expect(publicFields(branch)).toStrictEqual(publicFields(fresh));
          expect(
            publicFields(reduceAll(events.slice(at), branch).at(-1) as TurnState),
          ).toStrictEqual(
            publicFields(foldTurn([...events.slice(0, at), ...other, ...events.slice(at)])),
          );
          for (const [i, state] of states.entries()) expect(snapshot(state)).toBe(seen[i]);
        },
      ),
    );
  });

  it('steps never decrease, and chunks are in step order (steering aside)', () => {
    fc.assert(
      fc.property(chunkEventsArb(), (events) => {
        const states = reduceAll(events);
        for (let i = 1; i < states.length; i++) {
          expect((states[i] as TurnState).step).toBeGreaterThanOrEqual(
            (states[i - 1] as TurnState).step,
          );
        }
        const steps = (states.at(-1) as TurnState).chunks
          .filter((c) => c.type !== 'steering')
          .map((c) => c.step);
        expect(steps).toEqual([...steps].sort((a, b) => a - b));
      }),
    );
  });

  it('batch fold = incremental fold = fold of a prefix then of the rest', () => {
    fc.assert(
      fc.property(chunkEventsArb(), fc.nat(), (events, cut) => {
        const incremental = reduceAll(events).at(-1) as TurnState;
        const batch = foldTurn(events);
        const at = cut % (events.length + 1);
        const split = foldTurn(events.slice(at), foldTurn(events.slice(0, at)));
        expect(publicFields(batch)).toStrictEqual(publicFields(incremental));
        expect(publicFields(split)).toStrictEqual(publicFields(incremental));
      }),
    );
  });

  it('evictLeadingChunks keeps the open chunk and drops exactly the requested leading ones', () => {
    fc.assert(
      fc.property(
        chunkEventsArb(),
        fc.array(fc.tuple(fc.nat({ max: 60 }), fc.nat({ max: 8 })), { maxLength: 6 }),
        (events, evictions) => {
          let state = createTurnState();
          events.forEach((event, n) => {
            state = reduceTurn(state, event);
            for (const [at, count] of evictions) {
              if (at !== n) continue;
              const dropped = Math.min(count, state.openIndex ?? state.chunkCount);
              const next = evictLeadingChunks(state, count);
              expect(next.evicted).toBe(state.evicted + dropped);
              expect(next.chunks).toStrictEqual(state.chunks.slice(dropped));
              if (state.openIndex !== null) {
                expect(next.openIndex).toBe(state.openIndex - dropped);
                expect(next.chunkAt(next.openIndex as number)).toBe(state.chunkAt(state.openIndex));
              } else {
                expect(next.openIndex).toBeNull();
              }
              state = next;
            }
          });
        },
      ),
    );
  });

  it('eviction only forgets: without tool events, an evicted fold ends as the full fold minus its prefix', () => {
    fc.assert(
      fc.property(
        chunkEventsArb({ types: NON_TOOL_EVENT_TYPES }),
        fc.array(fc.tuple(fc.nat({ max: 60 }), fc.nat({ max: 8 })), { maxLength: 6 }),
        (events, evictions) => {
          let state = createTurnState();
          events.forEach((event, n) => {
            state = reduceTurn(state, event);
            for (const [at, count] of evictions)
              if (at === n) state = evictLeadingChunks(state, count);
          });
          const full = foldTurn(events);
          expect(state.chunks).toStrictEqual(full.chunks.slice(state.evicted));
          expect(state.evicted + state.chunkCount).toBe(full.chunkCount);
        },
      ),
    );
  });
});

/** Whether an entry should still be an orphan: nothing ever called it (only results and the like). */
function orphanExpected(_entry: ToolCallEntry, mine: readonly ChunkEvent[]): true | undefined {
  const first = mine[0];
  if (first === undefined) return undefined;
  const called = mine.some((ev) => ev.type === 'tool-call' || ev.type === 'tool-input-start');
  const createdAsOrphan = !['tool-call', 'tool-input-start', 'tool-input-delta'].includes(
    first.type,
  );
  return createdAsOrphan && !called ? true : undefined;
}

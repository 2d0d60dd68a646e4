// Property: whatever the interleaving of send, cancel, steer and notify, what subscribers saw is
// what was stored, turn by turn, in order; and a restarted session sends the same input.
import { jsonSchema, tool } from 'ai';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgentSession,
  type SteerHandle,
  type TurnHandle,
} from '../../src/entries/session.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import type { ChunkRowDraft } from '../../src/schema/chunk-row.js';
import { createTurnState, explodeTurn, reduceTurn } from '../../src/session/pipeline.js';
import { createScriptedModel, type ScriptedStep } from '../../src/testing/index.js';
import { openSqliteStore } from './support.js';

type Op =
  | { readonly kind: 'send'; readonly text: string; readonly abortAfter?: number | undefined }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'steer'; readonly text: string }
  | { readonly kind: 'notify'; readonly text: string }
  | { readonly kind: 'wait'; readonly ms: number };

const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta');
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      text: word,
      abortAfter: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined, freq: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('steer' as const), text: word }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('notify' as const), text: word }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('wait' as const),
      ms: fc.integer({ min: 0, max: 6 }),
    }),
  },
);

/** Answers every call: a text echoing the prompt's size, sometimes after a tool call. */
function answer(call: { prompt: readonly unknown[] }, index: number): ScriptedStep {
  const text = `answer ${index} to ${call.prompt.length} messages`;
  return index % 3 === 1
    ? {
        parts: [
          { type: 'text', text },
          { type: 'tool-call', toolName: 'echo', input: { n: index } },
        ],
      }
    : { parts: [{ type: 'text', text }] };
}

const strip = (rows: readonly ChunkRowDraft[]) =>
  rows.map(({ turnId, step, role, type, data }) => ({ turnId, step, role, type, data }));

describe('session (property)', () => {
  let opened: Awaited<ReturnType<typeof openSqliteStore>>;
  beforeAll(async () => {
    opened = await openSqliteStore();
  });
  afterAll(async () => {
    await opened.dispose();
  });

  it('stores every turn as its subscribers saw it, in order, whatever the interleaving', async () => {
    let run = 0;
    const stats = { turns: 0, steered: 0, cancelled: 0, tools: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
        const { store } = opened;
        const threadId = `prop-${++run}`;
        const model = createScriptedModel(
          Array.from({ length: 200 }, () => answer),
          { delayMs: 1 },
        );
        let id = 0;
        const options = {
          store,
          threadId,
          model,
          tools: {
            echo: tool({
              inputSchema: jsonSchema<{ n: number }>({ type: 'object' }),
              execute: async (input) => input,
            }),
          },
          idGenerator: () => `${threadId}-${++id}`,
        };
        const session = createAgentSession(options as never);
        const events: Array<{ event: ChunkEvent; turnId: string }> = [];
        session.subscribe((event, meta) => events.push({ event, turnId: meta.turnId }));
        const texts = new Map<string, string>();
        const handles: TurnHandle[] = [];
        const steers: SteerHandle[] = [];
        for (const o of ops) {
          switch (o.kind) {
            case 'send': {
              const controller = new AbortController();
              const handle = session.send(o.text, { signal: controller.signal });
              texts.set(handle.turnId, o.text);
              handles.push(handle);
              if (o.abortAfter !== undefined) setTimeout(() => controller.abort(), o.abortAfter);
              break;
            }
            case 'cancel':
              session.cancel();
              break;
            case 'steer':
              steers.push(session.steer(o.text));
              break;
            case 'notify':
              await session.notify({ kind: 'notice', text: o.text });
              break;
            case 'wait':
              await new Promise((resolve) => setTimeout(resolve, o.ms));
              break;
          }
        }
        for (const steer of steers) {
          const outcome = await steer.outcome;
          if (outcome.type === 'sent') {
            texts.set(outcome.turn.turnId, (outcome.turn as unknown as { text: string }).text);
            handles.push(outcome.turn);
          }
        }
        await session.idle();

        // Turns do not interleave: each is turn-start … turn-end, one after the other.
        const order: string[] = [];
        for (const { event, turnId } of events) {
          if (event.type === 'turn-start') {
            expect(order.includes(turnId)).toBe(false);
            order.push(turnId);
          } else {
            expect(turnId).toBe(order.at(-1));
          }
        }
        // The store holds those turns, in that order, with dense seqs.
        const rows = await store.getRows(threadId).catch(() => []);
        expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
        expect([...new Set(rows.map((r) => r.turnId))]).toEqual(order);
        // Each turn's rows are what its events fold to.
        for (const turnId of order) {
          let state = createTurnState({ turnId });
          const own = events.filter((e) => e.turnId === turnId).map((e) => e.event);
          expect(own[0]?.type).toBe('turn-start');
          expect(own.at(-1)?.type).toBe('turn-end');
          for (const event of own) state = reduceTurn(state, event);
          const text = texts.get(turnId);
          const expected =
            text === undefined
              ? explodeTurn(turnId, state.chunks, { role: 'system' })
              : [
                  ...explodeTurn(turnId, [{ type: 'text', step: 0, text }], { role: 'user' }),
                  ...explodeTurn(turnId, state.chunks, { role: 'assistant' }),
                ];
          expect(strip(rows.filter((r) => r.turnId === turnId))).toEqual(strip(expected));
        }
        // Every handle settled: stored ones with their rows, dropped ones with none.
        for (const handle of handles) {
          const result = await handle.result;
          const stored = rows.filter((r) => r.turnId === handle.turnId);
          expect(result.rows.map((r) => r.seq)).toEqual(stored.map((r) => r.seq));
          expect(result.outcome === 'dropped').toBe(stored.length === 0);
        }
        // A restarted session sends the same input.
        const restarted = createAgentSession({
          ...options,
          model: createScriptedModel([{}]),
        } as never);
        expect(JSON.stringify(await restarted.modelMessages('next'))).toBe(
          JSON.stringify(await session.modelMessages('next')),
        );
        stats.turns += order.length;
        stats.steered += events.filter((e) => e.event.type === 'steering-message').length;
        stats.cancelled += rows.filter(
          (r) => r.type === 'system' && (r.data as { kind: string }).kind === 'cancelled',
        ).length;
        stats.tools += rows.filter((r) => r.type === 'tool_result').length;
        await session.close();
      }),
      { numRuns: 25 },
    );
    // Not vacuous: turns ran, some used tools, some were steered or cancelled.
    expect(stats.turns).toBeGreaterThan(25);
    expect(stats.tools + stats.steered + stats.cancelled).toBeGreaterThan(0);
  });
});

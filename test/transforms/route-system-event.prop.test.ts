// routeSystemEvent's three rules, in their order, against a model of the plan's table: (1) a turn
// in flight takes the event, whatever the last message is; (2) else a trailing system message
// takes it; (3) else it becomes a new system message. Scenarios mix a turn in flight (with or
// without its assistant message yet) with a trailing system message or not, so swapping any two
// rules gives a different list for some scenario.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, Chunk, SystemChunk, SystemEvent } from '../../src/schema/index.js';
import { SYSTEM_KINDS } from '../../src/schema/index.js';
import { routeSystemEvent, systemEventRoute } from '../../src/transforms/index.js';
import { type TurnSpec, threadArb } from './arbitraries.js';

function messagesOf(turns: readonly TurnSpec[]): ChatMessage[] {
  return turns.flatMap((turn): ChatMessage[] =>
    turn.kind === 'system'
      ? [{ id: `${turn.turnId}:system`, turnId: turn.turnId, role: 'system', chunks: turn.chunks }]
      : [
          { id: `${turn.turnId}:user`, turnId: turn.turnId, role: 'user', chunks: turn.user },
          {
            id: `${turn.turnId}:assistant`,
            turnId: turn.turnId,
            role: 'assistant',
            chunks: turn.assistant,
          },
        ],
  );
}

/** The plan's table, written out: where the system chunk goes. */
function modelRoute(
  messages: readonly ChatMessage[],
  event: SystemEvent,
  inFlightTurnId: string | null,
  newTurnId: string,
): ChatMessage[] {
  const chunk = (step: number): SystemChunk => ({
    type: 'system',
    step,
    kind: event.kind,
    text: event.text,
  });
  if (inFlightTurnId !== null) {
    const id = `${inFlightTurnId}:assistant`;
    const at = messages.findIndex((m) => m.id === id);
    if (at === -1) {
      return [...messages, { id, turnId: inFlightTurnId, role: 'assistant', chunks: [chunk(0)] }];
    }
    const target = messages[at] as ChatMessage;
    const step = target.chunks.at(-1)?.step ?? 0;
    return messages.map((m, i) => (i === at ? { ...m, chunks: [...m.chunks, chunk(step)] } : m));
  }
  const last = messages.at(-1);
  if (last?.role === 'system') {
    return [...messages.slice(0, -1), { ...last, chunks: [...last.chunks, chunk(0)] }];
  }
  return [
    ...messages,
    { id: `${newTurnId}:system`, turnId: newTurnId, role: 'system', chunks: [chunk(0)] },
  ];
}

const scenario = fc
  .record({
    turns: threadArb(4),
    /** A user message of a turn that has just started (no assistant message yet). */
    startedTurn: fc.boolean(),
    trailingSystem: fc.boolean(),
    inFlight: fc.constantFrom('none', 'started', 'answered', 'unseen'),
    kind: fc.constantFrom(...SYSTEM_KINDS),
    text: fc.string({ maxLength: 8 }),
  })
  .map(({ turns, startedTurn, trailingSystem, inFlight, kind, text }) => {
    const messages = messagesOf(turns);
    const userOnly: Chunk[] = [{ type: 'text', step: 0, text: 'go' }];
    if (startedTurn)
      messages.push({ id: 'live:user', turnId: 'live', role: 'user', chunks: userOnly });
    if (trailingSystem) {
      const chunks: Chunk[] = [{ type: 'system', step: 0, kind: 'notice', text: 'before' }];
      messages.push({ id: 'sys:system', turnId: 'sys', role: 'system', chunks });
    }
    const answered = turns.findLast((t) => t.kind === 'exchange')?.turnId ?? null;
    const inFlightTurnId =
      inFlight === 'none'
        ? null
        : inFlight === 'started'
          ? startedTurn
            ? 'live'
            : 'unseen'
          : inFlight === 'answered'
            ? (answered ?? 'unseen')
            : 'unseen';
    const event: SystemEvent = { type: 'system', kind, text };
    return { messages, inFlightTurnId, event };
  });

describe('routeSystemEvent', () => {
  it('property: the three rules apply in order — in-flight turn, then trailing system message, then a new one', () => {
    fc.assert(
      fc.property(scenario, ({ messages, inFlightTurnId, event }) => {
        const before = structuredClone(messages);
        const out = routeSystemEvent(messages, event, { inFlightTurnId, newTurnId: 'new' });
        expect(out).toStrictEqual(modelRoute(before, event, inFlightTurnId, 'new'));
        expect(messages).toStrictEqual(before);
        const route = systemEventRoute(messages, inFlightTurnId);
        const expectedRoute =
          inFlightTurnId !== null
            ? 'in-flight-turn'
            : messages.at(-1)?.role === 'system'
              ? 'trailing-system-message'
              : 'new-system-message';
        expect(route).toBe(expectedRoute);
      }),
      { numRuns: 300 },
    );
  });
});

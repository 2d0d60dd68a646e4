import { describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import type { ChatMessage, ChunkRow, SystemEvent } from '../../src/schema/index.js';
import {
  explodeTurn,
  groupRowsToMessages,
  routeSystemEvent,
  systemEventRoute,
} from '../../src/transforms/index.js';

const notice: SystemEvent = { type: 'system', kind: 'notice', text: 'Config reloaded' };
const userMsg: ChatMessage = {
  id: 't1:user',
  turnId: 't1',
  role: 'user',
  chunks: [{ type: 'text', step: 0, text: 'hi' }],
};
const assistantMsg: ChatMessage = {
  id: 't1:assistant',
  turnId: 't1',
  role: 'assistant',
  chunks: [{ type: 'text', step: 2, text: 'working' }],
};

describe('routeSystemEvent', () => {
  it('rule 1: appends to the in-flight turn at its current step, leaving the input alone', () => {
    const messages = Object.freeze([userMsg, assistantMsg]);
    const out = routeSystemEvent(messages, notice, { inFlightTurnId: 't1', newTurnId: 'x' });
    expect(out).not.toBe(messages);
    expect(out[0]).toBe(userMsg);
    expect(out[1]?.chunks).toStrictEqual([
      { type: 'text', step: 2, text: 'working' },
      { type: 'system', step: 2, kind: 'notice', text: 'Config reloaded' },
    ]);
    expect(assistantMsg.chunks).toHaveLength(1);
  });

  it('rule 1: creates the assistant message when the turn has none yet', () => {
    const out = routeSystemEvent([userMsg], notice, { inFlightTurnId: 't1', step: 0 });
    expect(out).toStrictEqual([
      userMsg,
      {
        id: 't1:assistant',
        turnId: 't1',
        role: 'assistant',
        chunks: [{ type: 'system', step: 0, kind: 'notice', text: 'Config reloaded' }],
      },
    ]);
  });

  it('rule 2: appends to a trailing system message', () => {
    const first = routeSystemEvent([userMsg, assistantMsg], notice, {
      inFlightTurnId: null,
      newTurnId: 's1',
    });
    const second = routeSystemEvent(
      first,
      { type: 'system', kind: 'cancelled', text: 'x' },
      { inFlightTurnId: undefined, newTurnId: 's2' },
    );
    expect(second.map((m) => m.id)).toEqual(['t1:user', 't1:assistant', 's1:system']);
    expect(second[2]?.chunks.map((c) => c.type === 'system' && c.kind)).toEqual([
      'notice',
      'cancelled',
    ]);
    expect(systemEventRoute(first, null)).toBe('trailing-system-message');
  });

  it('rule 3: creates a new system message of turn newTurnId', () => {
    const out = routeSystemEvent([userMsg, assistantMsg], notice, {
      inFlightTurnId: null,
      newTurnId: 's1',
    });
    expect(out[2]).toStrictEqual({
      id: 's1:system',
      turnId: 's1',
      role: 'system',
      chunks: [{ type: 'system', step: 0, kind: 'notice', text: 'Config reloaded' }],
    });
    expect(routeSystemEvent([], notice, { inFlightTurnId: null, newTurnId: 's0' })).toHaveLength(1);
  });

  it('agrees with grouping the stored system turns (rules 2 and 3)', () => {
    let live: ChatMessage[] = [];
    const rows: ChunkRow[] = [];
    const store = (
      turnId: string,
      role: 'user' | 'assistant' | 'system',
      chunks: ChatMessage['chunks'],
    ) => {
      for (const d of explodeTurn(turnId, chunks, { role }))
        rows.push({ ...d, threadId: 't', seq: rows.length + 1 } as ChunkRow);
    };
    store('t1', 'user', userMsg.chunks);
    store('t1', 'assistant', assistantMsg.chunks);
    live = [userMsg, assistantMsg];
    for (const [i, kind] of (['notice', 'config-reload'] as const).entries()) {
      const event: SystemEvent = { type: 'system', kind, text: `e${i}` };
      live = routeSystemEvent(live, event, { inFlightTurnId: null, newTurnId: `s${i}` });
      store(`s${i}`, 'system', [{ type: 'system', step: 0, kind, text: `e${i}` }]);
    }
    expect(live).toStrictEqual(groupRowsToMessages(rows));
  });

  it('throws invalid-option naming the option when rule 3 needs newTurnId or an input is bad', () => {
    const option = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        expect(ChunklogError.hasCode(error, 'invalid-option')).toBe(true);
        return (error as ChunklogError).option;
      }
      return 'no error';
    };
    expect(option(() => routeSystemEvent([userMsg], notice, { inFlightTurnId: null }))).toBe(
      'newTurnId',
    );
    expect(
      option(() => routeSystemEvent([], notice, { inFlightTurnId: 3 as unknown as string })),
    ).toBe('inFlightTurnId');
    expect(option(() => routeSystemEvent([], notice, { inFlightTurnId: 't', step: -1 }))).toBe(
      'step',
    );
    expect(
      option(() =>
        routeSystemEvent([], { ...notice, kind: 'boom' as 'notice' }, { inFlightTurnId: 't' }),
      ),
    ).toBe('event.kind');
    expect(
      option(() => routeSystemEvent([], notice, undefined as unknown as { inFlightTurnId: null })),
    ).toBe('options');
  });
});

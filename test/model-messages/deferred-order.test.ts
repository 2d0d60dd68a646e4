import { describe, expect, it } from 'vitest';
import {
  type ChunkEvent,
  type ChunkRow,
  explodeTurn,
  foldTurn,
  groupRowsToMessages,
  toModelMessages,
} from '../../src/index.js';
import { checkInvariants } from './support/invariants.js';

function rowsOf(turns: readonly (readonly ChunkEvent[])[]): ChunkRow[] {
  const rows: ChunkRow[] = [];
  turns.forEach((events, t) => {
    const drafts = [
      ...explodeTurn(`t${t}`, [{ type: 'text', step: 0, text: `question ${t}` }], { role: 'user' }),
      ...explodeTurn(`t${t}`, foldTurn(events).chunks, { role: 'assistant' }),
    ];
    for (const d of drafts) rows.push({ ...d, threadId: 'th', seq: rows.length + 1 } as ChunkRow);
  });
  return rows;
}

describe('a deferred result only defers the calls before it', () => {
  it('a call whose id an earlier orphan deferred result used still gets a result', () => {
    // Found by the reducer-output property (seed 443931252): an orphan provider result in turn 0,
    // then a local call with the same id in turn 1.
    const rows = rowsOf([
      [
        { type: 'tool-approval-request', toolCallId: 'c3', approvalId: 'p1' },
        { type: 'text-start' },
        { type: 'tool-result', toolCallId: 'c3', output: false, providerExecuted: true },
      ],
      [{ type: 'tool-call', toolCallId: 'c3', toolName: 'read', input: '' }],
    ]);
    const out = toModelMessages(groupRowsToMessages(rows));
    checkInvariants(out);
    expect(out.at(-1)).toMatchObject({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c3' }],
    });
  });

  it("a local call's result that arrived apart from it, turns later, goes back with the call", () => {
    // Found by the same property: a local call in turn 0, its result (marked provider-executed by
    // a confused stream) in turn 1.
    const rows = rowsOf([
      [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: {} }],
      [
        { type: 'tool-approval-request', toolCallId: 'c1', approvalId: 'p1' },
        { type: 'reasoning-start' },
        { type: 'tool-result', toolCallId: 'c1', output: [], providerExecuted: true },
      ],
      [],
    ]);
    const out = toModelMessages(groupRowsToMessages(rows));
    checkInvariants(out);
    expect(out[2]).toMatchObject({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', output: { type: 'json', value: [] } }],
    });
  });
});

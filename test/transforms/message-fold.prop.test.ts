import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChunkRow, ChunkRowDraft } from '../../src/schema/index.js';
import { groupRows } from '../../src/transforms/group-rows.js';
import { explodeTurn } from '../../src/transforms/index.js';
import { MessageFold, type MessageFoldState } from '../../src/transforms/message-fold.js';
import { plain, type TurnSpec, threadArb } from './arbitraries.js';

/** A thread's rows as a store holds them (seqs from 1, a creation time each). */
function storeThread(turns: readonly TurnSpec[]): ChunkRow[] {
  const rows: ChunkRow[] = [];
  const add = (drafts: ChunkRowDraft[]) => {
    for (const d of drafts) {
      const seq = rows.length + 1;
      rows.push({
        ...d,
        threadId: 'th',
        seq,
        createdAt: new Date(seq * 1000).toISOString(),
      } as ChunkRow);
    }
  };
  for (const turn of turns) {
    if (turn.kind === 'system') add(explodeTurn(turn.turnId, turn.chunks, { role: 'system' }));
    else {
      add(explodeTurn(turn.turnId, turn.user, { role: 'user' }));
      add(explodeTurn(turn.turnId, turn.assistant, { role: 'assistant' }));
    }
  }
  return rows;
}

/** Schema-valid rows with any roles (a tool row as `system`, a result before its call). */
const roles = ['user', 'assistant', 'tool', 'system'] as const;

/** Cut points splitting `length` rows into consecutive runs. */
const cutsArb = (length: number) =>
  fc.uniqueArray(fc.nat(length), { maxLength: 6 }).map((cuts) => [...cuts].sort((a, b) => a - b));

describe('MessageFold', () => {
  it('folding a thread in any number of steps, through the JSON of its state between them, groups like the whole log at once', () => {
    fc.assert(
      fc.property(
        threadArb(6).chain((turns) => {
          const rows = storeThread(turns);
          return fc.tuple(
            fc.constant(rows),
            cutsArb(rows.length),
            fc.array(fc.constantFrom(...roles), { minLength: rows.length, maxLength: rows.length }),
          );
        }),
        ([stored, cuts, rowRoles]) => {
          // Mixed roles make tool rows join system messages and results miss their calls.
          const rows = stored.map((row, i) =>
            i % 3 === 0 ? ({ ...row, role: rowRoles[i] } as ChunkRow) : row,
          );
          const whole = groupRows(rows);
          let state: MessageFoldState = new MessageFold().state();
          let from = 0;
          for (const cut of [...cuts, rows.length]) {
            const fold = MessageFold.from(JSON.parse(JSON.stringify(state)) as MessageFoldState);
            for (const row of rows.slice(from, cut)) fold.add(row as ChunkRow);
            state = fold.state();
            from = cut;
          }
          expect(plain(MessageFold.from(state).messages())).toEqual(plain(whole));
          const last = rows[rows.length - 1];
          expect(state.seq).toBe(last?.seq ?? 0);
          expect(state.last).toEqual(
            last === undefined
              ? null
              : { seq: last.seq, turnId: last.turnId, createdAt: last.createdAt },
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never changes a message or a state it handed out, whatever it folds next', () => {
    fc.assert(
      fc.property(
        threadArb(6).chain((turns) => {
          const rows = storeThread(turns);
          return fc.tuple(fc.constant(rows), cutsArb(rows.length));
        }),
        ([rows, cuts]) => {
          const fold = new MessageFold();
          const handedOut: Array<{ messages: ChatMessage[]; copy: unknown }> = [];
          const states: Array<{ state: MessageFoldState; copy: string }> = [];
          let from = 0;
          for (const cut of [...cuts, rows.length]) {
            for (const row of rows.slice(from, cut)) fold.add(row);
            from = cut;
            const messages = fold.messages();
            handedOut.push({ messages, copy: structuredClone(messages) });
            const state = fold.state();
            states.push({ state, copy: JSON.stringify(state) });
          }
          for (const { messages, copy } of handedOut) expect(messages).toEqual(copy);
          for (const { state, copy } of states) expect(JSON.stringify(state)).toBe(copy);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('goes on from a state without changing it', () => {
    const rows = storeThread([
      {
        kind: 'exchange',
        turnId: 't1',
        user: [{ type: 'text', step: 0, text: 'hi' }],
        assistant: [
          {
            type: 'tool-batch',
            step: 0,
            calls: [{ id: 'c1', name: 'read', input: {} }],
          },
        ],
      } as TurnSpec,
    ]);
    const first = new MessageFold();
    for (const row of rows) first.add(row);
    const state = first.state();
    const before = JSON.stringify(state);
    const next = MessageFold.from(state);
    next.add({
      turnId: 't1',
      step: 0,
      role: 'tool',
      type: 'tool_result',
      data: { callId: 'c1', name: 'read', result: 'ok' },
      seq: 9,
    });
    expect(JSON.stringify(state)).toBe(before);
    const batch = next.messages()[1]?.chunks[0];
    expect(batch).toMatchObject({ type: 'tool-batch', calls: [{ id: 'c1', result: 'ok' }] });
    expect(next.seq).toBe(9);
  });
});

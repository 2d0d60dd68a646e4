import { describe, expect, it } from 'vitest';
import { ChunklogError } from '../../src/errors/index.js';
import { type Chunk, ChunkRowDraftSchema } from '../../src/schema/index.js';
import { explodeTurn } from '../../src/transforms/index.js';

const turn: Chunk[] = [
  {
    type: 'thinking',
    step: 0,
    text: 'I should read',
    providerMetadata: { anthropic: { signature: 's1' } },
  },
  { type: 'text', step: 0, text: 'Reading.' },
  {
    type: 'tool-batch',
    step: 0,
    calls: [
      { id: 'c1', name: 'read', input: { path: 'a' }, result: 'A', progress: 'reading a\n' },
      { id: 'c2', name: 'list', input: {} },
      { id: 'c3', name: 'rm', input: {}, result: null, isError: true, denied: true },
    ],
  },
  { type: 'steering', step: 1, id: 's', text: 'also b' },
  { type: 'system', step: 1, kind: 'model-changed', text: 'Switched' },
  { type: 'text', step: 1, text: 'Done.' },
];

describe('explodeTurn', () => {
  it('gives one row per chunk, calls then results for a tool-batch, in a fixed order', () => {
    const rows = explodeTurn('t1', turn, { role: 'assistant' });
    expect(rows.map((r) => [r.type, r.role, r.step])).toEqual([
      ['thinking', 'assistant', 0],
      ['text', 'assistant', 0],
      ['tool_call', 'assistant', 0],
      ['tool_call', 'assistant', 0],
      ['tool_call', 'assistant', 0],
      ['tool_result', 'tool', 0],
      ['tool_result', 'tool', 0],
      ['steering', 'user', 1],
      ['system', 'assistant', 1],
      ['text', 'assistant', 1],
    ]);
    for (const row of rows) {
      expect(row.turnId).toBe('t1');
      expect(ChunkRowDraftSchema.parse(row)).toStrictEqual(row);
    }
  });

  it('splits a call entry into the call row (with its index) and the result row (with progress)', () => {
    const rows = explodeTurn('t1', turn, { role: 'assistant' });
    expect(rows[2]?.data).toStrictEqual({ id: 'c1', name: 'read', input: { path: 'a' }, index: 0 });
    expect(rows[4]?.data).toStrictEqual({ id: 'c3', name: 'rm', input: {}, index: 2 });
    expect(rows[5]?.data).toStrictEqual({
      callId: 'c1',
      name: 'read',
      result: 'A',
      progress: 'reading a\n',
    });
    expect(rows[6]?.data).toStrictEqual({
      callId: 'c3',
      name: 'rm',
      result: null,
      isError: true,
      denied: true,
    });
  });

  it('keeps data without type and step, and never adds undefined members', () => {
    const rows = explodeTurn('t1', turn, { role: 'assistant' });
    expect(rows[0]?.data).toStrictEqual({
      text: 'I should read',
      providerMetadata: { anthropic: { signature: 's1' } },
    });
    for (const row of rows) {
      expect(Object.values(row.data as object)).not.toContain(undefined);
    }
  });

  it('uses the given role for a user or system turn', () => {
    expect(
      explodeTurn('u', [{ type: 'text', step: 0, text: 'hi' }], { role: 'user' })[0]?.role,
    ).toBe('user');
    expect(
      explodeTurn('s', [{ type: 'system', step: 0, kind: 'notice', text: 'n' }], {
        role: 'system',
      })[0]?.role,
    ).toBe('system');
  });

  it('gives nothing for nothing', () => {
    expect(explodeTurn('t', [], { role: 'assistant' })).toEqual([]);
  });

  it('rejects a bad turn id or role with invalid-option naming it', () => {
    const bad = (f: () => unknown, option: string) => {
      try {
        f();
        expect.unreachable();
      } catch (error) {
        expect(ChunklogError.hasCode(error, 'invalid-option')).toBe(true);
        expect((error as ChunklogError).option).toBe(option);
      }
    };
    bad(() => explodeTurn('', [], { role: 'assistant' }), 'turnId');
    bad(() => explodeTurn('t', [], { role: 'tool' as 'user' }), 'role');
    bad(() => explodeTurn('t', [], undefined as unknown as { role: 'user' }), 'role');
  });
});

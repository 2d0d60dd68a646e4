// The row transforms validate their input (rows may come from an HTTP page or a file, chunks from
// an import) and name the element and the field that is wrong.
import { describe, expect, it } from 'vitest';
import type { ChatMessage, Chunk, ChunkRow } from '../../src/schema/index.js';
import {
  explodeTurn,
  groupRowsToMessages,
  mergeRowsBySeq,
  routeSystemEvent,
  systemEventRoute,
} from '../../src/transforms/index.js';
import { thrown } from '../support/chunklog-error.js';

const good: Chunk = { type: 'text', step: 0, text: 'ok' };
const row = (seq: number): ChunkRow => ({
  threadId: 'th',
  seq,
  turnId: 't1',
  step: 0,
  role: 'assistant',
  type: 'text',
  data: { text: `row ${seq}` },
});
const message: ChatMessage = { id: 't1:user', turnId: 't1', role: 'user', chunks: [good] };

describe('transforms trust boundaries', () => {
  it('explodeTurn names the malformed chunk and field', () => {
    const error = thrown(() =>
      explodeTurn('t1', [good, { type: 'tool-batch', step: 0 } as never], { role: 'assistant' }),
    );
    expect(error.code).toBe('invalid-chunk');
    expect(error.path).toEqual([1, 'calls']);
    expect(error.message).toMatch(/^explodeTurn: invalid chunk at chunks\[1\]\.calls/);
    expect(thrown(() => explodeTurn('t1', [null] as never, { role: 'assistant' })).path).toEqual([
      0,
    ]);
    expect(
      thrown(() => explodeTurn('t1', [{ ...good, text: 4 }] as never, { role: 'user' })).path,
    ).toEqual([0, 'text']);
    const notArray = thrown(() => explodeTurn('t1', 'chunks' as never, { role: 'user' }));
    expect(notArray.code).toBe('invalid-chunk');
    expect(notArray.path).toEqual([]);
  });

  it('groupRowsToMessages names the malformed row and field', () => {
    const rows: unknown[] = [row(1), { ...row(2), data: undefined }];
    const error = thrown(() => groupRowsToMessages(rows as never));
    expect(error.code).toBe('invalid-row');
    expect(error.path).toEqual([1, 'data']);
    expect(error.message).toMatch(/^groupRowsToMessages: invalid row at rows\[1\]\.data/);
    for (const [bad, path] of [
      [{ ...row(1), type: 'zzz' }, [0, 'type']],
      [{ ...row(1), role: 'robot' }, [0, 'role']],
      [{ ...row(1), seq: '1' }, [0, 'seq']],
      [null, [0]],
    ] as const) {
      expect(thrown(() => groupRowsToMessages([bad] as never)).path).toEqual(path);
    }
    expect(thrown(() => groupRowsToMessages({} as never)).code).toBe('invalid-row');
    // Live entries (extra fields, `seq: null`) are still accepted.
    const live = { ...row(3), seq: null, id: 't1:0', live: true };
    expect(groupRowsToMessages([row(1), live] as never)[0]?.chunks).toHaveLength(2);
  });

  it('mergeRowsBySeq refuses a page that is not an array, or a row without a seq', () => {
    expect(thrown(() => mergeRowsBySeq([row(1)], 'page' as never)).path).toEqual([1]);
    const error = thrown(() => mergeRowsBySeq([row(1), { ...row(2), seq: undefined } as never]));
    expect(error.code).toBe('invalid-row');
    expect(error.path).toEqual([0, 1]);
    expect(mergeRowsBySeq([row(2)], [row(1), row(2)]).map((r) => r.seq)).toEqual([1, 2]);
  });

  it('routeSystemEvent and systemEventRoute check the messages', () => {
    const event = { type: 'system', kind: 'notice', text: 'n' } as const;
    const bad = [message, { ...message, role: 'tool' }] as never;
    const routed = thrown(() =>
      routeSystemEvent(bad, event, { inFlightTurnId: null, newTurnId: 's' }),
    );
    expect(routed.code).toBe('invalid-message');
    expect(routed.path).toEqual([1, 'role']);
    expect(thrown(() => systemEventRoute(null as never, null)).code).toBe('invalid-message');
    const option = thrown(() => systemEventRoute([message], 5 as never));
    expect(option.code).toBe('invalid-option');
    expect(option.message).toMatch(/^systemEventRoute:/);
  });
});

// A system message (rows of role `system`: a system event outside a turn) holds only system
// chunks. explodeTurn and appendTurn refuse anything else in one, by position, before any row is
// made or written.
import { describe, expect, it } from 'vitest';
import type { Chunk, ChunkRowDraft } from '../../src/schema/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { explodeTurn } from '../../src/transforms/index.js';
import { rejected, thrown } from '../support/chunklog-error.js';

const notice: Chunk = { type: 'system', step: 0, kind: 'notice', text: 'Config reloaded' };
const others: Chunk[] = [
  { type: 'text', step: 0, text: 'hello' },
  { type: 'thinking', step: 0, text: 'hmm' },
  { type: 'error', step: 0, message: 'boom' },
  { type: 'tool-batch', step: 0, calls: [{ id: 'c1', name: 'read', input: {} }] },
  { type: 'steering', step: 0, id: 'm1', text: 'also' },
];

describe('system messages hold only system chunks', () => {
  it('explodeTurn with role system refuses any other chunk, naming its index', () => {
    expect(explodeTurn('s1', [notice, notice], { role: 'system' })).toHaveLength(2);
    for (const other of others) {
      const error = thrown(() => explodeTurn('s1', [notice, other], { role: 'system' }));
      expect(error).toMatchObject({ code: 'invalid-chunk', path: [1, 'type'], value: other.type });
    }
    // The same chunks are fine in an assistant message.
    expect(explodeTurn('t1', [notice, ...others], { role: 'assistant' }).length).toBeGreaterThan(5);
  });

  it('appendTurn refuses a system-role row of another type before writing anything', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    const drafts: ChunkRowDraft[] = [
      {
        turnId: 's1',
        step: 0,
        role: 'system',
        type: 'system',
        data: { kind: 'notice', text: 'a' },
      },
      { turnId: 's1', step: 0, role: 'system', type: 'text', data: { text: 'b' } },
    ];
    const error = await rejected(store.appendTurn('th', drafts));
    expect(error).toMatchObject({ code: 'invalid-row', path: [1, 'type'], value: 'text' });
    expect(await store.hasTurn('th', 's1')).toBe(false);
    expect(await store.appendTurn('th', drafts.slice(0, 1))).toHaveLength(1);
    await store.close();
  });
});

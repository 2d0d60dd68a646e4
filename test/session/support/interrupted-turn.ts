// A turn a dead writer left `running`, written straight into a store (for the recovery tests).
import type { ChunkStore } from '../../../src/store/index.js';
import { explodeChunks } from '../../../src/transforms/explode-turn.js';

/**
 * A turn a dead writer left `running`: the user's message, then step 0 with text and two calls
 * (`read_file`, `write_file`) stored without results.
 */
export async function storeInterruptedTurn(store: ChunkStore, threadId: string): Promise<void> {
  await store.beginTurn(threadId, [
    { turnId: 'turn-1', step: 0, role: 'user', type: 'text', data: { text: 'Copy a.ts to b.ts' } },
  ]);
  await store.appendSteps(
    threadId,
    'turn-1',
    explodeChunks(
      'turn-1',
      [
        { type: 'text', step: 0, text: 'Reading, then writing.' },
        {
          type: 'tool-batch',
          step: 0,
          calls: [
            { id: 'c1', name: 'read_file', input: { path: 'a.ts' } },
            { id: 'c2', name: 'write_file', input: { path: 'b.ts', text: 'x' } },
          ],
        },
      ],
      'assistant',
    ),
  );
}

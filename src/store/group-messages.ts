import { ChunklogError } from '../errors/chunklog-error.js';
import type { ChatMessage } from '../schema/chat-message.js';
import type { ChunkRow } from '../schema/chunk-row.js';

// WIRING POINT (branch `transforms`): `groupRowsToMessages` lives in src/transforms/ once that
// branch lands on main. Until then getMessages throws; replace the body below with
//   import { groupRowsToMessages } from '../transforms/index.js';
//   export const groupRows = groupRowsToMessages;

/** Groups a thread's rows into messages (the transforms' `groupRowsToMessages`). */
export function groupRows(rows: readonly ChunkRow[]): ChatMessage[] {
  void rows;
  throw new ChunklogError(
    'store-failed',
    'getMessages needs groupRowsToMessages from chunklog core, which is not built yet: use getRows.',
  );
}

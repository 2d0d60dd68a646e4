import type { ChatMessage } from '../schema/chat-message.js';
import { MessageFold } from '../transforms/message-fold.js';
import type { GroupableRow } from '../transforms/row-input.js';

/**
 * `groupRowsToMessages` of rows the window holds, which need neither its checks nor its dropping
 * of a `seq` seen twice: the window made or validated every row, and holds each `seq` once (the
 * stored rows are merged by `seq`; rows not stored yet have none). So this folds them, as
 * `groupRows` does once it has nothing to drop.
 *
 * It does not call `groupRows`: the built package puts `transforms/group-rows.ts` in one chunk
 * with what `groupRowsToMessages` checks rows with (a zod intersection, the exact-row tables),
 * whose top-level code a bundler keeps once the chunk is imported, about 1.2 KB gzipped of the
 * `chunklog/window` bundle that nothing in it runs.
 *
 * @param rows - stored rows (each `seq` once), drafts or live entries
 * @returns the chat messages
 */
export function groupEntries(rows: readonly GroupableRow[]): ChatMessage[] {
  const fold = new MessageFold();
  for (const row of rows) fold.add(row);
  return fold.messages();
}

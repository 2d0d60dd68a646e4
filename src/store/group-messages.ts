import type { ChatMessage } from '../schema/chat-message.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import { groupRowsToMessages } from '../transforms/group-rows.js';

/** Groups a thread's rows into messages (the transforms' `groupRowsToMessages`). */
export function groupRows(rows: readonly ChunkRow[]): ChatMessage[] {
  return groupRowsToMessages(rows);
}

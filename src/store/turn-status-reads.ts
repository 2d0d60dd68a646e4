import type { ChatMessage } from '../schema/chat-message.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import { groupRows } from '../transforms/group-rows.js';
import type { StoreContext } from './context.js';
import { openTurnsIn } from './queries/turns.js';

/** The thread's rows grouped into messages, each of a turn that is not `completed` with its `status`. */
export async function messagesWithStatus(
  ctx: StoreContext,
  threadId: string,
  rows: readonly ChunkRow[],
): Promise<ChatMessage[]> {
  const messages = groupRows(rows);
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (first === undefined || last === undefined) return messages;
  const statuses = await openTurnsIn(ctx, threadId, first.seq, last.seq);
  if (Object.keys(statuses).length === 0) return messages;
  return messages.map((message) => {
    const status = statuses[message.turnId];
    return status === undefined ? message : { ...message, status };
  });
}

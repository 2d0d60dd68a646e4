import type { ChatMessage } from '../schema/chat-message.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import { groupRows } from '../transforms/group-rows.js';
import type { StoreContext } from './context.js';
import { openTurnsIn } from './queries/turns.js';

/**
 * A page with the status of its turns that are not `completed` (`turnStatus`), set only when
 * there is one: pages of finished turns stay as they were.
 */
export async function withTurnStatus<
  P extends { readonly chunks: readonly ChunkRow[]; readonly turnStatus?: unknown },
>(ctx: StoreContext, threadId: string, page: P): Promise<P> {
  const first = page.chunks[0];
  const last = page.chunks[page.chunks.length - 1];
  if (first === undefined || last === undefined) return page;
  const statuses = await openTurnsIn(ctx, threadId, first.seq, last.seq);
  return Object.keys(statuses).length === 0 ? page : { ...page, turnStatus: statuses };
}

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

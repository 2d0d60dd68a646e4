import { sql } from 'kysely';
import { readOptions } from '../../errors/invalid-option.js';
import type { ChatMessage } from '../../schema/chat-message.js';
import { groupRows } from '../../transforms/group-rows.js';
import type { StoreContext } from '../context.js';
import { readHistoryDirect } from '../history-snapshots.js';
import { readHistoryPooled } from '../history-snapshots-pooled.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import { selectThread } from '../threads.js';
import type { HistoryRead, ReadOptions } from '../types.js';
import { checkThreadId } from '../validate.js';
import { rowsAfter } from './get-rows.js';
import { openTurnsIn } from './turns.js';

/** The history read, unwrapped (the caller names its operation). */
async function historyOf(
  ctx: StoreContext,
  threadId: string,
  options: ReadOptions | undefined,
  where: string,
): Promise<HistoryRead> {
  const o = readOptions(options, where, ['onCorruptRow']);
  const policy = corruptRowPolicy(o.onCorruptRow, ctx.onCorruptRow);
  let direct = readHistoryDirect(ctx, threadId, policy);
  if (direct === undefined && ctx.direct !== undefined && ctx.snapshotMinRows !== false) {
    // The store's own connection is not open yet (this is its first query: a new process's cold
    // rebuild), or a transaction of the store's is open on it: a query through Kysely opens it,
    // or waits for the transaction, and the snapshots are read after all.
    await sql`select 1`.execute(ctx.db);
    direct = readHistoryDirect(ctx, threadId, policy);
  }
  if (direct === undefined) {
    // Through the application's Kysely: a thread's rows in one statement, or its snapshots and the
    // rows after them in one REPEATABLE READ transaction.
    const pooled = await readHistoryPooled(ctx, threadId, policy);
    if (pooled === 'no-thread') throw threadNotFound(threadId);
    if (pooled !== undefined) return pooled.history;
    return { messages: [], turnIds: [], rows: await rowsAfter(ctx, threadId, 0, policy) };
  }
  if (direct.read === 0 && (await selectThread(ctx, ctx.db, threadId, false)) === undefined) {
    throw threadNotFound(threadId);
  }
  return direct.history;
}

/** `ChunkStore.getHistory`: see there. */
export function getHistory(
  ctx: StoreContext,
  threadId: string,
  options?: ReadOptions,
): Promise<HistoryRead> {
  checkThreadId(threadId);
  return wrapStoreErrors('getHistory', threadId, () =>
    historyOf(ctx, threadId, options, 'getHistory'),
  );
}

/**
 * `ChunkStore.getMessages`: the history read, grouped, each message of a turn that is not
 * `completed` with its `status`.
 */
export function getMessages(
  ctx: StoreContext,
  threadId: string,
  options?: ReadOptions,
): Promise<ChatMessage[]> {
  checkThreadId(threadId);
  return wrapStoreErrors('getMessages', threadId, async () => {
    const { messages, rows } = await historyOf(ctx, threadId, options, 'getMessages');
    for (const message of groupRows(rows)) messages.push(message);
    const last = rows[rows.length - 1];
    if (last === undefined) return messages;
    const statuses = await openTurnsIn(ctx, threadId, 0, last.seq);
    if (Object.keys(statuses).length === 0) return messages;
    return messages.map((message) => {
      const status = statuses[message.turnId];
      return status === undefined ? message : { ...message, status };
    });
  });
}

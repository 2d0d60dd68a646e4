import { readOptions } from '../../errors/invalid-option.js';
import type { ChatMessage } from '../../schema/chat-message.js';
import type { StoreContext } from '../context.js';
import { readHistory } from '../history/read-history.js';
import { writeHistoryState } from '../history/write-state.js';
import { wrapStoreErrors } from '../store-errors.js';
import { corruptRowPolicy } from '../store-options.js';
import type { HistoryRead, ReadOptions } from '../types.js';
import { checkThreadId } from '../validate.js';
import { readOrigin } from './path-rows.js';
import { openTurnsIn } from './turns.js';

/** `ChunkStore.getHistory`: see there. */
export function getHistory(
  ctx: StoreContext,
  threadId: string,
  options?: ReadOptions,
): Promise<HistoryRead> {
  checkThreadId(threadId);
  const o = readOptions(options, 'getHistory', ['onCorruptRow']);
  const policy = corruptRowPolicy(o.onCorruptRow, ctx.onCorruptRow);
  return wrapStoreErrors('getHistory', threadId, async () => {
    const { fold } = await readHistory(ctx, threadId, policy);
    return { fold, messages: fold.messages() };
  });
}

/**
 * `ChunkStore.getMessages`: the history read, each message of a turn that is not `completed`
 * with its `status`.
 */
export function getMessages(
  ctx: StoreContext,
  threadId: string,
  options?: ReadOptions,
): Promise<ChatMessage[]> {
  checkThreadId(threadId);
  const o = readOptions(options, 'getMessages', ['onCorruptRow']);
  const policy = corruptRowPolicy(o.onCorruptRow, ctx.onCorruptRow);
  return wrapStoreErrors('getMessages', threadId, async () => {
    const history = await readHistory(ctx, threadId, policy);
    const { fold } = history;
    const messages = fold.messages();
    if (fold.seq === 0) return messages;
    // A read that started from a state did not learn whether the thread is a fork.
    const ancestors =
      history.stateSeq === 0 || history.ancestors.length > 0
        ? history.ancestors
        : ((await readOrigin(ctx, ctx.db, threadId))?.origin.ancestors ?? []);
    const statuses = await openTurnsIn(ctx, threadId, 0, fold.seq, ancestors);
    if (Object.keys(statuses).length === 0) return messages;
    return messages.map((message) => {
      const status = statuses[message.turnId];
      return status === undefined ? message : { ...message, status };
    });
  });
}

/** `ChunkStore.writeHistorySnapshot`: see there. */
export function writeHistorySnapshot(
  ctx: StoreContext,
  threadId: string,
): Promise<number | undefined> {
  checkThreadId(threadId);
  return wrapStoreErrors('writeHistorySnapshot', threadId, () =>
    writeHistoryState(ctx, threadId, true),
  );
}

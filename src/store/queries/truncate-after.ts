import type { StoreContext } from '../context.js';
import { encodeForkPath, pathUpTo, type ThreadOrigin, threadOrigin } from '../fork-path.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { selectThread } from '../threads.js';
import { writeTransaction } from '../transaction.js';
import { checkSeq, checkThreadId } from '../validate.js';
import { cutRows } from './cut-rows.js';
import { refuseIfForked } from './fork-guard.js';

/**
 * The origin columns of a fork truncated after `seq`, below its fork seq (none otherwise): its
 * path cut at `seq`, and its parent the thread whose own rows hold `seq` (see `insertFork`), so
 * the thread it no longer reads is no longer held (a fork at 0 keeps its parent: it holds none).
 */
function cutForkColumns(origin: ThreadOrigin, seq: number) {
  if (origin.parentId === undefined || seq >= origin.forkSeq) return {};
  const path = pathUpTo(origin.ancestors, seq);
  return {
    parent_id: path[0]?.threadId ?? origin.parentId,
    fork_seq: seq,
    fork_path: encodeForkPath(path),
  };
}

/**
 * `ChunkStore.truncateAfter`: deletes the rows after `seq` and moves the thread's next seq back
 * to `seq + 1`, so seqs stay dense (the next turn reuses the freed seqs). Refused while a fork of
 * the thread reads its rows above `seq` (`thread-has-forks`). A fork truncated below its fork seq
 * reads less of its parent: its fork seq and path are cut at `seq`, and its parent is then the
 * thread whose rows it ends with. The status rows of the turns
 * cut go too (a running turn cut is no longer running, nor found interrupted).
 */
export function truncateAfter(ctx: StoreContext, threadId: string, seq: number): Promise<number> {
  checkThreadId(threadId);
  checkSeq(seq, 'seq', 0);
  return wrapStoreErrors('truncateAfter', threadId, () =>
    writeTransaction(
      ctx,
      async (trx) => {
        const thread = await selectThread(ctx, trx, threadId, true);
        if (thread === undefined) throw threadNotFound(threadId);
        const last = Number(thread.next_seq) - 1;
        if (seq >= last) return 0;
        await refuseIfForked(trx, 'truncateAfter', threadId, seq);
        const cutFork = cutForkColumns(threadOrigin(thread), seq);
        const moved = { next_seq: seq + 1, updated_at: ctx.now(), ...cutFork };
        await cutRows(trx, threadId, { after: seq }, moved);
        return last - seq;
      },
      { what: 'truncateAfter', threadId },
    ),
  );
}

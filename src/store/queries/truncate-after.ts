import type { StoreContext } from '../context.js';
import { encodeForkPath, pathUpTo, threadOrigin } from '../fork-path.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { selectThread } from '../threads.js';
import { writeTransaction } from '../transaction.js';
import { checkSeq, checkThreadId } from '../validate.js';
import { cutRows } from './cut-rows.js';
import { refuseIfForked } from './fork-guard.js';

/**
 * `ChunkStore.truncateAfter`: deletes the rows after `seq` and moves the thread's next seq back
 * to `seq + 1`, so seqs stay dense (the next turn reuses the freed seqs). Refused while a fork of
 * the thread reads its rows above `seq` (`thread-has-forks`). A fork truncated below its fork seq
 * reads less of its parent: its fork seq and path are cut at `seq`. The status rows of the turns
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
        const origin = threadOrigin(thread);
        const cutFork =
          origin.parentId !== undefined && seq < origin.forkSeq
            ? { fork_seq: seq, fork_path: encodeForkPath(pathUpTo(origin.ancestors, seq)) }
            : {};
        const moved = { next_seq: seq + 1, updated_at: ctx.now(), ...cutFork };
        await cutRows(trx, threadId, { after: seq }, moved);
        return last - seq;
      },
      { what: 'truncateAfter', threadId },
    ),
  );
}

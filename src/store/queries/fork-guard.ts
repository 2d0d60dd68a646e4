import type { Kysely } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import { asString } from '../codec.js';
import type { StoreTables } from '../tables.js';

/** How many forks the `thread-has-forks` error names. */
const NAMED = 5;

/**
 * Refuses to delete rows that forks read by reference: the thread's rows above `seq` (all of
 * them for `seq` undefined: a deletion) while a fork of it forks above `seq` (a fork at seq 0
 * shares nothing and does not hold its parent), other than those in `going` (threads deleted in
 * the same transaction: a conversation's versions). Run in the write
 * transaction that holds the thread's lock. Forks of forks need no look: a fork's parent is
 * the thread whose own rows hold its fork seq (`insertFork`), so a fork that reads the thread's
 * rows through another thread is that other's fork, and that other reads them too, up to the
 * same seq at least — by induction a direct fork of the thread does, which cannot go first. So
 * no fork can appear meanwhile that this look would miss: one made from the thread takes its
 * lock; one made from a thread reading it (under that thread's lock) adds a reader where one
 * that blocks the deletion exists already. (A fork made before that rule may name a parent
 * whose rows it does not read: it holds that parent for nothing, over-strict but never unsafe.)
 *
 * @throws {ChunklogError} `thread-has-forks`, naming the forks and the seq they fork at
 */
export async function refuseIfForked(
  trx: Kysely<StoreTables>,
  what: 'deleteThread' | 'eraseThread' | 'truncateAfter',
  threadId: string,
  seq: number | undefined,
  going: readonly string[] = [],
): Promise<void> {
  const forks = await trx
    .selectFrom('threads')
    .select(['id', 'fork_seq'])
    .where('parent_id', '=', threadId)
    // A fork at seq 0 reads nothing of its parent.
    .where('fork_seq', '>', seq ?? 0)
    .$if(going.length > 0, (qb) => qb.where('id', 'not in', going))
    .orderBy('fork_seq', 'desc')
    .limit(NAMED)
    .execute();
  if (forks.length === 0) return;
  const named = forks.map((f) => ({ threadId: asString(f.id), atSeq: Number(f.fork_seq) }));
  const list = named.map((f) => `${JSON.stringify(f.threadId)} (at seq ${f.atSeq})`).join(', ');
  const highest = named[0]?.atSeq ?? 0;
  const why =
    what !== 'truncateAfter'
      ? `forks read its rows by reference: ${list}. ${what === 'eraseThread' ? 'Erase' : 'Delete'} the forks first.`
      : `forks read its rows up to seq ${highest} by reference: ${list}. Truncate after seq ${highest} or above, or delete the forks first.`;
  throw new ChunklogError(
    'thread-has-forks',
    `${what}: thread ${JSON.stringify(threadId)} has forks; ${why}`,
    { threadId, value: named, ...(seq === undefined ? {} : { seq }) },
  );
}

import type { Kysely } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import type { JSONObject } from '../../schema/json.js';
import { asString } from '../codec.js';
import type { StoreContext } from '../context.js';
import {
  encodeForkPath,
  forkPathOf,
  segmentOf,
  type ThreadOrigin,
  threadOrigin,
} from '../fork-path.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import type { StoreTables } from '../tables.js';
import {
  checkMetadata,
  insertThreadIfAbsent,
  openThread,
  type SelectedThread,
  selectThread,
} from '../threads.js';
import { writeTransaction } from '../transaction.js';
import type { ForkThreadOptions, Thread } from '../types.js';
import { checkSeq, checkThreadId, newThreadId } from '../validate.js';
import { threadExists } from './thread-ops.js';
import { selectTurn } from './turns.js';

/**
 * `ChunkStore.forkThread`: a new thread whose path is the source's path up to `atSeq`, by
 * reference: one thread row recording its parent, the fork seq and the resolved stretches of
 * other threads it reads (notes/0088). No row is copied, so it costs the same for a thread of
 * ten rows or of a million. Made under the source's lock, which `deleteThread` and
 * `truncateAfter` of the source also take before they look for its forks.
 */
export function forkThread(
  ctx: StoreContext,
  threadId: string,
  options: ForkThreadOptions,
): Promise<Thread> {
  checkThreadId(threadId);
  const o = readOptions(options, 'forkThread', ['atSeq', 'newThreadId', 'metadata']);
  const atSeq = checkSeq(o.atSeq, 'atSeq', 0);
  const newId = newThreadId(o.newThreadId, 'newThreadId');
  const metadata = checkMetadata(o.metadata);
  return wrapStoreErrors('forkThread', threadId, () =>
    writeTransaction(
      ctx,
      async (trx) => {
        const source = await selectThread(ctx, trx, threadId, true);
        if (source === undefined) throw threadNotFound(threadId);
        if (newId === threadId || (await selectThread(ctx, trx, newId, true)) !== undefined) {
          throw threadExists(newId);
        }
        const forkSeq = Math.min(atSeq, Number(source.next_seq) - 1);
        await checkTurnBoundary(trx, threadId, threadOrigin(source), forkSeq);
        return await insertFork(ctx, trx, source, forkSeq, { id: newId, metadata });
      },
      { what: 'forkThread', threadId },
    ),
  );
}

/**
 * Inserts the thread row of a fork of `source` at `forkSeq` (a turn boundary of its path, not
 * beyond its end) and returns it: the one write of `forkThread` and `addAlternative`. Run in the
 * write transaction that holds the source's lock.
 *
 * Its parent (`parent_id`, `Thread.forkOf`) is the thread whose own rows hold seq `forkSeq` of
 * the path: the source, or, at or below the source's own fork seq, the thread the source reads
 * there. `refuseIfForked` guards a thread's rows by its forks, so a fork is recorded as the fork
 * of the thread whose rows it ends with; the source's rows, of which it reads none, stay free to
 * go. A fork at seq 0 reads nothing and stays the source's.
 */
export async function insertFork(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  source: SelectedThread,
  forkSeq: number,
  fork: {
    readonly id: string;
    /** Default: the source's. */
    readonly metadata: JSONObject | undefined;
    /** For an alternative: the conversation it belongs to. */
    readonly conversationId?: string | undefined;
  },
): Promise<Thread> {
  const sourceId = asString(source.id);
  const path = forkPathOf(sourceId, threadOrigin(source), forkSeq);
  const opened = await openThread(ctx, source);
  await insertThreadIfAbsent(ctx, trx, {
    id: fork.id,
    now: ctx.now(),
    nextSeq: forkSeq + 1,
    metadata: fork.metadata ?? (opened.metadata as JSONObject | undefined),
    ownerId: source.owner_id === null ? undefined : asString(source.owner_id),
    title: opened.title,
    fork: { parentId: path[0]?.threadId ?? sourceId, forkSeq, path: encodeForkPath(path) },
    conversationId: fork.conversationId,
  });
  const created = await selectThread(ctx, trx, fork.id, false);
  if (created === undefined) throw new Error('the forked thread row is missing');
  return await openThread(ctx, created);
}

/** The turn id of the row at `seq` on the source's path, and the thread that holds it. */
async function rowAt(
  trx: Kysely<StoreTables>,
  threadId: string,
  origin: ThreadOrigin,
  seq: number,
): Promise<{ turnId: string; holder: string } | undefined> {
  const holder = seq > origin.forkSeq ? threadId : segmentOf(origin.ancestors, seq)?.threadId;
  if (holder === undefined) return undefined;
  const row = await trx
    .selectFrom('chunks')
    .select('turn_id')
    .where('thread_id', '=', holder)
    .where('seq', '=', seq)
    .executeTakeFirst();
  return row === undefined ? undefined : { turnId: asString(row.turn_id), holder };
}

/**
 * Refuses a fork that would cut a turn in two: the row after `seq` on the source's path must
 * start another turn, and a fork at the path's end must not end a turn that is still running. A
 * fork inside the start that expiry removed is refused too.
 *
 * @throws {ChunklogError} `invalid-option` (`atSeq`), naming the turn and the seqs where a fork
 *   may go instead
 */
async function checkTurnBoundary(
  trx: Kysely<StoreTables>,
  threadId: string,
  origin: ThreadOrigin,
  seq: number,
): Promise<void> {
  if (seq === 0) return;
  const at = await rowAt(trx, threadId, origin, seq);
  if (at === undefined) {
    // The row is gone: expiry removed the thread's start (a fork there would read nothing).
    const first = await trx
      .selectFrom('chunks')
      .select((eb) => eb.fn.min('seq').as('seq'))
      .where('thread_id', '=', threadId)
      .executeTakeFirst();
    throw new ChunklogError(
      'invalid-option',
      `forkThread: seq ${seq} of thread ${JSON.stringify(threadId)} was removed by retention; fork at 0 or at ${Number(first?.seq ?? 0)} or after.`,
      { option: 'atSeq', value: seq, threadId },
    );
  }
  const next = await rowAt(trx, threadId, origin, seq + 1);
  if (next !== undefined && next.turnId !== at.turnId) return;
  // At the end of the path, a turn that still runs would be cut by its next step.
  if (next === undefined) {
    const turn = await selectTurn(trx, at.holder, at.turnId);
    if (turn === undefined || asString(turn.status) !== 'running') return;
  }
  const span = await trx
    .selectFrom('chunks')
    .select((eb) => [eb.fn.min('seq').as('first'), eb.fn.max('seq').as('last')])
    .where('thread_id', '=', at.holder)
    .where('turn_id', '=', at.turnId)
    .executeTakeFirstOrThrow();
  const first = Number(span.first);
  const last = Number(span.last);
  const where =
    next === undefined
      ? `ends turn ${JSON.stringify(at.turnId)} (seqs ${first} to ${last} so far), which is still running; fork before it (${first - 1}) or once it has ended`
      : `is inside turn ${JSON.stringify(at.turnId)} (seqs ${first} to ${last}); fork at a turn boundary: ${first - 1} (before it) or ${last} (after it)`;
  throw new ChunklogError('invalid-option', `forkThread: seq ${seq} ${where}.`, {
    option: 'atSeq',
    value: seq,
    threadId,
  });
}

import { sql } from 'kysely';
import { readOptions } from '../../errors/invalid-option.js';
import type { JSONObject } from '../../schema/json.js';
import { asJson, asString, ROW_COLUMNS } from '../codec.js';
import type { StoreContext } from '../context.js';
import { INSERT_COLUMNS } from '../statements.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { checkMetadata, insertThreadIfAbsent, selectThread, toThread } from '../threads.js';
import { writeTransaction } from '../transaction.js';
import type { ForkThreadOptions, Thread } from '../types.js';
import { checkSeq, checkThreadId } from '../validate.js';
import { threadExists } from './thread-ops.js';

/**
 * `ChunkStore.forkThread`: a new thread holding copies of the rows with `seq <= atSeq` (same
 * seqs, turn ids and timestamps), copied inside the database by one `INSERT … SELECT`.
 */
export function forkThread(
  ctx: StoreContext,
  threadId: string,
  options: ForkThreadOptions,
): Promise<Thread> {
  checkThreadId(threadId);
  const o = readOptions(options, 'forkThread', ['atSeq', 'newThreadId', 'metadata']);
  const atSeq = checkSeq(o.atSeq, 'atSeq', 0);
  const newId =
    o.newThreadId === undefined
      ? globalThis.crypto.randomUUID()
      : checkThreadId(o.newThreadId, 'newThreadId');
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
        const copied = Math.min(atSeq, Number(source.next_seq) - 1);
        const sourceMetadata =
          source.metadata === null ? undefined : (asJson(source.metadata) as JSONObject);
        await insertThreadIfAbsent(ctx, trx, {
          id: newId,
          now: ctx.now(),
          nextSeq: copied + 1,
          metadata: metadata ?? sourceMetadata,
          ownerId: source.owner_id === null ? undefined : asString(source.owner_id),
          title: source.title === null ? undefined : asString(source.title),
        });
        if (copied > 0) {
          await trx
            .insertInto('chunks')
            .columns(INSERT_COLUMNS)
            .expression((eb) =>
              eb
                .selectFrom('chunks')
                .select([
                  sql<string>`cast(${newId} as ${ctx.adapter.idCast})`.as('thread_id'),
                  ...ROW_COLUMNS,
                ])
                .where('thread_id', '=', threadId)
                .where('seq', '<=', copied),
            )
            .execute();
        }
        const created = await selectThread(ctx, trx, newId, false);
        if (created === undefined) throw new Error('the forked thread row is missing');
        return toThread(created);
      },
      { what: 'forkThread', threadId },
    ),
  );
}

import { type Kysely, sql } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import type { JSONObject } from '../../schema/json.js';
import { asJson, asString, ROW_COLUMNS } from '../codec.js';
import type { StoreContext } from '../context.js';
import { INSERT_COLUMNS } from '../statements.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import type { StoreTables } from '../tables.js';
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
        await checkTurnBoundary(trx, threadId, copied);
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

/**
 * Refuses a fork that would cut a turn in two: the row after `seq` must start another turn.
 *
 * @throws {ChunklogError} `invalid-option` (`atSeq`), naming the turn and the seqs where a fork
 *   may go instead
 */
async function checkTurnBoundary(
  trx: Kysely<StoreTables>,
  threadId: string,
  seq: number,
): Promise<void> {
  if (seq === 0) return;
  const rows = await trx
    .selectFrom('chunks')
    .select(['seq', 'turn_id'])
    .where('thread_id', '=', threadId)
    .where('seq', 'in', [seq, seq + 1])
    .execute();
  const at = rows.find((row) => Number(row.seq) === seq);
  const next = rows.find((row) => Number(row.seq) === seq + 1);
  if (at === undefined || next === undefined || asString(at.turn_id) !== asString(next.turn_id)) {
    return;
  }
  const turnId = asString(at.turn_id);
  const span = await trx
    .selectFrom('chunks')
    .select((eb) => [eb.fn.min('seq').as('first'), eb.fn.max('seq').as('last')])
    .where('thread_id', '=', threadId)
    .where('turn_id', '=', turnId)
    .executeTakeFirstOrThrow();
  const first = Number(span.first);
  const last = Number(span.last);
  throw new ChunklogError(
    'invalid-option',
    `forkThread: seq ${seq} is inside turn ${JSON.stringify(turnId)} (seqs ${first} to ${last}); fork at a turn boundary: ${first - 1} (before it) or ${last} (after it).`,
    { option: 'atSeq', value: seq, threadId },
  );
}

import { type Kysely, sql } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import type { JSONObject } from '../../schema/json.js';
import { asString, ROW_COLUMNS, UnreadableData } from '../codec.js';
import type { StoreContext } from '../context.js';
import { openRecords, rowSealerFor } from '../encryption/store-cipher.js';
import { INSERT_COLUMNS } from '../statements.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import type { ChunkRecord, StoreTables } from '../tables.js';
import { checkMetadata, insertThreadIfAbsent, openThread, selectThread } from '../threads.js';
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
        const opened = await openThread(ctx, source);
        await insertThreadIfAbsent(ctx, trx, {
          id: newId,
          now: ctx.now(),
          nextSeq: copied + 1,
          metadata: metadata ?? (opened.metadata as JSONObject | undefined),
          ownerId: source.owner_id === null ? undefined : asString(source.owner_id),
          title: opened.title,
        });
        if (copied > 0 && ctx.cipher !== undefined) {
          await copySealedRows(ctx, trx, threadId, newId, copied);
        } else if (copied > 0) {
          await trx
            .insertInto('chunks')
            .columns(INSERT_COLUMNS)
            .expression((eb) =>
              eb
                .selectFrom('chunks')
                .select([
                  sql<string>`cast(${newId} as ${ctx.adapter.idCast})`.as('thread_id'),
                  ...ROW_COLUMNS.filter((column) => column !== 'thread_id'),
                ])
                .where('thread_id', '=', threadId)
                .where('seq', '<=', copied),
            )
            .execute();
        }
        const created = await selectThread(ctx, trx, newId, false);
        if (created === undefined) throw new Error('the forked thread row is missing');
        return await openThread(ctx, created);
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

/** Rows copied per batch when a fork re-encrypts them. */
const COPY_BATCH = 500;

/**
 * Copies rows `1…last` of `threadId` to `newId` in an encrypting store: each row is opened with
 * the key of the thread it is stored under and sealed again with the new thread's key and its
 * place there (an encrypted row is bound to its thread id, so it cannot be copied as it is).
 *
 * @throws {ChunklogError} `corrupt-row` for a row that does not open
 */
async function copySealedRows(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  threadId: string,
  newId: string,
  last: number,
): Promise<void> {
  const seal = await rowSealerFor(ctx.cipher, newId);
  for (let from = 1; from <= last; from += COPY_BATCH) {
    const records = await trx
      .selectFrom('chunks')
      .select(ROW_COLUMNS)
      .where('thread_id', '=', threadId)
      .where('seq', '>=', from)
      .where('seq', '<', Math.min(last + 1, from + COPY_BATCH))
      .orderBy('seq')
      .execute();
    await openRecords(ctx.cipher, records);
    const copies: ChunkRecord[] = records.map((record) => {
      if (record.data instanceof UnreadableData) {
        throw new ChunklogError(
          'corrupt-row',
          `Row ${record.seq} of thread ${JSON.stringify(threadId)} is corrupt: ${record.data.problem}.`,
          { threadId, seq: Number(record.seq) },
        );
      }
      const data: unknown = record.data;
      const json =
        typeof data === 'string' || data instanceof Uint8Array
          ? asString(data)
          : JSON.stringify(data);
      const seq = Number(record.seq);
      return { ...record, thread_id: newId, data: seal === undefined ? json : seal(seq, json) };
    });
    if (copies.length > 0) await trx.insertInto('chunks').values(copies).execute();
  }
}

import type { Kysely } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import type { SystemRowData } from '../../schema/chunk-row.js';
import { asString, isoOf } from '../codec.js';
import type { StoreContext } from '../context.js';
import { currentSealer, openRecords, rowSealerFor } from '../encryption/store-cipher.js';
import { wrapStoreErrors } from '../store-errors.js';
import type { StoreTables } from '../tables.js';
import { selectThread } from '../threads.js';
import { writeTransaction } from '../transaction.js';
import type { ExpireOptions, ExpireResult } from '../types.js';
import { checkThreadId } from '../validate.js';
import { cutRows } from './cut-rows.js';

/** The turn id of a retention sentinel: `expired-` and the seq it holds. */
const SENTINEL = 'expired-';

/** A turn's extent, as the rows tell it. */
interface TurnSpan {
  readonly turnId: string;
  readonly first: number;
  readonly last: number;
  /** The creation time of its newest row (ms). */
  readonly at: number;
}

/**
 * `ChunkStore.expire`: in each thread (or the one given), the longest run of whole turns from its
 * start whose every row was created before `before` (a running turn stops the run) is removed;
 * its last row becomes a `context-truncated` system row (the sentinel: how many turns were
 * removed, and the first turn kept). Usage is kept; history states and snapshots of the thread
 * are dropped (they hold the removed turns). Seqs are not reused: the rows kept keep theirs.
 */
export function expire(ctx: StoreContext, options: ExpireOptions): Promise<ExpireResult> {
  const o = readOptions(options, 'expire', ['before', 'threadId']);
  const before = checkBefore(o.before);
  const only = o.threadId === undefined ? undefined : checkThreadId(o.threadId);
  return wrapStoreErrors('expire', only, async () => {
    const threads =
      only !== undefined
        ? [only]
        : (
            await ctx.db
              .selectFrom('chunks')
              .select('thread_id')
              .where('created_at', '<', before)
              .groupBy('thread_id')
              .execute()
          ).map((r) => asString(r.thread_id));
    let turns = 0;
    let rows = 0;
    let changed = 0;
    const leftWhole: string[] = [];
    for (const threadId of threads) {
      const done = await expireThread(ctx, threadId, before);
      if (done === 'forked') {
        leftWhole.push(threadId);
        continue;
      }
      if (done.turns > 0) changed++;
      turns += done.turns;
      rows += done.rows;
    }
    return { threads: changed, turns, rows, leftWhole };
  });
}

/** The `before` option as milliseconds. */
function checkBefore(value: unknown): number {
  const millis =
    value instanceof Date
      ? value.getTime()
      : typeof value === 'string'
        ? Date.parse(value)
        : typeof value === 'number'
          ? value
          : Number.NaN;
  if (!Number.isFinite(millis)) {
    throw new ChunklogError(
      'invalid-option',
      'expire: `before` must be a Date, an ISO 8601 date-time or milliseconds since the epoch.',
      { option: 'before', value },
    );
  }
  return millis;
}

/**
 * Expires one thread's old turns; `'forked'` when it has rows older than `before` but is left
 * whole, being in a chain of forks by reference.
 */
async function expireThread(
  ctx: StoreContext,
  threadId: string,
  before: number,
): Promise<{ turns: number; rows: number } | 'forked'> {
  return await writeTransaction(
    ctx,
    async (trx) => {
      const thread = await selectThread(ctx, trx, threadId, true);
      if (thread === undefined) return { turns: 0, rows: 0 };
      // A thread in a chain of forks by reference is left whole (docs/store.md, Retention): a
      // fork's path starts in its parent, and a parent's rows are read by its forks.
      const inChain =
        (thread.parent_id !== null && thread.parent_id !== undefined) ||
        (await trx
          .selectFrom('threads')
          .select('id')
          .where('parent_id', '=', threadId)
          .where('fork_seq', '>', 0)
          .limit(1)
          .executeTakeFirst()) !== undefined;
      if (inChain) {
        const old = await trx
          .selectFrom('chunks')
          .select('seq')
          .where('thread_id', '=', threadId)
          .where('created_at', '<', before)
          .limit(1)
          .executeTakeFirst();
        return old === undefined ? { turns: 0, rows: 0 } : 'forked';
      }
      const spans = await turnSpans(trx, threadId);
      const running = new Set(
        (
          await trx
            .selectFrom('turns')
            .select('turn_id')
            .where('thread_id', '=', threadId)
            .where('status', '=', 'running')
            .execute()
        ).map((r) => asString(r.turn_id)),
      );
      let end = 0;
      let removed = 0;
      let earlier = 0;
      for (const span of spans) {
        // A turn id is the client's to choose: only the row expire wrote is a sentinel.
        const counted =
          span.turnId === `${SENTINEL}${span.last}` && span.first === span.last
            ? await sentinelCount(ctx, trx, threadId, span.last)
            : undefined;
        if (counted === undefined && (span.at >= before || running.has(span.turnId))) break;
        if (counted !== undefined) earlier += counted;
        else removed++;
        end++;
      }
      if (removed === 0) return { turns: 0, rows: 0 };
      // The key is fetched under the thread's lock, and only for a thread that loses turns: one
      // fetched before could be made for a thread erased meanwhile, and outlive it. Expiry is a
      // maintenance job, so it can hold the lock for a key provider's round trip.
      const seal = await rowSealerFor(ctx.cipher, threadId);
      const sealer = await currentSealer(ctx.cipher, threadId, seal, thread.key_version);
      const last = (spans[end - 1] as TurnSpan).last;
      const kept = spans[end];
      const now = ctx.now();
      const turnId = `${SENTINEL}${last}`;
      const leftOut = earlier + removed;
      const data: SystemRowData = {
        kind: 'context-truncated',
        text: `${leftOut} earlier turn${leftOut === 1 ? ' was' : 's were'} removed by retention (rows created before ${isoOf(before)}).`,
        truncation: {
          firstKeptTurnId: kept?.turnId ?? turnId,
          ...(kept === undefined ? {} : { firstKeptSeq: last + 1 }),
          leftOutTurns: leftOut,
          maxTokens: 0,
          keptTokens: 0,
        },
      };
      const json = JSON.stringify(data);
      // The last removed row becomes the sentinel; the removed turns and the rows before it go.
      await trx
        .updateTable('chunks')
        .set({
          turn_id: turnId,
          step: 0,
          role: 'system',
          type: 'system',
          data: sealer === undefined ? json : sealer(last, json),
          created_at: now,
        })
        .where('thread_id', '=', threadId)
        .where('seq', '=', last)
        .execute();
      const deleted = await cutRows(trx, threadId, { before: last }, { updated_at: now });
      return { turns: removed, rows: deleted + 1 };
    },
    { what: 'expire', threadId },
  );
}

/** The thread's turns in seq order, each with its last seq and newest row's time. */
async function turnSpans(trx: Kysely<StoreTables>, threadId: string): Promise<TurnSpan[]> {
  const records = await trx
    .selectFrom('chunks')
    .select((eb) => [
      'turn_id',
      eb.fn.min('seq').as('first'),
      eb.fn.max('seq').as('last'),
      eb.fn.max('created_at').as('at'),
    ])
    .where('thread_id', '=', threadId)
    .groupBy('turn_id')
    .execute();
  return records
    .map((r) => ({
      turnId: asString(r.turn_id),
      first: Number(r.first),
      last: Number(r.last),
      at: Number(r.at),
    }))
    .sort((a, b) => a.first - b.first);
}

/**
 * How many turns an earlier sentinel (at `seq`) recorded as removed: 0 when its data does not
 * read, undefined when the row is not a `context-truncated` system row (a client's turn that only
 * looks like one).
 */
async function sentinelCount(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  threadId: string,
  seq: number,
): Promise<number | undefined> {
  const records = await trx
    .selectFrom('chunks')
    .select(['thread_id', 'seq', 'role', 'type', 'data'])
    .where('thread_id', '=', threadId)
    .where('seq', '=', seq)
    .execute();
  const record = records[0];
  if (record?.role !== 'system' || record.type !== 'system') return undefined;
  await openRecords(ctx.cipher, records);
  const data: unknown = record.data;
  let parsed: SystemRowData;
  try {
    parsed = (typeof data === 'string' ? JSON.parse(data) : data) as SystemRowData;
  } catch {
    return 0;
  }
  if (parsed?.kind !== 'context-truncated') return undefined;
  return parsed.truncation?.leftOutTurns ?? 0;
}

import type { Kysely } from 'kysely';
import { readOptions } from '../../errors/invalid-option.js';
import type { SystemRowData } from '../../schema/chunk-row.js';
import { asJson, asString, isoOf, storedJson } from '../codec.js';
import type { StoreContext } from '../context.js';
import { currentSealer, openRecords, rowSealerFor } from '../encryption/store-cipher.js';
import { threadOrigin } from '../fork-path.js';
import { forgetStates } from '../history/write-state.js';
import { wrapStoreErrors } from '../store-errors.js';
import type { StoreTables } from '../tables.js';
import { selectThread } from '../threads.js';
import { RollbackDecision, writeTransaction } from '../transaction.js';
import type { ExpireOptions, ExpireResult } from '../types.js';
import { checkInstant, checkThreadId, compareCodeUnits, MAX_SEQ } from '../validate.js';
import { cutRows } from './cut-rows.js';
import { type ForkReader, forkReaders, lockedThread, lockOrder } from './expire-readers.js';
import { readOrigin } from './path-rows.js';
import { sentinelTurnId } from './sentinel.js';

/** A turn's extent, as the rows tell it. */
interface TurnSpan {
  readonly turnId: string;
  readonly first: number;
  readonly last: number;
  /** The creation time of its newest row (ms). */
  readonly at: number;
}

/**
 * `ChunkStore.expire`: in each thread (or the one given), the longest run of whole turns from the
 * start of its path whose every row was created before `before` (a running turn stops the run)
 * is removed from the rows it owns; the last row removed becomes a `context-truncated` system
 * row (the sentinel: how many turns were removed, and the first turn kept), and so does the last
 * row a fork reads of the removed ones (its fork point: notes/0121). Threads go owners before
 * their forks, so that a fork's own turns expire behind the rows it reads of its ancestors.
 * Usage is kept; history states and snapshots of the thread, and of every thread whose path
 * reads the rows cut, are dropped (they hold the removed turns). Seqs are not reused: the rows
 * kept keep theirs.
 */
export function expire(ctx: StoreContext, options: ExpireOptions): Promise<ExpireResult> {
  const o = readOptions(options, 'expire', ['before', 'threadId']);
  const before = checkInstant(o.before, 'before', 'expire: `before`', true);
  const only = o.threadId === undefined ? undefined : checkThreadId(o.threadId);
  return wrapStoreErrors('expire', only, async () => {
    const threads =
      only !== undefined
        ? [only]
        : await ownersFirst(
            ctx,
            (
              await ctx.db
                .selectFrom('chunks')
                .select('thread_id')
                .where('created_at', '<', before)
                .groupBy('thread_id')
                .execute()
            ).map((r) => asString(r.thread_id)),
          );
    let turns = 0;
    let rows = 0;
    let changed = 0;
    for (const threadId of threads) {
      const done = await expireThread(ctx, threadId, before);
      if (done.turns > 0) changed++;
      turns += done.turns;
      rows += done.rows;
    }
    // Nothing is left whole for being in a chain of forks any more (notes/0121).
    return { threads: changed, turns, rows, leftWhole: [] };
  });
}

/**
 * The threads in the order they expire in: a thread before any that reads its rows (a reader's
 * path holds the stretches its owners' paths hold, and one more), then by id.
 */
async function ownersFirst(ctx: StoreContext, threads: readonly string[]): Promise<string[]> {
  const depth = new Map<string, number>();
  for (const id of threads) {
    depth.set(id, (await readOrigin(ctx, ctx.db, id))?.origin.ancestors.length ?? 0);
  }
  return [...threads].sort(
    (a, b) => (depth.get(a) ?? 0) - (depth.get(b) ?? 0) || compareCodeUnits(a, b),
  );
}

/** A fork read the thread's rows that was not locked: the attempt starts over. */
class ReadersChanged extends RollbackDecision {}

/** How many times a thread's expiry starts over when a fork of it was made meanwhile. */
const ATTEMPTS = 5;

/** What one thread's expiry removed. */
interface Expired {
  readonly turns: number;
  readonly rows: number;
}

/**
 * Expires one thread's old turns, under the locks of the thread and of every thread whose path
 * reads its rows, taken in {@link lockOrder}. The readers are found before the transaction (the
 * order must be known before the first lock) and again under the locks: a fork made meanwhile
 * (from a reader, under that reader's lock) makes the attempt start over.
 */
async function expireThread(ctx: StoreContext, threadId: string, before: number): Promise<Expired> {
  for (let attempt = 1; ; attempt++) {
    const readers = await forkReaders(ctx.db, threadId);
    try {
      return await writeTransaction(
        ctx,
        (trx) => expireLocked(ctx, trx, threadId, before, readers),
        { what: 'expire', threadId },
      );
    } catch (error) {
      if (!(error instanceof ReadersChanged) || attempt >= ATTEMPTS) throw error;
    }
  }
}

/** A turn's extent on the thread's own rows, and what it is. */
interface OwnSpan extends TurnSpan {
  /** For a sentinel, the turns it recorded as removed; undefined for a turn. */
  readonly counted: number | undefined;
}

async function expireLocked(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  threadId: string,
  before: number,
  expected: readonly ForkReader[],
): Promise<Expired> {
  const self = await readerRow(trx, threadId);
  if (self === undefined) return { turns: 0, rows: 0 };
  for (const t of lockOrder([self, ...expected])) await selectThread(ctx, trx, t.id, true);
  const thread = await selectThread(ctx, trx, threadId, true);
  if (thread === undefined) return { turns: 0, rows: 0 };
  const readers = await forkReaders(trx, threadId);
  const locked = new Set(expected.map((r) => r.id));
  if (readers.some((r) => !locked.has(r.id))) throw new ReadersChanged();
  const origin = threadOrigin(thread);
  // The run starts at the path's start: the rows read of other threads must all be sentinels
  // (their owners expired first), else it ends before this thread's own rows.
  for (const segment of [...origin.ancestors].reverse()) {
    for (const span of await turnSpans(trx, segment.threadId, segment.after, segment.upTo)) {
      if ((await countedBy(ctx, trx, segment.threadId, span)) === undefined) {
        return { turns: 0, rows: 0 };
      }
    }
  }
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
  const run: OwnSpan[] = [];
  let kept: TurnSpan | undefined;
  for (const span of await turnSpans(trx, threadId, origin.forkSeq, MAX_SEQ)) {
    const counted = await countedBy(ctx, trx, threadId, span);
    if (counted === undefined && (span.at >= before || running.has(span.turnId))) {
      kept = span;
      break;
    }
    run.push({ ...span, counted });
  }
  const removed = run.filter((s) => s.counted === undefined).length;
  if (removed === 0) return { turns: 0, rows: 0 };
  const last = (run[run.length - 1] as OwnSpan).last;
  // Every row a fork stops reading at inside the cut becomes a sentinel too: the fork's path
  // ends its reading of this thread there, and must find what stands for the turns removed.
  const points = [
    ...new Set([
      ...readers.flatMap((r) =>
        r.stretches.map((s) => s.upTo).filter((seq) => seq > origin.forkSeq && seq < last),
      ),
      last,
    ]),
  ].sort((a, b) => a - b);
  // The key is fetched under the thread's lock, and only for a thread that loses turns: one
  // fetched before could be made for a thread erased meanwhile, and outlive it. Expiry is a
  // maintenance job, so it can hold the lock for a key provider's round trip.
  const seal = await rowSealerFor(ctx.cipher, threadId);
  const sealer = await currentSealer(ctx.cipher, threadId, seal, thread.key_version);
  const now = ctx.now();
  let rows = 0;
  let from = 0;
  for (const point of points) {
    // The turns this sentinel stands for: those that end after the previous one, up to it.
    const group = run.filter((s) => s.last > from && s.last <= point);
    from = point;
    const alone = group.length === 1 ? group[0] : undefined;
    if (alone?.counted !== undefined && alone.last === point) continue; // unchanged
    const leftOut = group.reduce((n, s) => n + (s.counted ?? 1), 0);
    const turnId = sentinelTurnId(point);
    const next = point === last ? kept : undefined;
    const data: SystemRowData = {
      kind: 'context-truncated',
      text: `${leftOut} earlier turn${leftOut === 1 ? ' was' : 's were'} removed by retention (rows created before ${isoOf(before)}).`,
      truncation: {
        // At a fork point what follows depends on the path read: the sentinel names itself.
        firstKeptTurnId: next?.turnId ?? turnId,
        ...(next === undefined ? {} : { firstKeptSeq: point + 1 }),
        leftOutTurns: leftOut,
        maxTokens: 0,
        keptTokens: 0,
      },
    };
    const json = storedJson(data, ctx.jsonRefuses);
    const updated = await trx
      .updateTable('chunks')
      .set({
        turn_id: turnId,
        step: 0,
        role: 'system',
        type: 'system',
        data: sealer === undefined ? json : sealer(point, json),
        created_at: now,
      })
      .where('thread_id', '=', threadId)
      .where('seq', '=', point)
      .executeTakeFirst();
    const wasSentinel = run.some((s) => s.counted !== undefined && s.last === point);
    if (!wasSentinel) rows += Number(updated.numUpdatedRows);
  }
  // The removed turns and the rows before the last sentinel go, but for the sentinels kept.
  const stamp = await nextStamp(trx, threadId, now);
  rows += await cutRows(trx, threadId, { before: last, keep: points }, { updated_at: stamp });
  // Every thread whose path reads the rows cut loses its history states (they fold the removed
  // turns), and its update time moves: a history state being written from a read made before
  // (notes/0121) sees it under the thread's lock, and is not written.
  for (const reader of readers) {
    if (!reader.stretches.some((s) => s.after < last)) continue;
    await trx.deleteFrom('historyStates').where('thread_id', '=', reader.id).execute();
    await trx.deleteFrom('snapshots').where('thread_id', '=', reader.id).execute();
    await trx
      .updateTable('threads')
      .set({ updated_at: await nextStamp(trx, reader.id, now) })
      .where('id', '=', reader.id)
      .execute();
    forgetStates(ctx, reader.id);
  }
  return { turns: removed, rows };
}

/**
 * The update time a change sets on a thread: now, or just after the time it has when the clock
 * has not moved past it, so that a change is always seen as one.
 */
async function nextStamp(trx: Kysely<StoreTables>, threadId: string, now: number): Promise<number> {
  const row = await trx
    .selectFrom('threads')
    .select('updated_at')
    .where('id', '=', threadId)
    .executeTakeFirst();
  const was = Number(row?.updated_at ?? 0);
  return Number.isFinite(was) && was >= now ? was + 1 : now;
}

/** The lock-order view of a thread (undefined when it does not exist). */
async function readerRow(trx: Kysely<StoreTables>, threadId: string) {
  const row = await trx
    .selectFrom('threads')
    .select(['id', 'parent_id', 'fork_seq', 'fork_path', 'conversation_id'])
    .where('id', '=', threadId)
    .executeTakeFirst();
  return row === undefined ? undefined : lockedThread(row);
}

/**
 * For a sentinel (a single `context-truncated` system row whose turn id is `expired-<its seq>`),
 * the turns it recorded as removed; undefined for any other turn.
 */
async function countedBy(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  threadId: string,
  span: TurnSpan,
): Promise<number | undefined> {
  // A turn id is the client's to choose: only the row expire wrote is a sentinel.
  if (span.turnId !== sentinelTurnId(span.last) || span.first !== span.last) return undefined;
  return await sentinelCount(ctx, trx, threadId, span.last);
}

/**
 * The turns of the thread's rows `after < seq <= upTo` in seq order, each with its last seq and
 * newest row's time.
 */
async function turnSpans(
  trx: Kysely<StoreTables>,
  threadId: string,
  after: number,
  upTo: number,
): Promise<TurnSpan[]> {
  const records = await trx
    .selectFrom('chunks')
    .select((eb) => [
      'turn_id',
      eb.fn.min('seq').as('first'),
      eb.fn.max('seq').as('last'),
      eb.fn.max('created_at').as('at'),
    ])
    .where('thread_id', '=', threadId)
    .where('seq', '>', after)
    .where('seq', '<=', upTo)
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
    parsed = asJson(data) as SystemRowData;
  } catch {
    return 0;
  }
  if (parsed?.kind !== 'context-truncated') return undefined;
  return parsed.truncation?.leftOutTurns ?? 0;
}

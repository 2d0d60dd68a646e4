import type { Kysely } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow, ChunkRowDraft } from '../../schema/chunk-row.js';
import { previewValue } from '../../schema/parse.js';
import { type TurnStatus, TurnStatusSchema } from '../../schema/turn-status.js';
import { asString, decodeRows, storedIso, storedJson, storedRows } from '../codec.js';
import type { StoreContext } from '../context.js';
import {
  NEW_THREAD,
  openRecords,
  type RowSealer,
  rowSealerFor,
} from '../encryption/store-cipher.js';
import { type PathSegment, threadOrigin } from '../fork-path.js';
import { TURN_COLUMNS, type TurnRows, turnStatuses } from '../statements.js';
import { wrapStoreErrors } from '../store-errors.js';
import type { StoreTables, UsageRecord } from '../tables.js';
import { createAndLockThread, type SelectedThread } from '../threads.js';
import { RollbackDecision, writeTransaction } from '../transaction.js';
import type {
  AppendStepsOptions,
  BeginTurnOptions,
  BeginTurnResult,
  EndedTurnStatus,
  FindInterruptedTurnsOptions,
  ListTurnsOptions,
  SetTurnStatusOptions,
  TurnInfo,
} from '../turn-types.js';
import { checkThreadId, checkTurnId } from '../validate.js';
import { checkDrafts } from './append-turn.js';
import { checkFenceOption, requireFence } from './leases.js';
import {
  advanceThreadCreating,
  insertRowsOfNewTurn,
  placedRows,
  sharedTurn,
} from './new-turn-write.js';
import { readOrigin } from './path-rows.js';
import { checkEndedStatus } from './turn-status-row.js';
import { checkSteps, usageRecords } from './usage.js';

/** A `turns` row as selected. */
interface SelectedTurn {
  readonly thread_id: unknown;
  readonly turn_id: unknown;
  readonly status: unknown;
  readonly first_seq: unknown;
  readonly next_seq: unknown;
  readonly created_at: unknown;
  readonly updated_at: unknown;
  readonly holder: unknown;
}

/** The `corrupt-row` error for a turn row whose `column` holds what no turn can have. */
function corruptTurn(record: SelectedTurn, column: string, value: unknown, meaning: string) {
  const threadId = asString(record.thread_id);
  return new ChunklogError(
    'corrupt-row',
    `The row of turn ${JSON.stringify(asString(record.turn_id))} of thread ${JSON.stringify(threadId)} is corrupt: ${column} ${previewValue(value)} is not ${meaning}.`,
    { threadId },
  );
}

/** A stored timestamp of a turn row as ISO 8601; `corrupt-row` when it holds no time. */
function turnTime(record: SelectedTurn, column: 'created_at' | 'updated_at'): string {
  const iso = storedIso(record[column]);
  if (iso === undefined) throw corruptTurn(record, column, record[column], 'a time');
  return iso;
}

/** A stored seq of a turn row; `corrupt-row` when it is not one. */
function turnSeq(record: SelectedTurn, column: 'first_seq' | 'next_seq'): number {
  const seq = Number(record[column]);
  if (record[column] === null || !Number.isSafeInteger(seq) || seq < 1) {
    throw corruptTurn(record, column, record[column], 'a seq (an integer of at least 1)');
  }
  return seq;
}

/**
 * A turn row as a {@link TurnInfo}.
 *
 * @throws {ChunklogError} `corrupt-row` naming the thread and turn, for a time or seq column
 *   that holds none
 */
function toTurnInfo(record: SelectedTurn): TurnInfo {
  const parsed = TurnStatusSchema.safeParse(asString(record.status));
  return {
    threadId: asString(record.thread_id),
    turnId: asString(record.turn_id),
    status: parsed.success ? parsed.data : 'completed',
    firstSeq: turnSeq(record, 'first_seq'),
    nextSeq: turnSeq(record, 'next_seq'),
    startedAt: turnTime(record, 'created_at'),
    updatedAt: turnTime(record, 'updated_at'),
    holder: record.holder === null || record.holder === undefined ? null : asString(record.holder),
  };
}

/** A turn's status row (one primary-key read), if it has one. */
export async function selectTurn(
  db: Kysely<StoreTables>,
  threadId: string,
  turnId: string,
): Promise<SelectedTurn | undefined> {
  return await db
    .selectFrom('turns')
    .select(TURN_COLUMNS)
    .where('thread_id', '=', threadId)
    .where('turn_id', '=', turnId)
    .executeTakeFirst();
}

/** `ChunkStore.beginTurn`: see there. */
export function beginTurn(
  ctx: StoreContext,
  threadId: string,
  drafts: readonly ChunkRowDraft[],
  options?: BeginTurnOptions,
): Promise<BeginTurnResult> {
  checkThreadId(threadId);
  const o = readOptions(options, 'beginTurn', ['fence']);
  const fence = checkFenceOption(o.fence);
  const checked = checkDrafts(drafts, ctx.redactor);
  const turnId = checked[0]?.turnId;
  if (turnId === undefined) {
    throw new ChunklogError(
      'invalid-row',
      "beginTurn needs the turn's first rows (the user's message).",
      { value: drafts },
    );
  }
  const data = checked.map((d) => storedJson(d.data, ctx.jsonRefuses));
  return wrapStoreErrors('beginTurn', threadId, async () => {
    const seal = await rowSealerFor(ctx.cipher, threadId);
    // PostgreSQL: a new turn in 4 round trips (BEGIN, the thread's advance, one statement for
    // the rows, the turn-id check and the turn's row, COMMIT; see beginNewTurn); a turn found
    // begun or stored rolls that back and is read by the checking write below.
    if (ctx.adapter.writableCte && ctx.adapter.updateReturning) {
      try {
        return await writeTransaction(
          ctx,
          (trx) => beginNewTurn(ctx, trx, threadId, turnId, checked, data, seal, fence),
          { what: 'beginTurn', threadId },
        );
      } catch (error) {
        if (!(error instanceof TurnBegunAlready)) throw error;
      }
    }
    return await writeTransaction(
      ctx,
      async (trx): Promise<BeginTurnResult> => {
        const now = ctx.now();
        const locked = (await ctx.statements.lockThread.execute(trx, [threadId])).rows[0];
        const thread: SelectedThread =
          locked ?? (await createAndLockThread(ctx, trx, threadId, now));
        if (fence !== undefined) await requireFence(ctx, trx, threadId, fence, now);
        const existing = await selectTurn(trx, threadId, turnId);
        const stored = (await ctx.statements.turnRows.execute(trx, [threadId, turnId])).rows;
        if (existing !== undefined || stored.length > 0) {
          await openRecords(ctx.cipher, stored);
          return {
            created: false,
            status: existing === undefined ? 'completed' : toTurnInfo(existing).status,
            rows: decodeRows(threadId, stored, 'throw'),
          };
        }
        // A turn of a fork's shared stretches: begun (and stored) in the thread that holds it.
        const shared = await sharedTurn(ctx, trx, threadOrigin(thread), turnId);
        if (shared !== undefined) {
          const held = await selectTurn(trx, shared.holder, turnId);
          return {
            created: false,
            status: held === undefined ? 'completed' : toTurnInfo(held).status,
            rows: decodeRows(threadId, shared.rows, 'throw'),
          };
        }
        const first = Number(thread.next_seq);
        const next = first + checked.length;
        const keyVersion = locked === undefined ? NEW_THREAD : thread.key_version;
        const turn = { threadId, turnId, drafts: checked, data, seal };
        await ctx.statements.insertRows(trx, await placedRows(ctx, turn, keyVersion, first, now));
        await trx
          .insertInto('turns')
          .values(runningTurnRow(threadId, turnId, first, next, now, fence))
          .execute();
        await ctx.statements.advanceThread.execute(trx, [next, now, threadId]);
        return {
          created: true,
          status: 'running',
          rows: storedRows(threadId, turnId, first, checked, data, now),
        };
      },
      { what: 'beginTurn', threadId },
    );
  });
}

/** Thrown by {@link beginNewTurn} when the turn exists: roll back, read it. */
class TurnBegunAlready extends RollbackDecision {}

/** The row of a turn that begins: `running`, its rows at `[first, next)`, held by the fence's holder. */
function runningTurnRow(
  threadId: string,
  turnId: string,
  first: number,
  next: number,
  now: number,
  fence: ReturnType<typeof checkFenceOption>,
) {
  return {
    thread_id: threadId,
    turn_id: turnId,
    status: 'running',
    first_seq: first,
    next_seq: next,
    created_at: now,
    updated_at: now,
    holder: fence?.holder ?? null,
  };
}

/**
 * beginTurn of a turn that is most likely new, on PostgreSQL: the thread locked and advanced by
 * one `UPDATE … RETURNING`, then one statement that inserts the rows and the turn's row (unless
 * it exists) and reads whether rows of the turn were stored before (two statements when the rows
 * do not fit one prepared insert). A turn found throws {@link TurnBegunAlready}.
 */
async function beginNewTurn(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  threadId: string,
  turnId: string,
  checked: readonly ChunkRowDraft[],
  data: readonly string[],
  seal: RowSealer | undefined,
  fence: ReturnType<typeof checkFenceOption>,
): Promise<BeginTurnResult> {
  const now = ctx.now();
  const count = checked.length;
  const { first, origin, keyVersion } = await advanceThreadCreating(ctx, trx, threadId, count, now);
  if (await sharedTurn(ctx, trx, origin, turnId)) throw new TurnBegunAlready();
  const next = first + count;
  if (fence !== undefined) await requireFence(ctx, trx, threadId, fence, now);
  const turnRow = runningTurnRow(threadId, turnId, first, next, now, fence);
  const turn = { threadId, turnId, drafts: checked, data, seal };
  const rows = await placedRows(ctx, turn, keyVersion, first, now);
  // One statement where it fits: the rows, the check for rows stored before, the turn's row.
  const all = ctx.statements.insertRowsThen(trx, rows, {
    beginTurn: TURN_COLUMNS.map((column) => turnRow[column]),
  });
  if (all !== undefined) {
    const row = (await all).rows[0];
    const storedBefore = row?.turn_first !== null && row?.turn_first !== undefined;
    if (storedBefore || Number(row?.begun) !== 1) throw new TurnBegunAlready();
  } else {
    if (await insertRowsOfNewTurn(ctx, trx, rows)) throw new TurnBegunAlready();
    const inserted = await trx
      .insertInto('turns')
      .values(turnRow)
      .onConflict((oc) => oc.columns(['thread_id', 'turn_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw new TurnBegunAlready();
  }
  return {
    created: true,
    status: 'running',
    rows: storedRows(threadId, turnId, first, checked, data, now),
  };
}

function notRunning(threadId: string, turnId: string, why: string): ChunklogError {
  return new ChunklogError(
    'turn-not-running',
    `Turn ${JSON.stringify(turnId)} of thread ${JSON.stringify(threadId)} is not running: ${why}.`,
    { threadId, value: turnId },
  );
}

/**
 * Writes rows to a running turn, right after its rows so far, and maybe ends it: the body of
 * `appendSteps` and `setTurnStatus`.
 *
 * Few round trips (issue 11's bench limit): where the dialect has `UPDATE … RETURNING`, the
 * thread is locked and advanced by one statement, which returns where the rows start; the turn
 * is not read but advanced by a conditional update (running, and its rows last in the thread),
 * and on PostgreSQL that update and the rows' insert are one statement. Only when the update
 * matches no turn is the turn read, to say why the write is refused (the transaction is then
 * rolled back, the thread's advance with it).
 */
function writeSteps(
  ctx: StoreContext,
  what: string,
  threadId: string,
  turnId: string,
  checked: readonly ChunkRowDraft[],
  status: EndedTurnStatus | undefined,
  fence: ReturnType<typeof checkFenceOption>,
  needInfo: boolean,
  usage: readonly UsageRecord[] = [],
): Promise<{ rows: ChunkRow[]; info: TurnInfo | undefined }> {
  const data = checked.map((d) => storedJson(d.data, ctx.jsonRefuses));
  const count = checked.length;
  return wrapStoreErrors(what, threadId, async () => {
    const seal = count > 0 ? await rowSealerFor(ctx.cipher, threadId) : undefined;
    return await writeTransaction(
      ctx,
      async (trx) => {
        const { statements, adapter } = ctx;
        const now = ctx.now();
        // Lock the thread (advancing it where one statement can) and learn where the rows start.
        const advanced = count > 0 && adapter.updateReturning;
        let first: number;
        let keyVersion: unknown;
        if (advanced) {
          const row = (await statements.advanceThreadBy.execute(trx, [count, now, threadId]))
            .rows[0];
          if (row === undefined) throw notRunning(threadId, turnId, 'the thread does not exist');
          first = Number(row.next_seq) - count;
          keyVersion = row.key_version;
        } else {
          const thread = (await statements.lockThread.execute(trx, [threadId])).rows[0];
          if (thread === undefined) throw notRunning(threadId, turnId, 'the thread does not exist');
          first = Number(thread.next_seq);
          keyVersion = thread.key_version;
        }
        if (fence !== undefined) await requireFence(ctx, trx, threadId, fence, now);
        const next = first + count;
        const ended = status ?? 'running';
        let inserted = false;
        let matched: boolean;
        let rows: TurnRows | undefined;
        if (count === 0) {
          const result = await statements.endTurn.execute(trx, [
            next,
            ended,
            now,
            threadId,
            turnId,
          ]);
          matched = Number(result.numAffectedRows ?? 0) > 0;
        } else {
          const turnArgs = [next, ended, now, threadId, turnId, first];
          const turn = { threadId, turnId, drafts: checked, data, seal };
          rows = await placedRows(ctx, turn, keyVersion, first, now);
          const both = statements.insertRowsThen(trx, rows, { advanceTurn: turnArgs });
          const result = await (both ?? statements.advanceTurn.execute(trx, turnArgs));
          inserted = both !== undefined;
          matched = Number(result.numAffectedRows ?? 0) > 0;
        }
        if (!matched) {
          // Why not: the turn is missing, not running or not last. Or, on a MySQL connection
          // that counts changed rows rather than matched ones, nothing changed (no rows added,
          // same status, same millisecond): then the write is right as it is.
          const turn = await selectTurn(trx, threadId, turnId);
          if (turn === undefined) throw notRunning(threadId, turnId, 'it was never begun');
          const info = toTurnInfo(turn);
          if (info.status !== 'running') throw notRunning(threadId, turnId, `it is ${info.status}`);
          if (count > 0 && first !== info.nextSeq) {
            throw notRunning(
              threadId,
              turnId,
              `rows of another turn were stored after its rows (seq ${info.nextSeq} onwards), so its rows would no longer be contiguous; was the thread written without its lease?`,
            );
          }
          if (count > 0 || info.nextSeq !== next) {
            // A turn that matches must have been updated: nothing here can explain it.
            throw new Error(`the turn ${JSON.stringify(turnId)} matched but was not updated`);
          }
        }
        // The rows, when the step has any (not inserted with the turn's advance above).
        if (rows !== undefined) {
          if (!inserted) await statements.insertRows(trx, rows);
          if (!advanced) await statements.advanceThread.execute(trx, [next, now, threadId]);
        }
        await ctx.statements.insertUsage(trx, usage);
        let info: TurnInfo | undefined;
        if (needInfo) {
          const turn = await selectTurn(trx, threadId, turnId);
          if (turn === undefined) throw new Error('the turn vanished while it was written');
          info = toTurnInfo(turn);
        }
        return { rows: storedRows(threadId, turnId, first, checked, data, now), info };
      },
      { what, threadId },
    );
  });
}

/** `ChunkStore.appendSteps`: see there. */
export async function appendSteps(
  ctx: StoreContext,
  threadId: string,
  turnId: string,
  drafts: readonly ChunkRowDraft[],
  options?: AppendStepsOptions,
): Promise<ChunkRow[]> {
  checkThreadId(threadId);
  checkTurnId(turnId);
  const o = readOptions(options, 'appendSteps', ['status', 'fence', 'usage']);
  const status = o.status === undefined ? undefined : checkEndedStatus(o.status, 'status');
  const fence = checkFenceOption(o.fence);
  const steps = o.usage === undefined ? [] : checkSteps(o.usage, 'usage');
  const usage = usageRecords(threadId, turnId, steps, ctx.now());
  const checked = checkDrafts(drafts, ctx.redactor);
  const other = checked.findIndex((d) => d.turnId !== turnId);
  if (other !== -1) {
    throw new ChunklogError(
      'invalid-row',
      `Draft ${other} belongs to turn ${JSON.stringify(checked[other]?.turnId)}, not ${JSON.stringify(turnId)}.`,
      { path: [other, 'turnId'], value: checked[other]?.turnId },
    );
  }
  return (
    await writeSteps(ctx, 'appendSteps', threadId, turnId, checked, status, fence, false, usage)
  ).rows;
}

/** `ChunkStore.setTurnStatus`: see there. */
export async function setTurnStatus(
  ctx: StoreContext,
  threadId: string,
  turnId: string,
  status: EndedTurnStatus,
  options?: SetTurnStatusOptions,
): Promise<TurnInfo> {
  checkThreadId(threadId);
  checkTurnId(turnId);
  const ended = checkEndedStatus(status, 'status');
  const o = readOptions(options, 'setTurnStatus', ['fence']);
  const fence = checkFenceOption(o.fence);
  const { info } = await writeSteps(ctx, 'setTurnStatus', threadId, turnId, [], ended, fence, true);
  return info as TurnInfo;
}

/**
 * `ChunkStore.getTurnInfo`: see there. A turn of a fork's shared stretch is found in the thread
 * that holds its rows, and described with the fork's id.
 */
export function getTurnInfo(
  ctx: StoreContext,
  threadId: string,
  turnId: string,
): Promise<TurnInfo | null> {
  checkThreadId(threadId);
  checkTurnId(turnId);
  return wrapStoreErrors('getTurnInfo', threadId, async () => {
    const own = await turnInfoIn(ctx, threadId, turnId);
    if (own !== null) return own;
    const thread = await readOrigin(ctx, ctx.db, threadId);
    for (const segment of thread?.origin.ancestors ?? []) {
      const info = await turnInfoIn(ctx, segment.threadId, turnId);
      if (info !== null && info.firstSeq > segment.after && info.firstSeq <= segment.upTo) {
        return { ...info, threadId };
      }
    }
    return null;
  });
}

/** A turn of the rows stored under `threadId` (its status row, or the span of its rows), or null. */
async function turnInfoIn(
  ctx: StoreContext,
  threadId: string,
  turnId: string,
): Promise<TurnInfo | null> {
  const turn = await selectTurn(ctx.db, threadId, turnId);
  if (turn !== undefined) return toTurnInfo(turn);
  // A turn sealed by appendTurn without a status (or before migration 0002): completed.
  const span = await ctx.db
    .selectFrom('chunks')
    .select((eb) => [
      eb.fn.min('seq').as('first_seq'),
      eb.fn.max('seq').as('last_seq'),
      eb.fn.min('created_at').as('created_at'),
      eb.fn.max('created_at').as('updated_at'),
    ])
    .where('thread_id', '=', threadId)
    .where('turn_id', '=', turnId)
    .executeTakeFirst();
  if (span === undefined || span.first_seq === null || span.first_seq === undefined) return null;
  // Its rows may have been committed, with a status, between the two reads (a turn's rows and
  // its status are written in one transaction): now that they are seen, so is its status.
  const written = await selectTurn(ctx.db, threadId, turnId);
  if (written !== undefined) return toTurnInfo(written);
  const startedAt = storedIso(span.created_at);
  const updatedAt = storedIso(span.updated_at);
  if (startedAt === undefined || updatedAt === undefined) {
    const value = startedAt === undefined ? span.created_at : span.updated_at;
    throw new ChunklogError(
      'corrupt-row',
      `A row of turn ${JSON.stringify(turnId)} of thread ${JSON.stringify(threadId)} is corrupt: its created_at ${previewValue(value)} is not a time.`,
      { threadId },
    );
  }
  return {
    threadId,
    turnId,
    status: 'completed',
    firstSeq: Number(span.first_seq),
    nextSeq: Number(span.last_seq) + 1,
    startedAt,
    updatedAt,
    holder: null,
  };
}

/**
 * `ChunkStore.listTurns`: see there. A fork lists the turns of its shared stretches (those that
 * begin in them, from the threads that hold their rows) before its own, all with its id.
 */
export function listTurns(
  ctx: StoreContext,
  threadId: string,
  options?: ListTurnsOptions,
): Promise<TurnInfo[]> {
  checkThreadId(threadId);
  const o = readOptions(options, 'listTurns', ['status']);
  let status: TurnStatus | undefined;
  if (o.status !== undefined) {
    const parsed = TurnStatusSchema.safeParse(o.status);
    if (!parsed.success) {
      throw new ChunklogError('invalid-option', 'listTurns: `status` must be a turn status.', {
        option: 'status',
        value: o.status,
      });
    }
    status = parsed.data;
  }
  return wrapStoreErrors('listTurns', threadId, async () => {
    const thread = await readOrigin(ctx, ctx.db, threadId);
    const stretches: Array<{ threadId: string; after: number; upTo: number | undefined }> = [
      ...[...(thread?.origin.ancestors ?? [])].reverse(),
      { threadId, after: thread?.origin.forkSeq ?? 0, upTo: undefined },
    ];
    const turns: TurnInfo[] = [];
    for (const stretch of stretches) {
      const records = await ctx.db
        .selectFrom('turns')
        .select(TURN_COLUMNS)
        .where('thread_id', '=', stretch.threadId)
        .where('first_seq', '>', stretch.after)
        .$if(stretch.upTo !== undefined, (qb) =>
          qb.where('first_seq', '<=', stretch.upTo as number),
        )
        .$if(status !== undefined, (qb) => qb.where('status', '=', status as string))
        .orderBy('first_seq')
        .execute();
      for (const record of records) turns.push({ ...toTurnInfo(record), threadId });
    }
    return turns;
  });
}

/** The most turns one `findInterruptedTurns` call returns. */
export const MAX_INTERRUPTED_TURNS = 1000;

/** `ChunkStore.findInterruptedTurns`: see there. */
export function findInterruptedTurns(
  ctx: StoreContext,
  options?: FindInterruptedTurnsOptions,
): Promise<TurnInfo[]> {
  const o = readOptions(options, 'findInterruptedTurns', ['limit']);
  const limit = o.limit ?? 100;
  if (
    !Number.isSafeInteger(limit) ||
    (limit as number) < 1 ||
    (limit as number) > MAX_INTERRUPTED_TURNS
  ) {
    throw new ChunklogError(
      'invalid-option',
      `findInterruptedTurns: \`limit\` must be an integer from 1 to ${MAX_INTERRUPTED_TURNS}.`,
      { option: 'limit', value: o.limit },
    );
  }
  return wrapStoreErrors('findInterruptedTurns', undefined, async () => {
    const now = ctx.now();
    const records = await ctx.db
      .selectFrom('turns')
      .leftJoin('leases', 'leases.thread_id', 'turns.thread_id')
      .select(TURN_COLUMNS.map((column) => `turns.${column}` as const))
      .where('turns.status', '=', 'running')
      // No live writer: the thread's lease is missing, or expired.
      .where((eb) =>
        eb.or([eb('leases.expires_at', 'is', null), eb('leases.expires_at', '<=', now)]),
      )
      .orderBy('turns.updated_at')
      .orderBy('turns.thread_id')
      .limit(limit as number)
      .execute();
    return records.map((record) => toTurnInfo(record as SelectedTurn));
  });
}

/**
 * The status of each turn of a seq range that is not `completed`, by turn id: the turns a page's
 * reader must tell apart (a running turn's stored part, a failed or cancelled turn). One prepared
 * query on the turns table's primary key prefix.
 */
export async function openTurnsIn(
  ctx: StoreContext,
  threadId: string,
  oldestSeq: number,
  newestSeq: number,
  ancestors: readonly PathSegment[] = [],
): Promise<Record<string, TurnStatus>> {
  const records = (await ctx.statements.openTurns.execute(ctx.db, [threadId, newestSeq, oldestSeq]))
    .rows;
  let statuses = turnStatuses(records) ?? {};
  // A fork's shared stretches: their turns, from the threads that hold their rows.
  for (const s of ancestors) {
    if (s.upTo <= oldestSeq || s.after >= newestSeq) continue;
    const shared = (
      await ctx.statements.openTurns.execute(ctx.db, [
        s.threadId,
        Math.min(newestSeq, s.upTo),
        Math.max(oldestSeq, s.after),
      ])
    ).rows;
    statuses = { ...turnStatuses(shared), ...statuses };
  }
  return statuses;
}

import type { Kysely } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import type { ChunkRow, ChunkRowDraft } from '../../schema/chunk-row.js';
import { parseChunkRowDraft } from '../../schema/parse.js';
import { firstNonSystem } from '../../schema/system-message.js';
import { exactDraft } from '../../transforms/exact-row.js';
import { redactDrafts } from '../../transforms/redact-fields.js';
import type { Redactor } from '../../transforms/redactor.js';
import { decodeRows, storedJson, storedRows } from '../codec.js';
import type { StoreContext } from '../context.js';
import {
  NEW_THREAD,
  openRecords,
  type RowSealer,
  rowSealerFor,
} from '../encryption/store-cipher.js';
import { threadOrigin } from '../fork-path.js';
import { wrapStoreErrors } from '../store-errors.js';
import type { StoreTables, UsageRecord } from '../tables.js';
import { createAndLockThread, insertThreadIfAbsent, type SelectedThread } from '../threads.js';
import { RollbackDecision, writeTransaction } from '../transaction.js';
import type { EndedTurnStatus, LeaseFence } from '../turn-types.js';
import type { AppendTurnOptions } from '../types.js';
import { checkFirstSeq, checkInstant, checkThreadId, idProblem, MAX_SEQ } from '../validate.js';
import { checkFenceOption, requireFence } from './leases.js';
import {
  advanceThreadCreating,
  insertRowsOfNewTurn,
  placedRows,
  sharedTurn,
} from './new-turn-write.js';
import { checkEndedStatus, recordSealedStatus } from './turn-status-row.js';
import { checkSteps, usageRecords } from './usage.js';

/**
 * Validates a turn's drafts before anything is written: each against its schema, one turn id
 * for all of them, and an id every dialect can store. With the store's `redact`, the drafts are
 * then redacted (and a `redacted` system draft follows them when anything was replaced).
 *
 * @throws {ChunklogError} `invalid-row` naming the draft and the offending path
 */
export function checkDrafts(
  drafts: readonly ChunkRowDraft[],
  redactor?: Redactor,
): ChunkRowDraft[] {
  if (!Array.isArray(drafts)) {
    throw new ChunklogError('invalid-row', 'appendTurn needs an array of row drafts.', {
      value: drafts,
    });
  }
  const checked: ChunkRowDraft[] = [];
  for (let i = 0; i < drafts.length; i++) {
    let draft: ChunkRowDraft;
    try {
      draft = exactDraft(drafts[i]) ?? parseChunkRowDraft(drafts[i]);
    } catch (error) {
      if (!ChunklogError.isInstance(error)) throw error;
      throw new ChunklogError('invalid-row', `Draft ${i} of the turn: ${error.message}`, {
        path: [i, ...(error.path ?? [])],
        value: error.value,
        cause: error.cause,
      });
    }
    const first = checked[0];
    if (first !== undefined && draft.turnId !== first.turnId) {
      throw new ChunklogError(
        'invalid-row',
        `Draft ${i} belongs to turn ${JSON.stringify(draft.turnId)}, but the turn being appended is ${JSON.stringify(first.turnId)}: one appendTurn stores one turn.`,
        { path: [i, 'turnId'], value: draft.turnId },
      );
    }
    if (first === undefined) {
      const problem = idProblem(draft.turnId);
      if (problem !== undefined) {
        throw new ChunklogError('invalid-row', `The turn id ${problem}.`, {
          path: [i, 'turnId'],
          value: draft.turnId,
        });
      }
    }
    if (draft.role === 'system' && firstNonSystem([draft.type]) !== -1) {
      throw new ChunklogError(
        'invalid-row',
        `Draft ${i} is a ${draft.type} row of role system: a system message holds only system rows.`,
        { path: [i, 'type'], value: draft.type },
      );
    }
    checked.push(draft);
  }
  return redactor === undefined ? checked : [...redactDrafts(checked, redactor)];
}

/**
 * The milliseconds of an `appendTurn` `createdAt` option, or undefined for none.
 *
 * @throws {ChunklogError} `invalid-option` (`createdAt`) for anything but a valid `Date` or ISO
 *   8601 date-time with a time zone
 */
export function checkCreatedAt(value: unknown): number | undefined {
  return value === undefined ? undefined : checkInstant(value, 'createdAt', 'createdAt', false);
}

/**
 * Thrown inside the fast write when the turn turns out to be stored already (a retry): the
 * transaction is rolled back and the turn read by the checking write.
 */
class TurnStoredAlready extends RollbackDecision {}

/** `ChunkStore.appendTurn`: see there. */
export function appendTurn(
  ctx: StoreContext,
  threadId: string,
  drafts: readonly ChunkRowDraft[],
  options?: AppendTurnOptions,
): Promise<ChunkRow[]> {
  checkThreadId(threadId);
  const o = readOptions(options, 'appendTurn', [
    'createdAt',
    'status',
    'firstSeq',
    'fence',
    'usage',
  ]);
  const fence = checkFenceOption(o.fence);
  const status = o.status === undefined ? undefined : checkEndedStatus(o.status, 'status');
  const stamp = checkCreatedAt(o.createdAt);
  const checked = checkDrafts(drafts, ctx.redactor);
  const firstSeq = o.firstSeq === undefined ? undefined : checkFirstSeq(o.firstSeq);
  if (firstSeq !== undefined && firstSeq + checked.length > MAX_SEQ) {
    throw new ChunklogError(
      'invalid-option',
      `appendTurn: firstSeq ${firstSeq} leaves no room for the turn's ${checked.length} rows (the thread's next seq must stay at most ${MAX_SEQ}).`,
      { option: 'firstSeq', value: firstSeq },
    );
  }
  const turnId = checked[0]?.turnId;
  const steps = o.usage === undefined ? [] : checkSteps(o.usage, 'usage');
  // Serialize before the transaction: the lock is held for as short a time as possible.
  const data = checked.map((d) => storedJson(d.data, ctx.jsonRefuses));
  const usage = turnId === undefined ? [] : usageRecords(threadId, turnId, steps, ctx.now());
  const options_ = { what: 'appendTurn', threadId, idempotent: true };
  // Under a row lock (PostgreSQL, MySQL) the turn-id check is folded into the write; where the
  // lock comes first (SQLite's BEGIN IMMEDIATE) the thread's read already holds it.
  // A turn placed at a given seq is rare (an import): it takes the checking write.
  const folded = turnId !== undefined && !ctx.adapter.checkTurnWithLock && firstSeq === undefined;
  return wrapStoreErrors('appendTurn', threadId, async () => {
    const seal = turnId === undefined ? undefined : await rowSealerFor(ctx.cipher, threadId);
    const write: AppendWrite = {
      threadId,
      turnId,
      checked,
      data,
      seal,
      stamp,
      status,
      firstSeq,
      fence,
      usage,
    };
    if (folded) {
      try {
        return await writeTransaction(ctx, (trx) => writeNewTurn(ctx, trx, write), options_);
      } catch (error) {
        if (!(error instanceof TurnStoredAlready)) throw error;
      }
    }
    return await writeTransaction(ctx, (trx) => writeCheckingFirst(ctx, trx, write), options_);
  });
}

/** One appendTurn's checked input. */
interface AppendWrite {
  readonly threadId: string;
  readonly turnId: string | undefined;
  readonly checked: readonly ChunkRowDraft[];
  readonly data: readonly string[];
  /** Seals the data for storing, when the store encrypts. */
  readonly seal: RowSealer | undefined;
  readonly stamp: number | undefined;
  readonly status: EndedTurnStatus | undefined;
  /** The seq the turn's first row takes (the `firstSeq` option), else the thread's next. */
  readonly firstSeq: number | undefined;
  readonly fence: LeaseFence | undefined;
  /** The turn's step usage, stored with its rows. */
  readonly usage: readonly UsageRecord[];
}

/**
 * appendTurn of a turn that is most likely new, with the turn-id check folded into the write:
 * PostgreSQL locks and advances the thread by one `UPDATE … RETURNING`, then inserts the rows in
 * a statement that also reads whether the turn was stored before (its `WITH` does not see its own
 * rows); MySQL locks the thread, inserts the rows and advances the thread only if no row of the
 * turn lies below the new ones (affected rows tell). A turn found stored throws
 * {@link TurnStoredAlready}: everything is rolled back and {@link writeCheckingFirst} returns it.
 */
async function writeNewTurn(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  w: AppendWrite,
): Promise<ChunkRow[]> {
  const { statements, adapter } = ctx;
  const { threadId, checked, data } = w;
  const turnId = w.turnId as string;
  const turn = { threadId, turnId, drafts: checked, data, seal: w.seal };
  const now = ctx.now();
  const count = checked.length;
  const rowsAt = w.stamp ?? now;
  let first: number;
  if (adapter.updateReturning) {
    const advanced = await advanceThreadCreating(ctx, trx, threadId, count, now);
    first = advanced.first;
    if (await sharedTurn(ctx, trx, advanced.origin, turnId)) throw new TurnStoredAlready();
    if (w.fence !== undefined) await requireFence(ctx, trx, threadId, w.fence, now);
    const rows = await placedRows(ctx, turn, advanced.keyVersion, first, rowsAt);
    if (await insertRowsOfNewTurn(ctx, trx, rows)) throw new TurnStoredAlready();
  } else {
    let thread = (await statements.lockThread.execute(trx, [threadId])).rows[0];
    let keyVersion: unknown = thread?.key_version;
    if (thread === undefined) {
      await insertThreadIfAbsent(ctx, trx, { id: threadId, now, nextSeq: 1, metadata: undefined });
      thread = (await statements.lockThread.execute(trx, [threadId])).rows[0];
      if (thread === undefined) throw new Error('the thread row vanished while it was created');
      keyVersion = NEW_THREAD;
    }
    first = Number(thread.next_seq);
    if (await sharedTurn(ctx, trx, threadOrigin(thread), turnId)) throw new TurnStoredAlready();
    if (w.fence !== undefined) await requireFence(ctx, trx, threadId, w.fence, now);
    await statements.insertRows(trx, await placedRows(ctx, turn, keyVersion, first, rowsAt));
    const args = [first + count, now, threadId, threadId, turnId, first];
    const advanced = await statements.advanceThreadIfNew.execute(trx, args);
    if (Number(advanced.numAffectedRows ?? 0) === 0) throw new TurnStoredAlready();
  }
  if (w.status !== undefined) {
    const next = first + count;
    await recordSealedStatus(trx, { threadId, turnId, first, next, now }, w.status);
  }
  await ctx.statements.insertUsage(trx, w.usage);
  return storedRows(threadId, turnId, first, checked, data, rowsAt);
}

/**
 * appendTurn that checks the turn id before writing: on SQLite (where the check is part of the
 * thread's read), for an empty turn, and after {@link writeNewTurn} found the turn stored.
 */
async function writeCheckingFirst(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  w: AppendWrite,
): Promise<ChunkRow[]> {
  const { statements } = ctx;
  const { threadId, turnId, checked, data, fence } = w;
  const now = ctx.now();
  const oneStatement = ctx.adapter.checkTurnWithLock && turnId !== undefined;
  let thread: (SelectedThread & { readonly turn_first?: unknown }) | undefined = oneStatement
    ? (await statements.threadAndTurn.execute(trx, [threadId, turnId, threadId])).rows[0]
    : (await statements.lockThread.execute(trx, [threadId])).rows[0];
  // Whether rows of this turn may be stored already (a retry): unknown unless the thread
  // row was read with the turn check, under a lock taken before the read.
  let mayHoldTurn = true;
  let keyVersion: unknown = thread?.key_version;
  if (thread === undefined) {
    thread = await createAndLockThread(ctx, trx, threadId, now);
    keyVersion = NEW_THREAD;
  } else if (oneStatement && thread.turn_first === null) {
    mayHoldTurn = false;
  }
  if (fence !== undefined) await requireFence(ctx, trx, threadId, fence, now);
  if (turnId === undefined) return [];
  if (mayHoldTurn) {
    const stored = (await statements.turnRows.execute(trx, [threadId, turnId])).rows;
    if (stored.length > 0) {
      await openRecords(ctx.cipher, stored);
      return decodeRows(threadId, stored, 'throw');
    }
  }
  // A turn of a fork's shared stretches: a retry of a turn the fork already holds.
  const shared = await sharedTurn(ctx, trx, threadOrigin(thread), turnId);
  if (shared !== undefined) return decodeRows(threadId, shared.rows, 'throw');

  // The rows get the given time (an import) or now; the thread's activity is now either way.
  const rowsAt = w.stamp ?? now;
  const first = placedAt(w.firstSeq, Number(thread.next_seq));
  const turn = { threadId, turnId, drafts: checked, data, seal: w.seal };
  await statements.insertRows(trx, await placedRows(ctx, turn, keyVersion, first, rowsAt));
  await statements.advanceThread.execute(trx, [first + checked.length, now, threadId]);
  if (w.status !== undefined) {
    const next = first + checked.length;
    await recordSealedStatus(trx, { threadId, turnId, first, next, now }, w.status);
  }
  await ctx.statements.insertUsage(trx, w.usage);
  return storedRows(threadId, turnId, first, checked, data, rowsAt);
}

/**
 * The seq a turn's first row takes: the thread's next seq, or `firstSeq` when given and not
 * below it.
 *
 * @throws {ChunklogError} `invalid-option` (`firstSeq`) below the thread's next seq
 */
function placedAt(firstSeq: number | undefined, next: number): number {
  if (firstSeq === undefined) return next;
  if (firstSeq < next) {
    throw new ChunklogError(
      'invalid-option',
      `appendTurn: firstSeq ${firstSeq} is below the thread's next seq (${next}): a turn can only be placed after the rows stored.`,
      { option: 'firstSeq', value: firstSeq },
    );
  }
  return firstSeq;
}

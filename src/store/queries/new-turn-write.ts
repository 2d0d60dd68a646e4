import type { Kysely } from 'kysely';
import type { ChunkRowDraft } from '../../schema/chunk-row.js';
import type { SelectedRow } from '../codec.js';
import type { StoreContext } from '../context.js';
import { NEW_THREAD, type RowSealer, sealedData } from '../encryption/store-cipher.js';
import { type ThreadOrigin, threadOrigin } from '../fork-path.js';
import type { TurnRows } from '../statements.js';
import type { StoreTables } from '../tables.js';
import { insertThreadIfAbsent } from '../threads.js';
import { pathTurnRows } from './path-rows.js';

/**
 * Locks the thread and moves its `next_seq` on by `count` in one `UPDATE … RETURNING` (where the
 * dialect has it: `adapter.updateReturning`), creating the thread first when it does not exist.
 *
 * @returns the first seq of the `count` seqs taken, where the thread's path comes from, and its
 *   `key_version` ({@link NEW_THREAD} when this call created it: see `sealedData`)
 */
export async function advanceThreadCreating(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  threadId: string,
  count: number,
  now: number,
): Promise<{ first: number; origin: ThreadOrigin; keyVersion: unknown }> {
  const advance = () => ctx.statements.advanceThreadBy.execute(trx, [count, now, threadId]);
  let row = (await advance()).rows[0];
  let created = false;
  if (row === undefined) {
    await insertThreadIfAbsent(ctx, trx, { id: threadId, now, nextSeq: 1, metadata: undefined });
    row = (await advance()).rows[0];
    if (row === undefined) throw new Error('the thread row vanished while it was created');
    created = true;
  }
  return {
    first: Number(row.next_seq) - count,
    origin: threadOrigin(row),
    keyVersion: created ? NEW_THREAD : row.key_version,
  };
}

/** A turn's checked drafts and their serialized data, before they take seqs. */
export interface UnplacedTurn {
  readonly threadId: string;
  readonly turnId: string;
  readonly drafts: readonly ChunkRowDraft[];
  readonly data: readonly string[];
  /** Seals the data for storing, when the store encrypts. */
  readonly seal: RowSealer | undefined;
}

/**
 * The turn's rows at seqs from `first`, stamped `at`, their data sealed under the thread's key
 * when the store encrypts (`keyVersion` as the thread row holds it: see `sealedData`).
 */
export async function placedRows(
  ctx: StoreContext,
  turn: UnplacedTurn,
  keyVersion: unknown,
  first: number,
  at: number,
): Promise<TurnRows> {
  const { threadId, turnId, drafts, seal } = turn;
  const data = await sealedData(ctx.cipher, threadId, seal, keyVersion, first, turn.data);
  return { threadId, turnId, first, drafts, data, at };
}

/**
 * Inserts a turn's rows at seqs from `first` unless rows of the turn were stored before: in one
 * statement where the dialect has writable CTEs (the check reads the snapshot before the insert),
 * else a check and then the insert.
 *
 * @returns whether rows of the turn were stored before (then the caller rolls back)
 */
export async function insertRowsOfNewTurn(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  rows: TurnRows,
): Promise<boolean> {
  const { statements } = ctx;
  const { threadId, turnId } = rows;
  const both = statements.insertRowsThen(trx, rows, 'checkTurn');
  if (both !== undefined) {
    const stored = (await both).rows[0]?.turn_first;
    return stored !== null && stored !== undefined;
  }
  if ((await statements.turnExists.execute(trx, [threadId, turnId])).rows.length > 0) return true;
  await statements.insertRows(trx, rows);
  return false;
}

/**
 * The rows of turn `turnId` when a fork's shared stretches hold it (the thread that holds them
 * too): a write of that turn to the fork is a retry, answered with them. Undefined for a plain
 * thread, without a query.
 */
export async function sharedTurn(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  origin: ThreadOrigin,
  turnId: string,
): Promise<{ rows: SelectedRow[]; holder: string } | undefined> {
  if (origin.ancestors.length === 0) return undefined;
  const found = await pathTurnRows(ctx, trx, origin.ancestors, turnId);
  return found === undefined ? undefined : { rows: found.rows, holder: found.segment.threadId };
}

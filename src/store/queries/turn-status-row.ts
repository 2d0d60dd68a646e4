import type { Kysely } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import type { StoreTables } from '../tables.js';
import type { EndedTurnStatus } from '../turn-types.js';

const ENDED: readonly EndedTurnStatus[] = ['completed', 'failed', 'cancelled', 'interrupted'];

/** Checks an ended status (`appendSteps`' `status`, `setTurnStatus`). */
export function checkEndedStatus(value: unknown, option: string): EndedTurnStatus {
  if (!ENDED.includes(value as EndedTurnStatus)) {
    throw new ChunklogError(
      'invalid-option',
      `${option} must be one of ${ENDED.map((s) => `'${s}'`).join(', ')}.`,
      { option, value },
    );
  }
  return value as EndedTurnStatus;
}

/**
 * Stores a sealed turn's status row (`appendTurn` with a `status`), in the write's transaction.
 * Nothing is stored for `completed`: a turn without a status row is completed.
 */
export async function recordSealedStatus(
  trx: Kysely<StoreTables>,
  row: { threadId: string; turnId: string; first: number; next: number; now: number },
  status: EndedTurnStatus,
): Promise<void> {
  if (status === 'completed') return;
  await trx
    .insertInto('turns')
    .values({
      thread_id: row.threadId,
      turn_id: row.turnId,
      status,
      first_seq: row.first,
      next_seq: row.next,
      created_at: row.now,
      updated_at: row.now,
      holder: null,
    })
    .execute();
}

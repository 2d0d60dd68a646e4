import type { Kysely } from 'kysely';
import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import { asString, UnreadableData } from '../codec.js';
import type { StoreContext } from '../context.js';
import { envelopeVersion } from '../encryption/cipher.js';
import type { ThreadKey } from '../encryption/key-provider.js';
import { checkThreadKey } from '../encryption/key-provider.js';
import { envelopeOf, openRecords, type StoreCipher } from '../encryption/store-cipher.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import type { StoreTables } from '../tables.js';
import { type SelectedThread, selectThread } from '../threads.js';
import { RollbackDecision, writeTransaction } from '../transaction.js';
import type { RotateKeyOptions, RotateKeyResult } from '../types.js';
import { checkThreadId } from '../validate.js';

/** Rows re-encrypted per transaction by default. */
const DEFAULT_BATCH = 500;

/** Another rotation, to a newer key, marked the thread while this one ran: this one stops. */
class Overtaken extends RollbackDecision {
  constructor(
    readonly version: number,
    readonly newer: number,
  ) {
    super(`rotation to key ${version} overtaken by one to key ${newer}`);
  }
}

/**
 * `ChunkStore.rotateThreadKey`: re-encrypts a thread under a new key in batches of rows (one
 * transaction each), then destroys its older keys. First, under the thread's lock, it picks the
 * key and records its version on the thread row (`key_version`): every write that seals rows
 * reads it under the same lock and seals with that key or a newer one, so one pass over the
 * rows, made after the mark, finds every row under an older key, and none lands under one
 * afterwards (notes/0095). Each batch, and the destruction of the older keys, runs under the
 * thread's lock too, after checking the mark: a batch never writes a row back over one a writer
 * changed meanwhile (truncated, expired), and a thread erased (and perhaps made again) while
 * the rotation ran stops it with `thread-not-found`, its new keys untouched (notes/0098).
 * Resumable: while the thread's mark names its newest key and the key before it still exists, a
 * rotation is unfinished, and the next call continues it under the same key (rows already under
 * it are skipped without decrypting); the older keys are destroyed oldest first, so the one that
 * marks an unfinished rotation goes last.
 */
export function rotateThreadKey(
  ctx: StoreContext,
  threadId: string,
  options?: RotateKeyOptions,
): Promise<RotateKeyResult> {
  checkThreadId(threadId);
  const o = readOptions(options, 'rotateThreadKey', ['batchRows']);
  const batch = o.batchRows === undefined ? DEFAULT_BATCH : o.batchRows;
  if (typeof batch !== 'number' || !Number.isSafeInteger(batch) || batch < 1) {
    throw new ChunklogError(
      'invalid-option',
      'rotateThreadKey: `batchRows` must be an integer of at least 1.',
      { option: 'batchRows', value: batch },
    );
  }
  const cipher = ctx.cipher;
  if (cipher === undefined) {
    throw new ChunklogError(
      'invalid-option',
      'rotateThreadKey needs a store created with `encryption`.',
      { option: 'encryption', threadId },
    );
  }
  return wrapStoreErrors('rotateThreadKey', threadId, async () => {
    const target = await markRotation(ctx, cipher, threadId);
    // History states are derived: drop them rather than re-encrypt (a later write writes one).
    // After the mark: a state written from now on is sealed with the target key, or not at all.
    await ctx.db.deleteFrom('historyStates').where('thread_id', '=', threadId).execute();
    await ctx.db.deleteFrom('snapshots').where('thread_id', '=', threadId).execute();
    let rows = 0;
    let unreadable = 0;
    try {
      for (let after = 0; ; ) {
        const done = await rotateBatch(ctx, cipher, threadId, target, after, batch);
        rows += done.rows;
        unreadable += done.unreadable;
        if (done.last === undefined) break;
        after = done.last;
      }
      await rotateThreadColumns(ctx, cipher, threadId, target);
      await destroyOlderKeys(ctx, cipher, threadId, target);
    } catch (error) {
      // The newer rotation re-encrypts every row, this one's included, and ends the thread there.
      if (error instanceof Overtaken) return { version: error.newer, rows, unreadable };
      throw error;
    }
    return { version: target.version, rows, unreadable };
  });
}

/**
 * Runs one step of a rotation in a transaction under the thread's lock, after checking that the
 * thread is still the one this rotation marked: a thread erased meanwhile (and perhaps made
 * again, with no mark or an older one) stops the rotation with `thread-not-found`. A newer mark
 * (another rotation overtook this one) stops it too, with {@link Overtaken}: the newer rotation
 * re-encrypts every row and destroys this one's key.
 *
 * @param work - the step, given the transaction and the thread row (locked)
 * @throws {ChunklogError} `thread-not-found`, or {@link Overtaken}
 */
async function underMark<T>(
  ctx: StoreContext,
  threadId: string,
  target: ThreadKey,
  work: (trx: Kysely<StoreTables>, thread: SelectedThread) => Promise<T>,
): Promise<T> {
  return await writeTransaction(
    ctx,
    async (trx) => {
      const thread = await selectThread(ctx, trx, threadId, true);
      const mark = Number(thread?.key_version ?? 0);
      if (thread === undefined || mark < target.version) throw threadNotFound(threadId);
      if (mark > target.version) throw new Overtaken(target.version, mark);
      return await work(trx, thread);
    },
    { what: 'rotateThreadKey', threadId },
  );
}

/**
 * Picks the key to rotate to and records its version on the thread row, in one transaction
 * under the thread's lock: every write that sealed with an older key has committed before it,
 * and every later one reads the mark under the lock. The key is the newest when the mark names
 * it and the key before it still exists (an unfinished rotation); else a new one. A thread whose
 * first writes raced to make its key holds two keys and no mark: it gets a new key.
 *
 * @throws {ChunklogError} `thread-not-found`
 */
async function markRotation(
  ctx: StoreContext,
  cipher: StoreCipher,
  threadId: string,
): Promise<ThreadKey> {
  return await writeTransaction(
    ctx,
    async (trx) => {
      const thread = await selectThread(ctx, trx, threadId, true);
      if (thread === undefined) throw threadNotFound(threadId);
      const target = await rotationTarget(cipher, threadId, Number(thread.key_version ?? 0));
      await trx
        .updateTable('threads')
        .set({ key_version: target.version })
        .where('id', '=', threadId)
        .execute();
      return target;
    },
    { what: 'rotateThreadKey', threadId },
  );
}

/** The key to rotate to: the newest, when a rotation to it is unfinished; else a new one. */
async function rotationTarget(
  cipher: StoreCipher,
  threadId: string,
  mark: number,
): Promise<ThreadKey> {
  const newest = await cipher.keys.getKey(threadId);
  if (newest !== undefined) {
    const key = checkThreadKey(threadId, newest);
    const unfinished =
      key.version === mark &&
      key.version > 1 &&
      (await cipher.keys.getKey(threadId, key.version - 1)) !== undefined;
    if (unfinished) return key;
  }
  return checkThreadKey(threadId, await cipher.keys.createKey(threadId));
}

/**
 * Destroys the thread's keys older than `target`, oldest first, under the thread's lock and
 * after checking its mark: an erasure cannot run meanwhile, so a thread made again after one
 * never loses its new keys.
 */
async function destroyOlderKeys(
  ctx: StoreContext,
  cipher: StoreCipher,
  threadId: string,
  target: ThreadKey,
): Promise<void> {
  await underMark(ctx, threadId, target, async () => {
    for (let version = 1; version < target.version; version++) {
      await cipher.keys.destroyKey(threadId, version);
    }
  });
}

/** Re-encrypts the rows after `after` (at most `batch` of them) that are not under `target`. */
async function rotateBatch(
  ctx: StoreContext,
  cipher: StoreCipher,
  threadId: string,
  target: ThreadKey,
  after: number,
  batch: number,
): Promise<{ rows: number; unreadable: number; last: number | undefined }> {
  const seal = cipher.rowSealer(target, threadId);
  // Read and written under the thread's lock, as every writer's rows are: a row truncated or
  // expired meanwhile is never written back.
  return await underMark(ctx, threadId, target, async (trx) => {
    const records = await trx
      .selectFrom('chunks')
      .select(['thread_id', 'seq', 'data'])
      .where('thread_id', '=', threadId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(batch)
      .execute();
    const stale = records.filter((r) => {
      const envelope = envelopeOf(r.data);
      return envelope === undefined || envelopeVersion(envelope) !== target.version;
    });
    await openRecords(cipher, stale);
    let rows = 0;
    let unreadable = 0;
    for (const record of stale) {
      const data: unknown = record.data;
      if (data instanceof UnreadableData) {
        unreadable++;
        continue;
      }
      const json =
        typeof data === 'string' || data instanceof Uint8Array
          ? asString(data)
          : JSON.stringify(data);
      await trx
        .updateTable('chunks')
        .set({ data: seal(Number(record.seq), json) })
        .where('thread_id', '=', threadId)
        .where('seq', '=', Number(record.seq))
        .execute();
      rows++;
    }
    const last = records[records.length - 1];
    return { rows, unreadable, last: last === undefined ? undefined : Number(last.seq) };
  });
}

/** Re-encrypts the thread's metadata and title under `target` (clear ones too). */
async function rotateThreadColumns(
  ctx: StoreContext,
  cipher: StoreCipher,
  threadId: string,
  target: ThreadKey,
): Promise<void> {
  await underMark(ctx, threadId, target, async (trx, thread) => {
    const set: { metadata?: string; title?: string } = {};
    for (const column of ['metadata', 'title'] as const) {
      const stored = thread[column];
      if (stored === null || stored === undefined) continue;
      const envelope = envelopeOf(stored);
      if (envelope !== undefined && envelopeVersion(envelope) === target.version) continue;
      const opened = await cipher.openThreadValue(threadId, column, stored);
      const text =
        typeof opened === 'string' || opened instanceof Uint8Array
          ? asString(opened)
          : JSON.stringify(opened);
      set[column] = cipher.sealThreadValue(target, threadId, column, text);
    }
    if (Object.keys(set).length > 0) {
      await trx.updateTable('threads').set(set).where('id', '=', threadId).execute();
    }
  });
}

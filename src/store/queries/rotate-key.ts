import { ChunklogError } from '../../errors/chunklog-error.js';
import { readOptions } from '../../errors/invalid-option.js';
import { asString, UnreadableData } from '../codec.js';
import type { StoreContext } from '../context.js';
import { envelopeVersion } from '../encryption/cipher.js';
import type { ThreadKey } from '../encryption/key-provider.js';
import { checkThreadKey } from '../encryption/key-provider.js';
import { envelopeOf, openRecords, type StoreCipher } from '../encryption/store-cipher.js';
import { threadNotFound, wrapStoreErrors } from '../store-errors.js';
import { selectThread } from '../threads.js';
import { writeTransaction } from '../transaction.js';
import type { RotateKeyOptions, RotateKeyResult } from '../types.js';
import { checkThreadId } from '../validate.js';

/** Rows re-encrypted per transaction by default. */
const DEFAULT_BATCH = 500;

/**
 * `ChunkStore.rotateThreadKey`: re-encrypts a thread under a new key in batches of rows (one
 * transaction each), then destroys its older keys. First it records the new key's version on the
 * thread row (`key_version`), under the thread's lock: every write that seals rows reads it
 * under the same lock and seals with that key or a newer one, so one pass over the rows, made
 * after the mark, finds every row under an older key, and none lands under one afterwards
 * (notes/0095). Resumable: while the key before the newest still exists, a rotation is
 * unfinished, and the next call continues it under the same newest key (rows already under it
 * are skipped without decrypting); the older keys are destroyed oldest first, so the one that
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
    if ((await selectThread(ctx, ctx.db, threadId, false)) === undefined) {
      throw threadNotFound(threadId);
    }
    const target = await rotationTarget(cipher, threadId);
    await markRotation(ctx, threadId, target);
    // History states are derived: drop them rather than re-encrypt (the next read rebuilds one).
    // After the mark: a state written from now on is sealed with the target key, or not at all.
    await ctx.db.deleteFrom('historyStates').where('thread_id', '=', threadId).execute();
    await ctx.db.deleteFrom('snapshots').where('thread_id', '=', threadId).execute();
    let rows = 0;
    let unreadable = 0;
    for (let after = 0; ; ) {
      const done = await rotateBatch(ctx, cipher, threadId, target, after, batch);
      rows += done.rows;
      unreadable += done.unreadable;
      if (done.last === undefined) break;
      after = done.last;
    }
    await rotateThreadColumns(ctx, cipher, threadId, target);
    for (let version = 1; version < target.version; version++) {
      await cipher.keys.destroyKey(threadId, version);
    }
    return { version: target.version, rows, unreadable };
  });
}

/** The key to rotate to: the newest, when a rotation to it is unfinished; else a new one. */
async function rotationTarget(cipher: StoreCipher, threadId: string): Promise<ThreadKey> {
  const newest = await cipher.keys.getKey(threadId);
  if (newest !== undefined) {
    const key = checkThreadKey(threadId, newest);
    if (key.version > 1 && (await cipher.keys.getKey(threadId, key.version - 1)) !== undefined) {
      return key;
    }
  }
  return checkThreadKey(threadId, await cipher.keys.createKey(threadId));
}

/**
 * Records `target`'s version on the thread row (never lowering it), in a transaction of its own:
 * the UPDATE waits for the thread's lock, so every write that sealed with an older key has
 * committed before it, and every later one reads the mark under the lock.
 */
async function markRotation(ctx: StoreContext, threadId: string, target: ThreadKey): Promise<void> {
  await writeTransaction(
    ctx,
    async (trx) => {
      await trx
        .updateTable('threads')
        .set({ key_version: target.version })
        .where('id', '=', threadId)
        .where((eb) =>
          eb.or([eb('key_version', 'is', null), eb('key_version', '<', target.version)]),
        )
        .execute();
    },
    { what: 'rotateThreadKey', threadId },
  );
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
  return await writeTransaction(
    ctx,
    async (trx) => {
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
    },
    { what: 'rotateThreadKey', threadId },
  );
}

/** Re-encrypts the thread's metadata and title under `target` (clear ones too). */
async function rotateThreadColumns(
  ctx: StoreContext,
  cipher: StoreCipher,
  threadId: string,
  target: ThreadKey,
): Promise<void> {
  await writeTransaction(
    ctx,
    async (trx) => {
      const thread = await selectThread(ctx, trx, threadId, true);
      if (thread === undefined) return;
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
    },
    { what: 'rotateThreadKey', threadId },
  );
}

import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ChunklogError } from '../errors/chunklog-error.js';
import { type JSONObject, JsonValueSchema } from '../schema/json.js';
import { previewValue } from '../schema/parse.js';
import { asJson, asString, OPENED_WITHOUT_ENCRYPTION, storedIso, storedJson } from './codec.js';
import type { StoreContext } from './context.js';
import { envelopeOf } from './encryption/store-cipher.js';
import { threadOrigin } from './fork-path.js';
import type { StoreTables } from './tables.js';
import type { Thread } from './types.js';

/** The columns a thread is read with. */
export const THREAD_COLUMNS = [
  'id',
  'created_at',
  'updated_at',
  'next_seq',
  'metadata',
  'owner_id',
  'title',
  'parent_id',
  'fork_seq',
  'fork_path',
  'conversation_id',
  'active_id',
  'key_version',
] as const;

/** A thread as selected with {@link THREAD_COLUMNS}. */
export interface SelectedThread {
  readonly id: unknown;
  readonly created_at: unknown;
  readonly updated_at: unknown;
  readonly next_seq: unknown;
  readonly metadata: unknown;
  readonly owner_id: unknown;
  readonly title: unknown;
  readonly parent_id: unknown;
  readonly fork_seq: unknown;
  readonly fork_path: unknown;
  readonly conversation_id: unknown;
  readonly active_id: unknown;
  readonly key_version: unknown;
}

/** The `corrupt-row` error for a thread row whose `column` holds what no thread can have. */
function corruptThread(
  threadId: string,
  column: string,
  value: unknown,
  cause?: unknown,
): ChunklogError {
  return new ChunklogError(
    'corrupt-row',
    `The row of thread ${JSON.stringify(threadId)} is corrupt: ${column} ${previewValue(value)} is not ${THREAD_COLUMN_MEANING[column]}.`,
    { threadId, cause },
  );
}

const THREAD_COLUMN_MEANING: Readonly<Record<string, string>> = {
  created_at: 'a time',
  updated_at: 'a time',
  next_seq: 'a seq (an integer of at least 1)',
  metadata: 'a JSON object',
  owner_id: 'a string',
  title: 'a string',
};

/** A stored timestamp column as ISO 8601; `corrupt-row` when it holds no time. */
function threadTime(threadId: string, column: string, value: unknown): string {
  const iso = storedIso(value);
  if (iso === undefined) throw corruptThread(threadId, column, value);
  return iso;
}

/**
 * Describes a selected thread row, checking what it reads back: a timestamp that is no time, a
 * `next_seq` that is no seq or metadata that is not a JSON object is a `corrupt-row` naming the
 * thread (`getThread` has no skip policy: a thread is one row; `listThreads` under `skip` leaves
 * the thread out of its page, as the other reads leave out a row).
 *
 * @throws {ChunklogError} `corrupt-row`
 */
export function toThread(record: SelectedThread): Thread {
  const id = asString(record.id);
  const nextSeq = Number(record.next_seq);
  if (record.next_seq === null || !Number.isSafeInteger(nextSeq) || nextSeq < 1) {
    throw corruptThread(id, 'next_seq', record.next_seq);
  }
  const thread: { -readonly [K in keyof Thread]: Thread[K] } = {
    id,
    createdAt: threadTime(id, 'created_at', record.created_at),
    updatedAt: threadTime(id, 'updated_at', record.updated_at),
    total: nextSeq - 1,
  };
  if (record.owner_id !== null && record.owner_id !== undefined) {
    thread.ownerId = asString(record.owner_id);
  }
  if (record.title !== null && record.title !== undefined) thread.title = asString(record.title);
  const origin = threadOrigin(record);
  if (origin.parentId !== undefined) {
    thread.forkOf = { threadId: origin.parentId, atSeq: origin.forkSeq };
  }
  if (record.conversation_id !== null && record.conversation_id !== undefined) {
    thread.alternativeOf = asString(record.conversation_id);
  }
  if (record.active_id !== null && record.active_id !== undefined) {
    thread.activePath = asString(record.active_id);
  }
  if (record.metadata !== null && record.metadata !== undefined) {
    thread.metadata = threadMetadata(id, record.metadata);
  }
  return thread;
}

/** The stored metadata column as a JSON object; `corrupt-row` when it is not one. */
function threadMetadata(threadId: string, stored: unknown): JSONObject {
  let parsed: unknown;
  try {
    parsed = asJson(stored instanceof Uint8Array ? asString(stored) : stored);
  } catch (error) {
    throw corruptThread(threadId, 'metadata', stored, error);
  }
  const result = MetadataSchema.safeParse(parsed);
  if (!result.success) throw corruptThread(threadId, 'metadata', stored, result.error);
  return result.data as JSONObject;
}

const MetadataSchema = z.record(z.string(), JsonValueSchema);

/**
 * Checks thread metadata: a JSON object.
 *
 * @throws {ChunklogError} `invalid-option`
 */
export function checkMetadata(metadata: unknown): JSONObject | undefined {
  if (metadata === undefined) return undefined;
  const result = MetadataSchema.safeParse(metadata);
  if (!result.success || JSON.stringify(metadata) === undefined) {
    throw new ChunklogError('invalid-option', 'Thread metadata must be a JSON object.', {
      option: 'metadata',
      value: metadata,
      cause: result.success ? undefined : result.error,
    });
  }
  return result.data as JSONObject;
}

/**
 * {@link toThread} of a thread row whose metadata and title may be encrypted: they are opened
 * first (with the thread's key the envelope names), when the store encrypts.
 *
 * @throws {ChunklogError} `corrupt-row` naming the thread, for a value that does not open
 */
export async function openThread(ctx: StoreContext, record: SelectedThread): Promise<Thread> {
  const cipher = ctx.cipher;
  if (cipher === undefined) {
    for (const column of ['metadata', 'title'] as const) {
      if (envelopeOf(record[column]) !== undefined) {
        throw new ChunklogError(
          'corrupt-row',
          `The row of thread ${JSON.stringify(asString(record.id))} is corrupt: its ${column} is encrypted, and ${OPENED_WITHOUT_ENCRYPTION}.`,
          { threadId: asString(record.id) },
        );
      }
    }
    return toThread(record);
  }
  const id = asString(record.id);
  return toThread({
    ...record,
    metadata: await cipher.openThreadValue(id, 'metadata', record.metadata),
    title: await cipher.openThreadValue(id, 'title', record.title),
  });
}

/** A thread's metadata (JSON text) and title as stored, and the version of the key that sealed them. */
export interface StoredThreadColumns {
  readonly metadata: string | null | undefined;
  readonly title: string | null | undefined;
  /** The sealing key's version; undefined when nothing was sealed. */
  readonly version: number | undefined;
}

/**
 * A thread's metadata (JSON text) and title as stored: encrypted with the thread's newest key
 * (made first when it has none) when the store encrypts; null and undefined kept as they are.
 */
export async function storedThreadColumns(
  ctx: StoreContext,
  threadId: string,
  metadata: string | null | undefined,
  title: string | null | undefined,
): Promise<StoredThreadColumns> {
  const cipher = ctx.cipher;
  const clear = (metadata ?? null) === null && (title ?? null) === null;
  if (cipher === undefined || clear) return { metadata, title, version: undefined };
  const key = await cipher.writeKey(threadId);
  const sealed = (column: 'metadata' | 'title', value: string | null | undefined) =>
    value === null || value === undefined
      ? value
      : cipher.sealThreadValue(key, threadId, column, value);
  return {
    metadata: sealed('metadata', metadata),
    title: sealed('title', title),
    version: key.version,
  };
}

/** Reads a thread row, locking it for the rest of the transaction where the dialect locks rows. */
export async function selectThread(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  threadId: string,
  lock: boolean,
): Promise<SelectedThread | undefined> {
  return await db
    .selectFrom('threads')
    .select(THREAD_COLUMNS)
    .where('id', '=', threadId)
    .$if(lock && ctx.adapter.selectForUpdate, (qb) => qb.forUpdate())
    .executeTakeFirst();
}

/**
 * Creates a thread that did not exist when a write locked it, then locks and reads it: the write
 * of a turn to a new thread. Another writer may create it meanwhile (and store the same turn);
 * the re-read under the lock sees what it stored.
 *
 * @returns the thread row, locked
 */
export async function createAndLockThread(
  ctx: StoreContext,
  trx: Kysely<StoreTables>,
  threadId: string,
  now: number,
): Promise<SelectedThread> {
  await insertThreadIfAbsent(ctx, trx, { id: threadId, now, nextSeq: 1, metadata: undefined });
  const thread = (await ctx.statements.lockThread.execute(trx, [threadId])).rows[0];
  if (thread === undefined) throw new Error('the thread row vanished while it was created');
  return thread;
}

/** Inserts a thread row, doing nothing when the id is taken. */
export async function insertThreadIfAbsent(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  values: {
    id: string;
    now: number;
    nextSeq: number;
    metadata: JSONObject | undefined;
    ownerId?: string | null | undefined;
    title?: string | null | undefined;
    /** For a fork: its parent, fork seq and encoded path (see `fork-path.ts`). */
    fork?: { parentId: string; forkSeq: number; path: string } | undefined;
    /** For an alternative: the conversation it belongs to. */
    conversationId?: string | undefined;
  },
): Promise<void> {
  const stored = await storedThreadColumns(
    ctx,
    values.id,
    values.metadata === undefined ? null : storedJson(values.metadata, ctx.jsonRefuses),
    values.title,
  );
  const insert = db.insertInto('threads').values({
    id: values.id,
    created_at: values.now,
    updated_at: values.now,
    next_seq: values.nextSeq,
    metadata: stored.metadata ?? null,
    ...(values.ownerId === undefined || values.ownerId === null
      ? {}
      : { owner_id: values.ownerId }),
    ...(stored.title === undefined || stored.title === null ? {} : { title: stored.title }),
    ...(values.fork === undefined
      ? {}
      : {
          parent_id: values.fork.parentId,
          fork_seq: values.fork.forkSeq,
          fork_path: values.fork.path,
        }),
    ...(values.conversationId === undefined ? {} : { conversation_id: values.conversationId }),
  });
  await (ctx.adapter.insertIgnore === 'on-conflict-do-nothing'
    ? insert.onConflict((oc) => oc.column('id').doNothing())
    : insert.onDuplicateKeyUpdate((eb) => ({ id: eb.ref('id') }))
  ).execute();
}

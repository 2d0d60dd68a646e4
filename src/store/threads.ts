import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ChunklogError } from '../errors/chunklog-error.js';
import { type JSONObject, JsonValueSchema } from '../schema/json.js';
import { asJson, asString, isoOf } from './codec.js';
import type { StoreContext } from './context.js';
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
}

/** Describes a selected thread row. */
export function toThread(record: SelectedThread): Thread {
  const metadata = record.metadata === null ? null : asJson(record.metadata);
  const thread: { -readonly [K in keyof Thread]: Thread[K] } = {
    id: asString(record.id),
    createdAt: isoOf(record.created_at),
    updatedAt: isoOf(record.updated_at),
    total: Number(record.next_seq) - 1,
  };
  if (record.owner_id !== null && record.owner_id !== undefined) {
    thread.ownerId = asString(record.owner_id);
  }
  if (record.title !== null && record.title !== undefined) thread.title = asString(record.title);
  if (metadata !== null && metadata !== undefined) thread.metadata = metadata as JSONObject;
  return thread;
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

/** Reads a thread row, locking it for the rest of the transaction where the dialect locks rows. */
export async function selectThread(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  threadId: string,
  lock: boolean,
): Promise<SelectedThread | undefined> {
  return await db
    .selectFrom(ctx.threads)
    .select(THREAD_COLUMNS)
    .where('id', '=', threadId)
    .$if(lock && ctx.adapter.selectForUpdate, (qb) => qb.forUpdate())
    .executeTakeFirst();
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
  },
): Promise<void> {
  const insert = db.insertInto(ctx.threads).values({
    id: values.id,
    created_at: values.now,
    updated_at: values.now,
    next_seq: values.nextSeq,
    metadata: values.metadata === undefined ? null : JSON.stringify(values.metadata),
    ...(values.ownerId === undefined || values.ownerId === null
      ? {}
      : { owner_id: values.ownerId }),
    ...(values.title === undefined || values.title === null ? {} : { title: values.title }),
  });
  await (ctx.adapter.insertIgnore === 'on-conflict-do-nothing'
    ? insert.onConflict((oc) => oc.column('id').doNothing())
    : insert.onDuplicateKeyUpdate((eb) => ({ id: eb.ref('id') }))
  ).execute();
}

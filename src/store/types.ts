import type { ChatMessage } from '../schema/chat-message.js';
import type { ChunkPage } from '../schema/chunk-page.js';
import type { ChunkRow, ChunkRowDraft } from '../schema/chunk-row.js';
import type { JSONObject } from '../schema/json.js';
import type { StoreDialectName } from './dialects/adapter.js';
import type { StoreTableNames } from './tables.js';

/** What a reader does with a stored row whose data no longer parses. */
export type CorruptRowPolicy = 'throw' | 'skip';

/** Options of a read. */
export interface ReadOptions {
  /**
   * `'throw'` (the store's default unless configured otherwise) fails the read with a
   * `corrupt-row` error naming the thread and seq; `'skip'` leaves such rows out.
   */
  readonly onCorruptRow?: CorruptRowPolicy | undefined;
}

/** Options of {@link ChunkStore.getChunks}. */
export interface GetChunksOptions extends ReadOptions {
  /** At most this many rows, from 1 to 1,000. */
  readonly limit: number;
  /** Only rows with a seq below this one (the `oldestSeq` of the previous page). Default: the newest rows. */
  readonly before?: number | undefined;
}

/** A thread as the store describes it. */
export interface Thread {
  readonly id: string;
  /** When the thread was created (ISO 8601). */
  readonly createdAt: string;
  /** When a turn was last appended, or the thread last changed (ISO 8601); `listThreads` orders by it. */
  readonly updatedAt: string;
  /** How many rows the thread holds; its rows have seqs 1 to `total`. */
  readonly total: number;
  /** What the application attached to the thread. */
  readonly metadata?: JSONObject | undefined;
}

/** Options of {@link ChunkStore.createThread}. */
export interface CreateThreadOptions {
  /** A JSON object kept with the thread. */
  readonly metadata?: JSONObject | undefined;
}

/** Options of {@link ChunkStore.listThreads}. */
export interface ListThreadsOptions {
  /** At most this many threads, from 1 to 1,000. */
  readonly limit: number;
  /** The `nextBefore` of the previous page. Default: the most recently active threads. */
  readonly before?: string | undefined;
}

/** A page of threads, most recently active first. */
export interface ThreadPage {
  readonly threads: readonly Thread[];
  /** Whether less recently active threads exist. */
  readonly hasMore: boolean;
  /** An opaque cursor: pass it as `before` for the next page; null when there is none. */
  readonly nextBefore: string | null;
}

/** Options of {@link ChunkStore.forkThread}. */
export interface ForkThreadOptions {
  /** Copy the rows with `seq <= atSeq` (0 makes an empty fork; beyond the end copies everything). */
  readonly atSeq: number;
  /** The new thread's id. Default: a random UUID. */
  readonly newThreadId?: string | undefined;
  /** The new thread's metadata. Default: the source thread's. */
  readonly metadata?: JSONObject | undefined;
}

/** Options of {@link ChunkStore.getRows}. */
export interface GetRowsOptions extends ReadOptions {
  /** Only rows with a seq above this one. Default 0: the whole thread. */
  readonly afterSeq?: number | undefined;
}

/**
 * A thread's chunk log in a database: per-turn transactional writes with dense per-thread seqs,
 * keyset pages, and thread management. Created by `createChunkStore`.
 */
export interface ChunkStore {
  /** The dialect the store speaks. */
  readonly dialect: StoreDialectName;
  /** The store's table names. */
  readonly tables: StoreTableNames;
  /**
   * Creates or upgrades the store's tables. Idempotent; safe to run from several processes at once.
   *
   * @example
   * ```ts
   * await store.migrate();
   * ```
   */
  migrate(): Promise<void>;
  /**
   * Stores one turn in one transaction and returns its rows with their seqs. Creates the thread
   * when it does not exist. When rows of this turn id are already stored in the thread, returns
   * them and writes nothing (a retry is safe).
   *
   * @param threadId - the thread (1 to 255 UTF-8 bytes)
   * @param drafts - the turn's rows, all with one `turnId` (from `explodeTurn`)
   * @returns the stored rows, with `threadId`, `seq` and `createdAt`
   * @throws {ChunklogError} `invalid-row` before anything is written; `store-failed`
   *
   * @example
   * ```ts
   * const rows = await store.appendTurn('thread-1', explodeTurn(turnId, chunks, { role: 'assistant' }));
   * rows.at(-1)?.seq; // the thread's newest seq
   * ```
   */
  appendTurn(threadId: string, drafts: readonly ChunkRowDraft[]): Promise<ChunkRow[]>;
  /**
   * A page of the thread's log, by keyset on seq.
   *
   * @throws {ChunklogError} `thread-not-found`; `invalid-option` for a limit outside 1–1,000
   *
   * @example
   * ```ts
   * const tail = await store.getChunks('thread-1', { limit: 50 });
   * if (tail.hasMore) await store.getChunks('thread-1', { limit: 50, before: tail.oldestSeq ?? 1 });
   * ```
   */
  getChunks(threadId: string, options: GetChunksOptions): Promise<ChunkPage>;
  /**
   * Every row of the thread (or those after `afterSeq`), in ascending seq.
   *
   * @example
   * ```ts
   * const newer = await store.getRows('thread-1', { afterSeq: lastSeenSeq });
   * ```
   */
  getRows(threadId: string, options?: GetRowsOptions): Promise<ChunkRow[]>;
  /**
   * The whole thread grouped into messages, for rebuilding an agent's history.
   *
   * @example
   * ```ts
   * const history = toModelMessages(await store.getMessages('thread-1'));
   * ```
   */
  getMessages(threadId: string, options?: ReadOptions): Promise<ChatMessage[]>;
  /**
   * Creates an empty thread (with a random UUID when no id is given).
   *
   * @throws {ChunklogError} `thread-exists` when the id is taken
   *
   * @example
   * ```ts
   * const { id } = await store.createThread(undefined, { metadata: { title: 'New chat' } });
   * ```
   */
  createThread(threadId?: string, options?: CreateThreadOptions): Promise<Thread>;
  /**
   * Describes a thread.
   *
   * @throws {ChunklogError} `thread-not-found`
   *
   * @example
   * ```ts
   * const { total, metadata } = await store.getThread('thread-1');
   * ```
   */
  getThread(threadId: string): Promise<Thread>;
  /**
   * Threads, most recently active first, by keyset.
   *
   * @example
   * ```ts
   * const first = await store.listThreads({ limit: 20 });
   * const next = first.nextBefore ? await store.listThreads({ limit: 20, before: first.nextBefore }) : undefined;
   * ```
   */
  listThreads(options: ListThreadsOptions): Promise<ThreadPage>;
  /**
   * Deletes a thread and its rows. Returns whether it existed.
   *
   * @example
   * ```ts
   * await store.deleteThread('thread-1'); // true, then false
   * ```
   */
  deleteThread(threadId: string): Promise<boolean>;
  /**
   * Deletes the rows after `seq` (for edit-and-regenerate); the next turn gets seq `seq + 1`.
   * Returns how many rows went.
   *
   * @throws {ChunklogError} `thread-not-found`
   *
   * @example
   * ```ts
   * // Regenerate from the user's message: keep rows up to the last one before the answer.
   * await store.truncateAfter('thread-1', lastUserRow.seq);
   * ```
   */
  truncateAfter(threadId: string, seq: number): Promise<number>;
  /**
   * Copies the thread's rows up to `atSeq` into a new thread.
   *
   * @throws {ChunklogError} `thread-not-found`; `thread-exists` when `newThreadId` is taken
   *
   * @example
   * ```ts
   * const branch = await store.forkThread('thread-1', { atSeq: 42 });
   * await store.appendTurn(branch.id, drafts);
   * ```
   */
  forkThread(threadId: string, options: ForkThreadOptions): Promise<Thread>;
  /**
   * Closes the store; it destroys the Kysely instance only when the store opened it.
   *
   * @example
   * ```ts
   * await store.close();
   * ```
   */
  close(): Promise<void>;
}

export type { ChunkPage } from '../schema/chunk-page.js';

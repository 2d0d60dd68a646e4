import type { ChunklogError } from '../errors/chunklog-error.js';
import type { ChatMessage } from '../schema/chat-message.js';
import type { ChunkPage } from '../schema/chunk-page.js';
import type { ChunkRow, ChunkRowDraft } from '../schema/chunk-row.js';
import type { JSONObject } from '../schema/json.js';
import type { TurnStatus } from '../schema/turn-status.js';
import type { MessageFold } from '../transforms/message-fold.js';
import type { StoreDialectName } from './dialects/adapter.js';
import type { StoreTableNames } from './tables.js';
import type { ChunkStoreTurns, EndedTurnStatus, LeaseFence } from './turn-types.js';
import type { StepUsage, ThreadUsage, TurnUsage, UsageReadOptions } from './usage-types.js';

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

/**
 * A thread's whole history, as {@link ChunkStore.getHistory} reads it: every row folded into
 * messages. `fold` goes on with rows stored later (`fold.add(row)` for each row after
 * `fold.seq`), giving what reading the thread again would give.
 */
export interface HistoryRead {
  /** The messages, oldest first, without `status` (see `getMessages`). */
  readonly messages: ChatMessage[];
  /** The fold of the thread's rows, up to its last row (`fold.seq`, `fold.last`). */
  readonly fold: MessageFold;
}

/** Options of {@link ChunkStore.getChunks}. */
export interface GetChunksOptions extends ReadOptions {
  /** At most this many rows, from 1 to 1,000. Default 50. */
  readonly limit?: number | undefined;
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
  /**
   * The seq of its newest row: how many rows it holds, its rows having seqs 1 to `total` — or
   * fewer, when retention (`expire`) removed its first turns, or it was created with `firstSeq`
   * (its seqs then start at its first row's).
   */
  readonly total: number;
  /** What the application attached to the thread. */
  readonly metadata?: JSONObject | undefined;
  /** The owner (resource) the thread belongs to: a user, an account, a project. */
  readonly ownerId?: string | undefined;
  /** The thread's title. */
  readonly title?: string | undefined;
  /**
   * For a fork made by {@link ChunkStore.forkThread}: the thread it was forked from and the seq
   * it forks at. Its rows up to `atSeq` are read from there (by reference, not copied); its own
   * rows follow. Absent for a plain thread, and for forks made by copy before migration 0006.
   */
  readonly forkOf?: ThreadFork | undefined;
  /**
   * For an alternative made by {@link ChunkStore.addAlternative}: the conversation it belongs
   * to. `listThreads` lists conversations, not their alternatives.
   */
  readonly alternativeOf?: string | undefined;
  /**
   * For a conversation whose active path is one of its alternatives: that alternative's thread
   * id (see {@link ChunkStore.activePath}). Absent while the conversation's own path is active.
   */
  readonly activePath?: string | undefined;
}

/** Where a fork comes from (see {@link Thread.forkOf}). */
export interface ThreadFork {
  /**
   * Its parent: the thread it was forked from — or, for a fork made at or below that thread's own
   * fork seq (where its path lies wholly in the threads that one reads), the thread whose own rows
   * hold row `atSeq`. The parent's rows are the ones the fork holds (`thread-has-forks`).
   */
  readonly threadId: string;
  /** The seq it forks at: its path holds the parent's path up to this seq. */
  readonly atSeq: number;
}

/** Options of {@link ChunkStore.createThread}. */
export interface CreateThreadOptions {
  /** A JSON object kept with the thread. */
  readonly metadata?: JSONObject | undefined;
  /** The owner (resource) id: 1 to 255 UTF-8 bytes, like a thread id. `listThreads` filters by it. */
  readonly ownerId?: string | undefined;
  /** A title: at most 1,000 characters, no NUL. */
  readonly title?: string | undefined;
  /**
   * The seq of the thread's first row: 1 (the default) to 2,147,483,646 (its next seq must stay
   * within 2^31 - 1). Above 1, the thread starts as an expired thread does, after seqs it never
   * held (`total` counts them); for a copy that keeps another thread's seqs: `importThread` of an
   * expired thread's export, which starts at its retention sentinel.
   */
  readonly firstSeq?: number | undefined;
}

/**
 * Options of {@link ChunkStore.updateThread}: each field given replaces the stored one; `null`
 * clears it; a field left out stays as it is.
 *
 * @example
 * ```ts
 * const changes: UpdateThreadOptions = { title: 'Trip to Lisbon', metadata: { pinned: true } };
 * ```
 */
export interface UpdateThreadOptions {
  /** The new metadata (replaces the whole object), or null to clear it. */
  readonly metadata?: JSONObject | null | undefined;
  /** The new owner id, or null to clear it. */
  readonly ownerId?: string | null | undefined;
  /** The new title, or null to clear it. */
  readonly title?: string | null | undefined;
}

/** Options of {@link ChunkStore.listThreads}. */
export interface ListThreadsOptions extends ReadOptions {
  /** Only the threads of this owner (resource) id. Default: every thread. */
  readonly ownerId?: string | undefined;
  /**
   * Only the forks {@link ChunkStore.forkThread} made of this thread (its direct forks, not their
   * own forks, and not its alternatives: {@link ChunkStore.getAlternatives} lists those). Default:
   * every conversation. Before migration 0006 forks were copies and are not listed.
   */
  readonly forkOf?: string | undefined;
  /** At most this many threads, from 1 to 1,000. Default 50. */
  readonly limit?: number | undefined;
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
  /**
   * The threads of the page left out under `onCorruptRow: 'skip'` because their row cannot be
   * read (its title or metadata encrypted under a key that is gone, or not JSON; a time that is
   * no time), most recently active first; absent when none was. `hasMore` and `nextBefore`
   * count them, so paging carries on past them.
   */
  readonly skipped?: readonly SkippedThread[] | undefined;
}

/**
 * A thread {@link ChunkStore.listThreads} left out under `onCorruptRow: 'skip'`, and why.
 *
 * @example
 * ```ts
 * const { skipped = [] } = await store.listThreads({ onCorruptRow: 'skip' });
 * for (const { threadId, error } of skipped) console.warn(threadId, error.message);
 * ```
 */
export interface SkippedThread {
  /** The thread's id (ids are stored in clear). */
  readonly threadId: string;
  /** The `corrupt-row` error reading its row raised: its message says what cannot be read. */
  readonly error: ChunklogError;
}

/**
 * Options of {@link ChunkStore.expire}.
 *
 * @example
 * ```ts
 * const options: ExpireOptions = { before: new Date(Date.now() - 90 * 86_400_000) };
 * ```
 */
export interface ExpireOptions {
  /**
   * Remove turns whose every row was created before this time: a `Date`, milliseconds since the
   * epoch, or an ISO 8601 date-time with a time zone (`'2026-11-30T00:00:00Z'`; a time without
   * one is refused rather than read in the server's local time).
   */
  readonly before: Date | string | number;
  /** Only this thread (a thread's own retention). Default: every thread. */
  readonly threadId?: string | undefined;
}

/**
 * What {@link ChunkStore.expire} removed.
 *
 * @example
 * ```ts
 * const { threads, turns, rows } = await store.expire({ before: cutoff });
 * ```
 */
export interface ExpireResult {
  /** How many threads lost turns. */
  readonly threads: number;
  /** How many turns were removed. */
  readonly turns: number;
  /** How many rows were removed (the rows that became sentinels included). */
  readonly rows: number;
  /**
   * The threads expiry left whole for being in a chain of forks by reference: always empty
   * since expiry cuts through forks (notes/0121), kept for compatibility. Code that erased or
   * deleted the threads named here has nothing left to do.
   */
  readonly leftWhole: readonly string[];
}

/**
 * Options of {@link ChunkStore.rotateThreadKey}.
 *
 * @example
 * ```ts
 * const options: RotateKeyOptions = { batchRows: 200 };
 * ```
 */
export interface RotateKeyOptions {
  /** Rows re-encrypted per transaction. Default 500. */
  readonly batchRows?: number | undefined;
}

/**
 * What {@link ChunkStore.rotateThreadKey} did.
 *
 * @example
 * ```ts
 * const { version, rows } = await store.rotateThreadKey('thread-1');
 * ```
 */
export interface RotateKeyResult {
  /** The thread's key version now. */
  readonly version: number;
  /** Rows re-encrypted by this call (clear rows encrypted included). */
  readonly rows: number;
  /** Rows left as they were because they did not decrypt (corrupt, or their key was gone). */
  readonly unreadable: number;
}

/** Options of {@link ChunkStore.forkThread}. */
export interface ForkThreadOptions {
  /**
   * The fork holds the source's rows with `seq <= atSeq` (0 makes an empty fork; beyond the end
   * forks at the end). It must be a turn boundary: the row after it starts another turn.
   */
  readonly atSeq: number;
  /** The new thread's id. Default: a random UUID. */
  readonly newThreadId?: string | undefined;
  /** The new thread's metadata. Default: the source thread's. */
  readonly metadata?: JSONObject | undefined;
}

/** Options of {@link ChunkStore.addAlternative}. */
export interface AddAlternativeOptions {
  /**
   * The turn of the conversation's active path the alternative replaces: it branches at the
   * boundary before this turn, and the next turn appended to it is the new version.
   */
  readonly turnId: string;
  /** The alternative's thread id. Default: a random UUID. */
  readonly newThreadId?: string | undefined;
}

/** One version of a turn of a conversation (see {@link ChunkStore.getAlternatives}). */
export interface Alternative {
  /**
   * The thread that holds this version and what follows it: the path that becomes active when
   * it is switched to. The conversation's own id for the original version.
   */
  readonly threadId: string;
  /**
   * The turn it starts with; undefined for an alternative whose turn is not written yet, and for
   * a version whose first turn `expire` removed (the version is still listed: its later rows are
   * there to switch to).
   */
  readonly turnId: string | undefined;
  /** When the thread holding it was created (ISO 8601). */
  readonly createdAt: string;
}

/** A turn of a conversation's active path that has more than one version. */
export interface BranchPoint {
  /** The seq the versions branch at: each starts with the row after it. */
  readonly atSeq: number;
  /** The versions, oldest first. */
  readonly alternatives: readonly Alternative[];
  /** The index in `alternatives` of the one on the active path. */
  readonly active: number;
}

/**
 * One version of a conversation: its own thread or one of its alternatives (see
 * {@link Alternatives.versions}), on the active path or not.
 */
export interface ConversationVersion {
  /**
   * The thread whose path this version is: the id to give `switchAlternative`, or to read. The
   * conversation's own id for the original.
   */
  readonly threadId: string;
  /** When its thread was created (ISO 8601). */
  readonly createdAt: string;
  /**
   * Where it branches, as {@link Thread.forkOf} of its thread says: its path reads the rows up to
   * `atSeq` through `threadId`, the thread whose own rows hold row `atSeq` (another version, or
   * a thread the conversation was forked from), then its own rows. Undefined for a conversation
   * that is no fork.
   */
  readonly forkOf: ThreadFork | undefined;
  /**
   * The turn its own rows start with (row `forkOf.atSeq + 1`, or row 1): for an alternative, its
   * version of the turn it replaces. Undefined while it has no row of its own, and when there is
   * no such row (`expire` removed that turn, or the thread's seqs start later).
   */
  readonly turnId: string | undefined;
  /** The seq of the newest row of its path, as {@link Thread.total}. */
  readonly total: number;
}

/**
 * A conversation's active path, its branch points, and every version (see
 * {@link ChunkStore.getAlternatives}).
 */
export interface Alternatives {
  /** The conversation's id. */
  readonly conversationId: string;
  /** The thread whose path is active: the conversation's own id, or an alternative's. */
  readonly activePath: string;
  /** Every turn of the active path that has more than one version, oldest first. */
  readonly branches: readonly BranchPoint[];
  /**
   * Every version of the conversation: its own thread first, then each alternative in the order
   * they were made (creation time, then id), whether the active path reaches its branch point or
   * not. `branches` lists only the versions of the active path's turns: a version made off
   * another version (an edit of turn 3 on version B, then a switch back to a path that does not
   * go through B's turn 3), or one whose branch point lies beyond a truncated active path, is
   * listed here alone. Each can be switched to by its `threadId`.
   */
  readonly versions: readonly ConversationVersion[];
}

/**
 * Options of {@link ChunkStore.getChunksAfter}.
 *
 * @example
 * ```ts
 * const options: GetChunksAfterOptions = { limit: 500, afterSeq: page.newestSeq ?? 0 };
 * ```
 */
export interface GetChunksAfterOptions extends ReadOptions {
  /** At most this many rows, from 1 to 1,000. Default 50. */
  readonly limit?: number | undefined;
  /**
   * Only rows with a seq above this one (the `newestSeq` of the previous page). Default 0: from
   * the thread's first row.
   */
  readonly afterSeq?: number | undefined;
}

/** A thread's oldest own row, as {@link ForwardChunkPage.threadStart} names it. */
export interface ThreadStart {
  readonly seq: number;
  readonly turnId: string;
  /** ISO 8601. */
  readonly createdAt: string;
}

/**
 * A forward page of a thread's log, as {@link ChunkStore.getChunksAfter} returns it: the oldest
 * `limit` rows after a seq, in ascending seq. The mirror of `ChunkPage`, for reading a thread
 * from its start (an export, a replication) without holding all of it at once.
 *
 * @example
 * ```ts
 * const page: ForwardChunkPage = await store.getChunksAfter(threadId, { limit: 500 });
 * ```
 */
export interface ForwardChunkPage {
  /** The rows, in ascending seq. */
  readonly chunks: readonly ChunkRow[];
  /** How many rows the thread holds (read in the same statement as the rows). */
  readonly total: number;
  /** The largest seq of this page (the `afterSeq` of the next page), null when the page is empty. */
  readonly newestSeq: number | null;
  /** Whether rows newer than this page exist. */
  readonly hasMore: boolean;
  /** The status of each turn of the page that is not `completed` (see `ChunkPage.turnStatus`). */
  readonly turnStatus?: Readonly<Record<string, TurnStatus>> | undefined;
  /**
   * The oldest row the thread holds of its own (its seq, turn id and creation time), read in the
   * same statement as the rows; absent when none of its own rows lies after `afterSeq` (the rows
   * a fork reads from its parent are not its own, and do not count). Once retention (`expire`)
   * removed turns the thread's path reads, it is instead the newest of the sentinels the path
   * starts with (the one the latest expiry that cut the path wrote), whether or not the thread's
   * own rows lie after `afterSeq`: read along the stretches a fork reads of other threads, so an
   * expiry of a fork's parent moves it too (notes/0121). A reader that keeps rows from an
   * earlier read sees here that rows before its position are gone (a truncation it sees in the
   * rows themselves).
   */
  readonly threadStart?: ThreadStart | undefined;
}

/**
 * Options of {@link ChunkStore.appendTurn}.
 *
 * @example
 * ```ts
 * // An imported turn keeps the time it was first stored.
 * await store.appendTurn(threadId, drafts, { createdAt: exported.createdAt });
 * ```
 */
export interface AppendTurnOptions {
  /**
   * The time the turn's rows are stamped with (`createdAt`), for a turn imported from elsewhere:
   * an ISO 8601 date-time with a time zone (`2026-11-30T12:00:00.000Z`, `…+01:00`) or a `Date`;
   * kept to the millisecond. Default: now. It is a label, not an order: `seq` alone orders a
   * thread, and the thread's `updatedAt` is still the time of the append.
   */
  readonly createdAt?: string | Date | undefined;
  /**
   * The turn's status, stored with its rows (migration `0002`): `'failed'`, `'cancelled'` or
   * `'interrupted'` make the turn read so in pages and messages. Default `'completed'`.
   */
  readonly status?: EndedTurnStatus | undefined;
  /**
   * The seq the turn's first row takes, for a turn imported with the seqs it had: at or above
   * the thread's next seq (the seqs skipped stay empty, as an expiry leaves the seqs of the rows
   * it removed). `invalid-option` (`firstSeq`) below it, unless the turn is stored already (a
   * retry answers the rows as stored), and also when the turn's rows would take the thread's
   * next seq past 2^31 - 1 (the largest seq a column holds). Default: the thread's next seq.
   */
  readonly firstSeq?: number | undefined;
  /** Write only while this lease holds (fencing); otherwise `lease-lost` and nothing is written. */
  readonly fence?: LeaseFence | undefined;
  /**
   * The turn's step usage, recorded with its rows in the same transaction (as `recordUsage`
   * does; a session passes it). Not written when the turn was stored already (a retry).
   */
  readonly usage?: readonly StepUsage[] | undefined;
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
export interface ChunkStore extends ChunkStoreTurns {
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
   * @param options - `createdAt`: the time to stamp the rows with (an import); default now
   * @returns the stored rows, with `threadId`, `seq` and `createdAt`
   * @throws {ChunklogError} `invalid-row` before anything is written; `invalid-option` for a bad
   *   `createdAt`; `store-failed`
   *
   * @example
   * ```ts
   * const rows = await store.appendTurn('thread-1', explodeTurn(turnId, chunks, { role: 'assistant' }));
   * rows.at(-1)?.seq; // the thread's newest seq
   * ```
   */
  appendTurn(
    threadId: string,
    drafts: readonly ChunkRowDraft[],
    options?: AppendTurnOptions,
  ): Promise<ChunkRow[]>;
  /**
   * A page of the thread's log, by keyset on seq: the newest `limit` rows (default 50) below
   * `before`, in ascending seq.
   *
   * @throws {ChunklogError} `thread-not-found`; `invalid-option` for a limit outside 1–1,000
   *
   * @example
   * ```ts
   * const tail = await store.getChunks('thread-1', { limit: 50 });
   * if (tail.hasMore) await store.getChunks('thread-1', { limit: 50, before: tail.oldestSeq ?? 1 });
   * ```
   */
  getChunks(threadId: string, options?: GetChunksOptions): Promise<ChunkPage>;
  /**
   * A forward page of the thread's log, by keyset on seq: the oldest `limit` rows with
   * `seq > afterSeq`, ascending. Reads a thread from its start a page at a time (an export, a
   * replication); `getChunks` pages backwards from its end.
   *
   * @throws {ChunklogError} `thread-not-found`; `invalid-option` for a limit outside 1–1,000 or a
   *   bad `afterSeq`
   *
   * @example
   * ```ts
   * let page = await store.getChunksAfter('thread-1', { limit: 500 });
   * for (;;) {
   *   for (const row of page.chunks) write(row);
   *   if (!page.hasMore) break;
   *   page = await store.getChunksAfter('thread-1', { limit: 500, afterSeq: page.newestSeq ?? 0 });
   * }
   * ```
   */
  getChunksAfter(threadId: string, options?: GetChunksAfterOptions): Promise<ForwardChunkPage>;
  /**
   * Every row of the thread (or those after `afterSeq`), in ascending seq, in one read. For a
   * long thread, page with `getChunksAfter`.
   *
   * @example
   * ```ts
   * const newer = await store.getRows('thread-1', { afterSeq: lastSeenSeq });
   * ```
   */
  getRows(threadId: string, options?: GetRowsOptions): Promise<ChunkRow[]>;
  /**
   * The rows of one turn, in ascending seq (one index lookup on thread, turn and seq), or null
   * when no row of that turn id is stored in the thread. With `onCorruptRow: 'skip'`, a stored
   * turn whose rows are all corrupt gives `[]`.
   *
   * @throws {ChunklogError} `thread-not-found`; `invalid-option` for a malformed turn id
   *
   * @example
   * ```ts
   * const rows = await store.getTurn('thread-1', 'turn-7');
   * if (rows !== null) console.log(`seqs ${rows[0]?.seq}–${rows.at(-1)?.seq}`);
   * ```
   */
  getTurn(threadId: string, turnId: string, options?: ReadOptions): Promise<ChunkRow[] | null>;
  /**
   * Whether a turn id is stored in the thread: the question `appendTurn` answers before it
   * writes, asked ahead (say, before running a model for a job that may have been stored by an
   * earlier attempt). False when the thread does not exist.
   *
   * @throws {ChunklogError} `invalid-option` for a malformed thread or turn id
   *
   * @example
   * ```ts
   * if (!(await store.hasTurn(job.threadId, job.id))) await runTurn(job);
   * ```
   */
  hasTurn(threadId: string, turnId: string): Promise<boolean>;
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
   * The thread's whole history: its rows folded into messages. The one whole-thread read of the
   * store (`getMessages` and a session's history go through it): it starts from the thread's
   * newest history state (its rows folded up to a seq, stored by writes once `snapshotMinRows`
   * rows follow the last one, or by {@link ChunkStore.writeHistorySnapshot}) and folds the rows
   * after it; a thread without a state is one statement. A read never writes.
   *
   * @throws {ChunklogError} `thread-not-found`; `corrupt-row` under the `throw` policy
   *
   * @example
   * ```ts
   * const { messages, fold } = await store.getHistory('thread-1');
   * const newer = await store.getRows('thread-1', { afterSeq: fold.seq });
   * for (const row of newer) fold.add(row);
   * ```
   */
  getHistory(threadId: string, options?: ReadOptions): Promise<HistoryRead>;
  /**
   * Writes a history state of the thread now (its rows folded into messages up to its last row),
   * which whole-thread reads then start from. Writes do this by themselves once
   * `snapshotMinRows` rows follow the newest state; call it for maintenance (after an import, say).
   *
   * @returns the seq the state ends with, or undefined when none was written (nothing past the
   *   newest state, a corrupt row, or `snapshotMinRows: false`)
   * @throws {ChunklogError} `thread-not-found`
   *
   * @example
   * ```ts
   * await store.writeHistorySnapshot('thread-1');
   * ```
   */
  writeHistorySnapshot(threadId: string): Promise<number | undefined>;
  /**
   * Creates an empty thread (with a random UUID when no id is given), its first row at seq
   * `firstSeq` (default 1).
   *
   * @throws {ChunklogError} `thread-exists` when the id is taken
   *
   * @example
   * ```ts
   * const { id } = await store.createThread(undefined, { ownerId: 'user-7', title: 'New chat' });
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
   * Threads, most recently active first, by keyset; with `ownerId`, only that owner's threads
   * (on the owner index). A thread whose row cannot be read (its title or metadata encrypted
   * under a key that is gone: a backup restored after `eraseThread`) fails the page with
   * `corrupt-row` naming it, or, with `onCorruptRow: 'skip'` (per store or per call), is left
   * out of `threads` and named in `skipped`.
   *
   * @example
   * ```ts
   * const first = await store.listThreads({ ownerId: 'user-7', limit: 20 });
   * const next = first.nextBefore
   *   ? await store.listThreads({ ownerId: 'user-7', limit: 20, before: first.nextBefore })
   *   : undefined;
   * ```
   */
  listThreads(options?: ListThreadsOptions): Promise<ThreadPage>;
  /**
   * Changes a thread's title, owner id or metadata (each given field replaces the stored one;
   * `null` clears it). Does not count as activity: `updatedAt` stays, so the thread keeps its
   * place in `listThreads`.
   *
   * @throws {ChunklogError} `thread-not-found`; `invalid-option` naming a bad field
   *
   * @example
   * ```ts
   * const thread = await store.updateThread('thread-1', { title: 'Trip to Lisbon' });
   * ```
   */
  updateThread(threadId: string, changes: UpdateThreadOptions): Promise<Thread>;
  /**
   * Deletes a thread and its rows. Returns whether it existed. Refused while forks read its rows
   * by reference (a fork at seq 0 reads none and does not count): delete the forks first.
   *
   * @throws {ChunklogError} `thread-has-forks`, `value` naming the forks and their fork seqs
   *
   * @example
   * ```ts
   * await store.deleteThread('thread-1'); // true, then false
   * ```
   */
  deleteThread(threadId: string): Promise<boolean>;
  /**
   * Erases a thread for good (a user's erasure request): with `encryption`, the thread's keys
   * are destroyed first (crypto-shredding: no earlier copy of its rows, in the database files,
   * the WAL or a backup, can be decrypted any more), then its rows, history states, usage,
   * turns, lease and the thread itself are deleted. Returns whether the thread existed; erasing
   * again is safe. A thread whose forks read its rows by reference is refused before any key is
   * destroyed: erase the forks first (they are threads of their own). The live events a relay
   * still buffers are the app's to drop (see docs/store.md, Privacy). Without `encryption`, it
   * deletes as {@link ChunkStore.deleteThread} does, turns and lease included.
   *
   * @throws {ChunklogError} `thread-has-forks`, `value` naming the forks and their fork seqs
   *
   * @example
   * ```ts
   * await store.eraseThread('thread-1'); // true, then false
   * ```
   */
  eraseThread(threadId: string): Promise<boolean>;
  /**
   * Retention: in every thread (or `threadId`), removes the longest run of whole turns from its
   * start whose every row was created before `before`; a running turn, or a newer one, ends the
   * run. The last row removed becomes a `context-truncated` system row in their place (a
   * sentinel: how many turns are gone, and the first turn kept), so model input and the window
   * start at the first turn kept; a later expiry folds the sentinel into its own. Usage rows are
   * kept (what was spent was spent): `getThreadUsage` totals do not change. The rows kept keep
   * their seqs, so a thread's seqs then start at the sentinel's, not at 1 (`total` still counts
   * every row ever stored). History states of the thread are dropped (a later write writes
   * one). With `encryption` the sentinel is encrypted like any row. Forks by reference and the
   * versions of a conversation expire too (notes/0121): each row by the thread that owns it,
   * owners before their forks (a fork's own turns only behind every row it reads of others), and
   * the row where a fork stops reading the removed rows becomes a sentinel as well; every thread
   * whose path reads the rows removed loses its history states, and its `updatedAt` moves.
   *
   * @throws {ChunklogError} `invalid-option` for a `before` that is no time, or a bad thread id
   *
   * @example
   * ```ts
   * await store.expire({ before: new Date(Date.now() - 90 * 86_400_000) }); // 90 days
   * ```
   */
  expire(options: ExpireOptions): Promise<ExpireResult>;
  /**
   * Key rotation (a store with `encryption`): makes a new key for the thread, re-encrypts its
   * rows under it in batches of `batchRows` (one short transaction each, under the thread's
   * lock, so writers wait for one batch at most), then its metadata and title, then destroys its
   * older keys. Rows stored in clear before encryption was turned on are encrypted too; history
   * states are dropped (a later write writes one, encrypted). Resumable: a rotation killed half
   * way leaves every row readable (both keys exist), and the next call finishes it under the
   * same new key. A thread erased while the rotation runs stops it with `thread-not-found`.
   *
   * @throws {ChunklogError} `invalid-option` on a store without `encryption`, or a bad
   *   `batchRows`; `thread-not-found`
   *
   * @example
   * ```ts
   * const { version } = await store.rotateThreadKey('thread-1'); // 2, then 3, …
   * ```
   */
  rotateThreadKey(threadId: string, options?: RotateKeyOptions): Promise<RotateKeyResult>;
  /**
   * Deletes the rows after `seq` and the status of the turns they held; the next turn gets seq
   * `seq + 1`. Destructive: to edit or regenerate and keep the old version, use
   * {@link ChunkStore.addAlternative}. Returns how many rows went from the thread's path.
   * Refused while a fork reads rows above `seq` by reference. On a fork, a `seq` below its fork
   * seq makes it read less of its parent (its `forkOf.atSeq` becomes `seq`, and its
   * `forkOf.threadId` the thread whose rows it then ends with); the parent's rows stay.
   *
   * @throws {ChunklogError} `thread-not-found`; `thread-has-forks`, `value` naming the forks
   *
   * @example
   * ```ts
   * // Drop everything after the user's message (the old answer is not kept).
   * await store.truncateAfter('thread-1', lastUserRow.seq);
   * ```
   */
  truncateAfter(threadId: string, seq: number): Promise<number>;
  /**
   * Forks the thread at `atSeq`: a new thread whose rows up to `atSeq` are the source's, read
   * by reference (nothing is copied: O(1) in the thread's length), and whose own turns follow.
   * Every read (pages both ways, `getRows`, turns, history, model input) goes through the chain,
   * forks of forks included; rows read through a fork carry the fork's id as `threadId`, and
   * keep their seq, turn id and time. The source cannot be deleted, or truncated below `atSeq`,
   * while the fork is there (`thread-has-forks`). `atSeq` beyond the end forks at the end. A
   * fork of a fork at or below its own fork seq reads none of its rows: it is recorded as the fork
   * of the thread whose rows it ends with (`forkOf.threadId`), and holds that one instead.
   *
   * @throws {ChunklogError} `thread-not-found`; `thread-exists` when `newThreadId` is taken;
   *   `invalid-option` (`atSeq`) for a seq inside a turn, naming the boundaries before and after it
   *
   * @example
   * ```ts
   * const branch = await store.forkThread('thread-1', { atSeq: 42 });
   * await store.appendTurn(branch.id, drafts);
   * ```
   */
  forkThread(threadId: string, options: ForkThreadOptions): Promise<Thread>;
  /**
   * Makes an alternative of a turn of a conversation and makes it the active path: a fork, by
   * reference, of the active path at the boundary before turn `turnId`, recorded as part of the
   * conversation. Append the new version of the turn (an edited prompt, a regenerated answer) to
   * the returned thread. Nothing is deleted: the old version stays and can be switched back to.
   * A conversation is any thread that is not itself an alternative.
   *
   * @throws {ChunklogError} `thread-not-found`; `invalid-option` when `threadId` is an
   *   alternative (give its conversation) or `turnId` is not on the active path; `thread-exists`
   *   when `newThreadId` is taken
   *
   * @example
   * ```ts
   * const branch = await store.addAlternative('chat-1', { turnId: 'turn-3' });
   * await store.appendTurn(branch.id, newVersionOfTurn3);
   * ```
   */
  addAlternative(conversationId: string, options: AddAlternativeOptions): Promise<Thread>;
  /**
   * A conversation's active path and, for each of its turns that has more than one version, the
   * versions (oldest first) and which one is active; and every version of the conversation, on
   * the active path or not (`versions`: what an "all versions" list shows).
   *
   * @throws {ChunklogError} `thread-not-found`; `invalid-option` when given an alternative
   *
   * @example
   * ```ts
   * const { activePath, versions } = await store.getAlternatives('chat-1');
   * const labels = versions.map((v) => `${v.threadId === activePath ? '*' : ' '} ${v.threadId}`);
   * ```
   */
  getAlternatives(conversationId: string): Promise<Alternatives>;
  /**
   * Makes the path of `threadId` (the conversation itself or one of its alternatives, as listed
   * by {@link ChunkStore.getAlternatives}) the conversation's active path.
   *
   * @throws {ChunklogError} `thread-not-found`; `invalid-option` when `threadId` is not part of
   *   the conversation
   */
  switchAlternative(conversationId: string, threadId: string): Promise<Alternatives>;
  /**
   * The thread whose path is the conversation's active one: `conversationId` itself until an
   * alternative is made or switched to. Read and write a conversation's turns through it. Given
   * an alternative's id, returns it unchanged.
   *
   * @throws {ChunklogError} `thread-not-found`
   */
  activePath(conversationId: string): Promise<string>;
  /**
   * Records what a turn's model steps used (one row per step; the session does it after each
   * turn). Steps already recorded for the turn are kept as they were: a retry is safe.
   *
   * @param threadId - the thread (it must exist)
   * @param turnId - the turn the steps belong to
   * @param steps - the steps' usage
   * @throws {ChunklogError} `thread-not-found`; `invalid-option` naming a bad step
   *
   * @example
   * ```ts
   * await store.recordUsage('thread-1', 'turn-7', [
   *   { step: 0, modelId: 'claude-sonnet-4-5', usage: { inputTokens: 1200, outputTokens: 40 } },
   * ]);
   * ```
   */
  recordUsage(threadId: string, turnId: string, steps: readonly StepUsage[]): Promise<void>;
  /**
   * A turn's recorded usage: its steps and their sum (and `cost`, with a price function), or
   * null when none is recorded.
   *
   * @example
   * ```ts
   * const usage = await store.getTurnUsage('thread-1', 'turn-7');
   * usage?.steps.at(-1)?.usage.inputTokens; // the exact size of the turn's last prompt
   * ```
   */
  getTurnUsage(
    threadId: string,
    turnId: string,
    options?: UsageReadOptions,
  ): Promise<TurnUsage | null>;
  /**
   * A thread's recorded usage, totalled over every step (and priced, with a price function).
   *
   * @throws {ChunklogError} `thread-not-found`
   *
   * @example
   * ```ts
   * const { total, cost } = await store.getThreadUsage('thread-1', {
   *   price: (modelId, u) => ((u.inputTokens ?? 0) * 3 + (u.outputTokens ?? 0) * 15) / 1e6,
   * });
   * ```
   */
  getThreadUsage(threadId: string, options?: UsageReadOptions): Promise<ThreadUsage>;
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

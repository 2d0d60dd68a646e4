import type { ModelMessage } from 'ai';
import { ChunklogError } from '../errors/index.js';
import type { ChatMessage } from '../schema/chat-message.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import { groupRows } from '../transforms/group-rows.js';
import { modelMessagesOf } from './pipeline.js';
import type { SessionStore } from './types.js';

/** Rows per forward page when reading what changed (the store's largest page). */
const PAGE = 1000;

/** A forward page, as `ChunkStore.getChunksAfter` returns it. */
interface ForwardPage {
  readonly chunks: readonly ChunkRow[];
  readonly total: number;
  readonly newestSeq: number | null;
  readonly hasMore: boolean;
}

/**
 * The reads a history kept between turns needs beyond {@link SessionStore}: `getChunksAfter` to
 * check the store and read what changed, and (for a faster rebuild) `getHistory` or `getRows`. A
 * `ChunkStore` has them all; a store without `getChunksAfter` is read whole every turn, as before.
 */
export interface HistoryStore extends SessionStore {
  getChunksAfter?(
    threadId: string,
    options: { readonly afterSeq: number; readonly limit: number },
  ): Promise<ForwardPage>;
  getRows?(threadId: string): Promise<readonly ChunkRow[]>;
  /**
   * The thread for a cold rebuild: its older turns' messages from history snapshots, and the
   * rows after them (`ChunkStore.getHistory`). Used, when there, instead of `getRows`.
   */
  getHistory?(threadId: string): Promise<{
    readonly messages: readonly ChatMessage[];
    readonly turnIds: readonly string[];
    readonly rows: readonly ChunkRow[];
  }>;
}

/**
 * Whether a message can be turned into model messages on its own: nothing in it refers to, or
 * changes, another message's model input (a `model-changed` notice strips earlier reasoning's
 * signatures; an orphan or deferred result goes back with its call, wherever that is).
 */
function standsAlone(message: ChatMessage): boolean {
  for (const chunk of message.chunks) {
    if (chunk.type === 'system' && chunk.kind === 'model-changed') return false;
    if (chunk.type === 'tool-batch') {
      for (const entry of chunk.calls) {
        if (entry.orphan === true || entry.deferred === true) return false;
      }
    }
  }
  return true;
}

/** The older turns of a thread as the store's history snapshots hold them. */
interface Head {
  readonly messages: readonly ChatMessage[];
  readonly turnIds: readonly string[];
}

/** Whether two reads of one seq are the same stored row. */
function sameRow(a: ChunkRow, b: ChunkRow): boolean {
  return (
    a.seq === b.seq &&
    a.turnId === b.turnId &&
    a.createdAt === b.createdAt &&
    a.type === b.type &&
    a.role === b.role &&
    a.step === b.step &&
    JSON.stringify(a.data) === JSON.stringify(b.data)
  );
}

/**
 * A thread's history kept in memory between a session's turns: its messages, and the model
 * messages of all but its last turn. Before each turn {@link ThreadHistory.messages} asks the
 * store for the rows from the last one it read (one keyset read): when that row is still there,
 * unchanged, only the rows after it are new, and only the last turn is grouped again with them;
 * otherwise (a truncate, a thread deleted and created again, a fork under the same id, a row
 * that joins an older turn) the thread is read again whole. What it gives is always what
 * grouping the stored rows afresh gives: a restarted process sends the same model input.
 */
export class ThreadHistory {
  readonly #store: HistoryStore;
  readonly #threadId: string;
  /** The messages, replaced (never changed in place) when the history changes. */
  #messages: readonly ChatMessage[] = [];
  /** The last row read: the store is checked against it. */
  #lastRow: ChunkRow | undefined;
  #loaded = false;
  /** The rows of the last turn, and where its messages start. */
  #tailRows: ChunkRow[] = [];
  #tailStart = 0;
  /** Every turn id seen before the last turn. */
  readonly #olderTurns = new Set<string>();
  /** The model messages of `#messages[0, #tailStart)`, while every message stands alone. */
  #prefixModel: ModelMessage[] | undefined = [];
  /** The model messages of the whole history, built at most once per version of it. */
  #model: ModelMessage[] | undefined;
  /** The read in progress: reads run one after another, so that none applies rows twice. */
  #reading: Promise<unknown> = Promise.resolve();

  /**
   * @param store - the session's store
   * @param threadId - the session's thread
   */
  constructor(store: HistoryStore, threadId: string) {
    this.#store = store;
    this.#threadId = threadId;
  }

  /**
   * The thread's messages as stored now, oldest first: the kept ones, brought up to date with
   * what the store holds.
   *
   * @returns the messages; the same array while nothing changed
   */
  messages(): Promise<readonly ChatMessage[]> {
    const read = this.#reading.then(() => this.#read());
    this.#reading = read.catch(() => {});
    return read;
  }

  async #read(): Promise<readonly ChatMessage[]> {
    const store = this.#store;
    if (typeof store.getChunksAfter !== 'function') return await readAll(store, this.#threadId);
    if (!this.#loaded) return await this.#rebuild();
    const last = this.#lastRow;
    let page: ForwardPage;
    try {
      page = await store.getChunksAfter(this.#threadId, {
        afterSeq: last === undefined ? 0 : last.seq - 1,
        limit: PAGE,
      });
    } catch (error) {
      if (!ChunklogError.hasCode(error, 'thread-not-found')) throw error;
      this.#reset([]);
      return this.#messages;
    }
    const first = page.chunks[0];
    if (last !== undefined && (first === undefined || !sameRow(first, last))) {
      return await this.#rebuild();
    }
    const fresh = last === undefined ? [...page.chunks] : page.chunks.slice(1);
    let more = page;
    while (more.hasMore && more.newestSeq !== null) {
      more = await store.getChunksAfter(this.#threadId, {
        afterSeq: more.newestSeq,
        limit: PAGE,
      });
      for (const row of more.chunks) fresh.push(row);
    }
    if (fresh.length === 0) return this.#messages;
    if (!this.#append(fresh)) return await this.#rebuild();
    return this.#messages;
  }

  /**
   * The model messages of `messages` when they are this history's current messages (built
   * once, then shared), else undefined.
   */
  modelMessagesOf(messages: readonly ChatMessage[]): ModelMessage[] | undefined {
    if (messages !== this.#messages) return undefined;
    if (this.#model === undefined) {
      const prefix = this.#prefixModel;
      const tail = this.#messages.slice(this.#tailStart);
      this.#model =
        prefix !== undefined && tail.every(standsAlone)
          ? [...prefix, ...modelMessagesOf(tail)]
          : modelMessagesOf(this.#messages);
    }
    return this.#model;
  }

  /** Reads the whole thread again. */
  async #rebuild(): Promise<readonly ChatMessage[]> {
    const store = this.#store;
    let head: Head | undefined;
    let rows: readonly ChunkRow[];
    try {
      if (typeof store.getHistory === 'function') {
        const read = await store.getHistory(this.#threadId);
        rows = read.rows;
        // A head is used only with a row after it: the store is checked against the last row.
        if (read.messages.length > 0 || read.turnIds.length > 0) {
          if (rows.length > 0) head = read;
          else rows = await this.#allRows();
        }
      } else {
        rows = await this.#allRows();
      }
    } catch (error) {
      if (!ChunklogError.hasCode(error, 'thread-not-found')) throw error;
      rows = [];
    }
    this.#reset(rows, head);
    return this.#messages;
  }

  /** Every row of the thread. */
  async #allRows(): Promise<readonly ChunkRow[]> {
    const store = this.#store;
    return typeof store.getRows === 'function'
      ? await store.getRows(this.#threadId)
      : await readForward(store, this.#threadId);
  }

  /**
   * Starts over from `rows`: the whole thread, or the rows after `head` (the older turns'
   * messages, from the store's history snapshots).
   */
  #reset(rows: readonly ChunkRow[], head?: Head): void {
    this.#loaded = true;
    this.#olderTurns.clear();
    this.#model = undefined;
    this.#lastRow = rows[rows.length - 1];
    const grouped = groupRows(rows);
    const messages = head === undefined ? grouped : [...head.messages, ...grouped];
    for (const turnId of head?.turnIds ?? []) this.#olderTurns.add(turnId);
    this.#messages = messages;
    const split = splitTail(messages, rows, this.#olderTurns);
    if (split === undefined) {
      // No clean last turn (its rows interleave with another's, or its system rows joined an
      // earlier system message): the model input is built whole, and any new row rebuilds.
      this.#tailStart = messages.length;
      this.#tailRows = [];
      this.#prefixModel = undefined;
      for (const row of rows) this.#olderTurns.add(row.turnId);
      return;
    }
    this.#tailStart = split.tailStart;
    this.#tailRows = split.tailRows;
    const prefix = messages.slice(0, split.tailStart);
    this.#prefixModel = prefix.every(standsAlone) ? modelMessagesOf(prefix) : undefined;
  }

  /**
   * Adds rows newer than every kept one: the last turn is grouped again with them. Returns false
   * when that would not give what grouping the whole thread gives (a row of an older turn, system
   * rows that would join an older system message), so that the caller reads the thread again.
   */
  #append(rows: readonly ChunkRow[]): boolean {
    for (const row of rows) {
      if (this.#olderTurns.has(row.turnId)) return false;
    }
    const regroup = this.#tailRows.concat(rows);
    const grouped = groupRows(regroup);
    const head = this.#messages.slice(0, this.#tailStart);
    // Grouping the whole thread, a first system message here would have joined one ending the head.
    if (head[head.length - 1]?.role === 'system' && grouped[0]?.role === 'system') return false;
    const older = new Set<string>();
    const split = splitTail(grouped, regroup, older);
    if (split === undefined) return false;
    for (const turnId of older) {
      if (this.#olderTurns.has(turnId)) return false;
    }
    for (const turnId of older) this.#olderTurns.add(turnId);
    // The messages that left the tail join the prefix's model input.
    const leaving = grouped.slice(0, split.tailStart);
    if (this.#prefixModel !== undefined && leaving.length > 0) {
      if (leaving.every(standsAlone)) {
        for (const m of modelMessagesOf(leaving)) this.#prefixModel.push(m);
      } else {
        this.#prefixModel = undefined;
      }
    }
    this.#messages = head.concat(grouped);
    this.#tailStart = head.length + split.tailStart;
    this.#tailRows = split.tailRows;
    this.#lastRow = rows[rows.length - 1];
    this.#model = undefined;
    return true;
  }
}

/**
 * Splits grouped rows into the messages before the last turn and the last turn's, when the last
 * turn's rows, grouped alone, give exactly its messages at the end (so that it can be grouped
 * again with newer rows); else undefined. Adds the turn ids before the last turn to `older`.
 */
function splitTail(
  messages: readonly ChatMessage[],
  rows: readonly ChunkRow[],
  older: Set<string>,
): { readonly tailStart: number; readonly tailRows: ChunkRow[] } | undefined {
  const last = rows[rows.length - 1];
  if (last === undefined) return { tailStart: 0, tailRows: [] };
  let cut = rows.length;
  while (cut > 0 && (rows[cut - 1] as ChunkRow).turnId === last.turnId) cut--;
  for (let i = 0; i < cut; i++) older.add((rows[i] as ChunkRow).turnId);
  if (older.has(last.turnId)) return undefined;
  const tailRows = rows.slice(cut);
  const alone = groupRows(tailRows);
  const tailStart = messages.length - alone.length;
  if (tailStart < 0) return undefined;
  for (let i = 0; i < alone.length; i++) {
    const kept = messages[tailStart + i] as ChatMessage;
    const regrouped = alone[i] as ChatMessage;
    if (kept.id !== regrouped.id || kept.chunks.length !== regrouped.chunks.length)
      return undefined;
  }
  // A system message before the turn could have taken in its first system rows.
  if (messages[tailStart - 1]?.role === 'system' && alone[0]?.role === 'system') return undefined;
  return { tailStart, tailRows };
}

/** The whole thread grouped, as a store without forward pages gives it. */
async function readAll(store: SessionStore, threadId: string): Promise<readonly ChatMessage[]> {
  try {
    return await store.getMessages(threadId);
  } catch (error) {
    if (ChunklogError.hasCode(error, 'thread-not-found')) return [];
    throw error;
  }
}

/** Every row of the thread, by forward pages. */
async function readForward(store: HistoryStore, threadId: string): Promise<ChunkRow[]> {
  const rows: ChunkRow[] = [];
  const read = store.getChunksAfter as NonNullable<HistoryStore['getChunksAfter']>;
  let afterSeq = 0;
  for (;;) {
    const page = await read.call(store, threadId, { afterSeq, limit: PAGE });
    for (const row of page.chunks) rows.push(row);
    if (!page.hasMore || page.newestSeq === null) return rows;
    afterSeq = page.newestSeq;
  }
}

import { ChunklogError } from '../errors/index.js';
import type { ChatMessage } from '../schema/chat-message.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import type { CorruptRowPolicy, ForwardChunkPage, ThreadStart } from '../store/types.js';
import { MessageFold } from '../transforms/message-fold.js';
import type { SessionStore } from './store.js';

/** Rows per forward page when reading what changed (the store's largest page). */
const PAGE = 1000;

/** A failed read is its caller's to handle; the next read runs after it all the same. */
function settled(): void {}

/** A stored row's identity: its seq, turn and creation time. */
type RowIdentity = Pick<ChunkRow, 'seq' | 'turnId' | 'createdAt'>;

/** Whether two marks name the same stored row. */
function sameRow(a: RowIdentity, b: RowIdentity): boolean {
  return a.seq === b.seq && a.turnId === b.turnId && a.createdAt === b.createdAt;
}

/**
 * A thread's history kept by a session between its turns (of one path of a conversation: a
 * switch to another path drops it): the fold of its rows into messages
 * (`MessageFold`, the state history snapshots store). Before each turn
 * {@link KeptHistory.messages} asks the store for the rows from the last one folded (one keyset
 * read): when that row is still there, unchanged, and the thread's oldest row is the one it was
 * (`ForwardChunkPage.threadStart`), only the rows after it are folded in; otherwise (a truncation,
 * an expiry, a thread deleted and created again) the thread is read again through the store's
 * one history read. What it gives is always what reading the thread afresh gives, so
 * a restarted process sends the same model input.
 */
export class KeptHistory {
  readonly #store: SessionStore;
  /** The path the fold is of: the conversation's active path when it was last read. */
  #threadId: string;
  readonly #policy: { readonly onCorruptRow?: CorruptRowPolicy };
  #fold: MessageFold | undefined;
  /**
   * The thread's oldest own row as read no later than the fold (`ForwardChunkPage.threadStart`),
   * undefined while not known: when it is another, retention removed rows the fold holds.
   */
  #start: ThreadStart | undefined;
  #messages: readonly ChatMessage[] = [];
  /** Reads run one after another, so that none folds rows twice. */
  #reading: Promise<unknown> = Promise.resolve();

  /**
   * @param store - the session's store
   * @param threadId - the session's thread
   * @param onCorruptRow - the session's corrupt-row policy, or undefined for the store's
   */
  constructor(store: SessionStore, threadId: string, onCorruptRow: CorruptRowPolicy | undefined) {
    this.#store = store;
    this.#threadId = threadId;
    this.#policy = onCorruptRow === undefined ? {} : { onCorruptRow };
  }

  /**
   * The messages of the path as stored now, oldest first. A path other than the one read last
   * (the conversation switched to another alternative) drops what is kept and reads it afresh.
   *
   * @param path - the thread to read: the conversation's active path. Default: the one read last
   * @returns the messages; the same array while nothing changed
   */
  messages(path?: string): Promise<readonly ChatMessage[]> {
    const read = this.#reading.then(() => {
      if (path !== undefined && path !== this.#threadId) {
        this.#threadId = path;
        this.#fold = undefined;
        this.#messages = [];
      }
      return this.#read();
    });
    this.#reading = read.catch(settled);
    return read;
  }

  async #read(): Promise<readonly ChatMessage[]> {
    const fold = this.#fold;
    if (fold === undefined) return await this.#rebuild();
    const last = fold.last;
    let rows: ChunkRow[];
    let start: ThreadStart | undefined;
    try {
      ({ rows, start } = await this.#rowsAfter(last === null ? 0 : last.seq - 1));
    } catch (error) {
      if (!ChunklogError.hasCode(error, 'thread-not-found')) throw error;
      return this.#reset(new MessageFold(), undefined);
    }
    if (start !== undefined) {
      if (this.#start !== undefined && !sameRow(start, this.#start)) return await this.#rebuild();
      // A start now told where none was while the fold held rows: a fork read before it had rows
      // of its own, or before retention cut its path (notes/0121). Which one it is, the start
      // alone does not say: read again (once; an empty thread's first rows do not count).
      if (this.#start === undefined && last !== null) return await this.#rebuild();
      this.#start = start;
    }
    if (last !== null) {
      const first = rows[0];
      if (first === undefined || !sameRow(first, last)) {
        return await this.#rebuild();
      }
      rows = rows.slice(1);
    }
    if (rows.length === 0) return this.#messages;
    for (const row of rows) fold.add(row);
    this.#messages = fold.messages();
    return this.#messages;
  }

  /** The rows after `afterSeq`, page after page, and the thread's start the first page gave. */
  async #rowsAfter(
    afterSeq: number,
  ): Promise<{ rows: ChunkRow[]; start: ThreadStart | undefined }> {
    const rows: ChunkRow[] = [];
    let start: ThreadStart | undefined;
    for (let after = afterSeq; ; ) {
      const page = await this.#page(after, PAGE);
      start ??= page.threadStart;
      for (const row of page.chunks) rows.push(row);
      if (!page.hasMore || page.newestSeq === null) return { rows, start };
      after = page.newestSeq;
    }
  }

  #page(afterSeq: number, limit: number): Promise<ForwardChunkPage> {
    return this.#store.getChunksAfter(this.#threadId, { afterSeq, limit, ...this.#policy });
  }

  /**
   * Reads the whole thread again. Its oldest row is read first: an expiry between the two reads
   * is then seen by the next read (which reads the thread once more), never missed.
   */
  async #rebuild(): Promise<readonly ChatMessage[]> {
    try {
      const { threadStart: start } = await this.#page(0, 1);
      const { fold } = await this.#store.getHistory(this.#threadId, this.#policy);
      return this.#reset(fold, start);
    } catch (error) {
      if (!ChunklogError.hasCode(error, 'thread-not-found')) throw error;
      return this.#reset(new MessageFold(), undefined);
    }
  }

  #reset(fold: MessageFold, start: ThreadStart | undefined): readonly ChatMessage[] {
    this.#fold = fold;
    this.#start = start;
    this.#messages = fold.messages();
    return this.#messages;
  }
}

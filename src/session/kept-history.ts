import { ChunklogError } from '../errors/index.js';
import type { ChatMessage } from '../schema/chat-message.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import type { CorruptRowPolicy } from '../store/types.js';
import { MessageFold } from '../transforms/message-fold.js';
import type { SessionStore } from './store.js';

/** Rows per forward page when reading what changed (the store's largest page). */
const PAGE = 1000;

/** A failed read is its caller's to handle; the next read runs after it all the same. */
function settled(): void {}

/**
 * A thread's history kept by a session between its turns (of one path of a conversation: a
 * switch to another path drops it): the fold of its rows into messages
 * (`MessageFold`, the state history snapshots store). Before each turn
 * {@link KeptHistory.messages} asks the store for the rows from the last one folded (one keyset
 * read): when that row is still there, unchanged, only the rows after it are folded in;
 * otherwise (a truncation, a thread deleted and created again) the thread is read again through
 * the store's one history read. What it gives is always what reading the thread afresh gives, so
 * a restarted process sends the same model input.
 */
export class KeptHistory {
  readonly #store: SessionStore;
  /** The path the fold is of: the conversation's active path when it was last read. */
  #threadId: string;
  readonly #policy: { readonly onCorruptRow?: CorruptRowPolicy };
  #fold: MessageFold | undefined;
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
    try {
      rows = await this.#rowsAfter(last === null ? 0 : last.seq - 1);
    } catch (error) {
      if (!ChunklogError.hasCode(error, 'thread-not-found')) throw error;
      return this.#reset(new MessageFold());
    }
    if (last !== null) {
      const first = rows[0];
      if (
        first === undefined ||
        first.seq !== last.seq ||
        first.turnId !== last.turnId ||
        first.createdAt !== last.createdAt
      ) {
        return await this.#rebuild();
      }
      rows = rows.slice(1);
    }
    if (rows.length === 0) return this.#messages;
    for (const row of rows) fold.add(row);
    this.#messages = fold.messages();
    return this.#messages;
  }

  /** The rows after `afterSeq`, page after page. */
  async #rowsAfter(afterSeq: number): Promise<ChunkRow[]> {
    const rows: ChunkRow[] = [];
    for (let after = afterSeq; ; ) {
      const page = await this.#store.getChunksAfter(this.#threadId, {
        afterSeq: after,
        limit: PAGE,
        ...this.#policy,
      });
      for (const row of page.chunks) rows.push(row);
      if (!page.hasMore || page.newestSeq === null) return rows;
      after = page.newestSeq;
    }
  }

  /** Reads the whole thread again. */
  async #rebuild(): Promise<readonly ChatMessage[]> {
    try {
      const { fold } = await this.#store.getHistory(this.#threadId, this.#policy);
      return this.#reset(fold);
    } catch (error) {
      if (!ChunklogError.hasCode(error, 'thread-not-found')) throw error;
      return this.#reset(new MessageFold());
    }
  }

  #reset(fold: MessageFold): readonly ChatMessage[] {
    this.#fold = fold;
    this.#messages = fold.messages();
    return this.#messages;
  }
}

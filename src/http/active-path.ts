import type { ChunkRow } from '../schema/chunk-row.js';
import { userTextOf } from '../schema/user-text.js';
import type { TurnRef } from './chat-request.js';
import type { PageStore } from './types.js';

/**
 * Rows of a path as the conversation's: every row carries the conversation's id as `threadId`,
 * whichever alternative holds it, so a client sees one thread.
 *
 * @param rows - rows read from `path`
 * @param threadId - the conversation
 * @param path - the path they were read from
 * @returns the rows, rewritten when the path is another thread
 */
export function asConversationRows(
  rows: readonly ChunkRow[],
  threadId: string,
  path: string,
): ChunkRow[] {
  if (path === threadId) return rows as ChunkRow[];
  return rows.map((row) => (row.threadId === threadId ? row : { ...row, threadId }));
}

/** Rows per page when a turn is looked for from the end of the path. */
const PAGE = 200;

/** A stored user turn an edit or a regenerate names. */
export interface FoundUserTurn {
  readonly turnId: string;
  /**
   * Its user text, when it was found by its place in the client's list or as the newest (not by
   * an id): the client's message there should say the same.
   */
  readonly text: string | undefined;
}

/**
 * The stored user turn a {@link TurnRef} names on a path, read from its end backwards (an edit or
 * a regenerate is of a recent turn, so a few pages at most): undefined when there is none (a turn
 * id of no turn of the path, or of a turn with no user message, is refused before it starts).
 *
 * @param store - the handlers' store
 * @param path - the conversation's active path
 * @param ref - the turn, by id, by place, or the newest
 * @returns the turn, with its text when found by place
 */
export async function findUserTurn(
  store: PageStore,
  path: string,
  ref: TurnRef,
): Promise<FoundUserTurn | undefined> {
  /** User turns after `ref.after` (or all), newest first. */
  const turns: FoundUserTurn[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await store.getChunks(path, {
      limit: PAGE,
      ...(before === undefined ? {} : { before }),
    });
    for (let i = page.chunks.length - 1; i >= 0; i--) {
      const row = page.chunks[i] as ChunkRow;
      const text = userTextOf(row);
      if ('turnId' in ref) {
        if (row.turnId === ref.turnId && text !== undefined) {
          return { turnId: ref.turnId, text: undefined };
        }
        continue;
      }
      if ('after' in ref) {
        if (row.turnId === ref.named) return { turnId: ref.named, text: undefined };
        if (row.turnId === ref.after) return pick(turns, ref.skip);
      }
      if (text !== undefined && turns.at(-1)?.turnId !== row.turnId) {
        if ('latest' in ref) return { turnId: row.turnId, text };
        turns.push({ turnId: row.turnId, text });
      }
    }
    if (!page.hasMore || page.oldestSeq === null) break;
    before = page.oldestSeq;
  }
  // The start of the path: found only when counted from it.
  return 'after' in ref && ref.after === null ? pick(turns, ref.skip) : undefined;
}

/** The `skip`-th of the turns (oldest first) listed newest first. */
function pick(newestFirst: readonly FoundUserTurn[], skip: number): FoundUserTurn | undefined {
  return newestFirst[newestFirst.length - 1 - skip];
}

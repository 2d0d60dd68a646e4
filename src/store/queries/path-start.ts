import type { Kysely } from 'kysely';
import { asString, storedIso } from '../codec.js';
import type { ThreadOrigin } from '../fork-path.js';
import type { StoreTables } from '../tables.js';
import type { ThreadStart } from '../types.js';
import { MAX_SEQ } from '../validate.js';
import { sentinelRowSql } from './sentinel.js';

/** A row as a start is read from. */
type StartRow = { readonly seq: unknown; readonly turn_id: unknown; readonly created_at: unknown };

function startOf(row: StartRow): ThreadStart {
  return {
    seq: Number(row.seq),
    turnId: asString(row.turn_id),
    createdAt: storedIso(row.created_at) ?? '',
  };
}

/**
 * Where a thread's kept history starts once retention cut its path, as
 * `ForwardChunkPage.threadStart` reports it (notes/0121): the newest retention sentinel of the
 * sentinels the path starts with (the one the latest expiry that cut the path wrote or
 * rewrote). Undefined when the path does not start with a sentinel: the thread's own first row
 * is its start then, as before. Any expiry that removes a row the path reads moves it: it writes
 * a sentinel past every row left before it, or rewrites the one at a fork's point. The path's
 * first row alone would not do: it can be an older sentinel, kept because another fork stops
 * reading there, while rows after it are cut. Two keyset reads per stretch of the path until its
 * first row that is no sentinel.
 *
 * @param db - the connection
 * @param threadId - the thread
 * @param origin - its origin, as read
 */
export async function pathStart(
  db: Kysely<StoreTables>,
  threadId: string,
  origin: ThreadOrigin,
): Promise<ThreadStart | undefined> {
  const stretches = [
    ...[...origin.ancestors].reverse(),
    { threadId, after: origin.forkSeq, upTo: MAX_SEQ },
  ];
  let newest: ThreadStart | undefined;
  for (const s of stretches) {
    const rows = (upTo: number) =>
      db
        .selectFrom('chunks')
        .select(['seq', 'turn_id', 'created_at'])
        .where('thread_id', '=', s.threadId)
        .where('seq', '>', s.after)
        .where('seq', '<=', upTo);
    const first = await rows(s.upTo)
      .where((eb) => eb.not(sentinelRowSql(eb)))
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    const below = first === undefined ? s.upTo : Number(first.seq) - 1;
    const sentinel = await rows(below).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    if (sentinel !== undefined) newest = startOf(sentinel);
    if (first !== undefined) return newest;
  }
  return newest;
}

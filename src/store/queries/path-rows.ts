import type { Kysely, QueryResult } from 'kysely';
import { ROW_COLUMNS, type SelectedRow } from '../codec.js';
import type { StoreContext } from '../context.js';
import { openRecords } from '../encryption/store-cipher.js';
import { type PathSegment, type ThreadOrigin, threadOrigin } from '../fork-path.js';
import { PreparedQuery } from '../prepared.js';
import type { StoreTables } from '../tables.js';
import type { SelectedThread } from '../threads.js';

/**
 * A row of another thread read through a fork, with its `thread_id`: the thread that owns it (a
 * reader that needs the owner, to decrypt it say, finds it here; the decoded row carries the
 * fork's id).
 */
export type SharedRow = SelectedRow & { readonly thread_id: unknown };

/** A shared row read for a fork's page, with its turn's status when not completed. */
export type SegmentPageRow = SharedRow & { readonly turn_status: unknown };

/**
 * A row of a page along a path: the thread's own (with its next seq) or a shared one (with its
 * owner's id).
 */
export type PathPageRow = SelectedRow & {
  readonly turn_status: unknown;
  readonly thread_next_seq?: unknown;
  readonly thread_id?: unknown;
};

/** The columns a shared row is read with: a row's, and its owner. */
const SHARED_COLUMNS = [...ROW_COLUMNS, 'thread_id'] as const;

/** The reads of a fork's stretches in other threads, compiled once per store. */
interface PathQueries {
  /** `[threadId, after, upTo, limit]` → the newest rows `after < seq <= upTo`, newest first. */
  readonly newest: PreparedQuery<SegmentPageRow>;
  /** `[threadId, after, upTo, limit]` → the oldest rows `after < seq <= upTo`, oldest first. */
  readonly oldest: PreparedQuery<SegmentPageRow>;
  /** `[threadId, after, upTo]` → every row `after < seq <= upTo`, oldest first. */
  readonly range: PreparedQuery<SharedRow>;
  /** `[threadId, turnId, after, upTo]` → the turn's rows in that range, oldest first. */
  readonly turn: PreparedQuery<SharedRow>;
  /** `[threadId]` → the thread's next seq and origin columns (no lock). */
  readonly origin: PreparedQuery<OriginColumns>;
}

/** The columns a thread's origin is read with. */
type OriginColumns = { readonly next_seq: unknown } & Pick<
  SelectedThread,
  'id' | 'parent_id' | 'fork_seq' | 'fork_path'
>;

const queries = new WeakMap<StoreContext, PathQueries>();

function queriesOf(ctx: StoreContext): PathQueries {
  let q = queries.get(ctx);
  if (q !== undefined) return q;
  const chunks = 'chunks';
  const page = (order: 'desc' | 'asc') =>
    new PreparedQuery<SegmentPageRow>((db, arg) =>
      db
        .selectFrom(chunks)
        .select(SHARED_COLUMNS)
        .select((eb) =>
          eb
            .selectFrom('turns')
            .select('status')
            .whereRef('thread_id', '=', `${chunks}.thread_id` as 'chunks.thread_id')
            .whereRef('turn_id', '=', `${chunks}.turn_id` as 'chunks.turn_id')
            .where('status', '<>', 'completed')
            .as('turn_status'),
        )
        .where('thread_id', '=', arg<string>(0))
        .where('seq', '>', arg<number>(1))
        .where('seq', '<=', arg<number>(2))
        .orderBy('seq', order)
        .limit(arg<number>(3)),
    );
  q = {
    newest: page('desc'),
    oldest: page('asc'),
    range: new PreparedQuery((db, arg) =>
      db
        .selectFrom(chunks)
        .select(SHARED_COLUMNS)
        .where('thread_id', '=', arg<string>(0))
        .where('seq', '>', arg<number>(1))
        .where('seq', '<=', arg<number>(2))
        .orderBy('seq'),
    ),
    turn: new PreparedQuery((db, arg) =>
      db
        .selectFrom(chunks)
        .select(SHARED_COLUMNS)
        .where('thread_id', '=', arg<string>(0))
        .where('turn_id', '=', arg<string>(1))
        .where('seq', '>', arg<number>(2))
        .where('seq', '<=', arg<number>(3))
        .orderBy('seq'),
    ),
    origin: new PreparedQuery((db, arg) =>
      db
        .selectFrom('threads')
        .select(['next_seq', 'id', 'parent_id', 'fork_seq', 'fork_path'])
        .where('id', '=', arg<string>(0)),
    ),
  };
  queries.set(ctx, q);
  return q;
}

/** A thread's next seq and origin, as one read of its row. */
export interface ThreadOriginRead {
  readonly nextSeq: number;
  readonly origin: ThreadOrigin;
}

/**
 * Reads a thread's row for its next seq and origin (undefined when the thread does not exist).
 *
 * @throws {ChunklogError} `corrupt-row` for a fork path that is not one
 */
export async function readOrigin(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  threadId: string,
): Promise<ThreadOriginRead | undefined> {
  const thread = (await queriesOf(ctx).origin.execute(db, [threadId])).rows[0];
  if (thread === undefined) {
    forkSeqHints.get(ctx)?.delete(threadId);
    return undefined;
  }
  const origin = threadOrigin(thread);
  rememberForkSeq(ctx, threadId, origin);
  return { nextSeq: Number(thread.next_seq), origin };
}

/** How many threads' fork seqs a store remembers as hints. */
const HINTS = 1000;

/**
 * The fork seq of each fork a store read the origin of, as it last saw it: a hint only, that a
 * page below it lies wholly in other threads' stretches, so its read may start with the fork's
 * row instead of a keyset query on its own rows that finds nothing. The row read then decides.
 */
const forkSeqHints = new WeakMap<StoreContext, Map<string, number>>();

function rememberForkSeq(ctx: StoreContext, threadId: string, origin: ThreadOrigin): void {
  let hints = forkSeqHints.get(ctx);
  if (hints === undefined) {
    hints = new Map();
    forkSeqHints.set(ctx, hints);
  }
  hints.delete(threadId);
  if (origin.ancestors.length === 0) return;
  hints.set(threadId, origin.forkSeq);
  if (hints.size > HINTS) hints.delete(hints.keys().next().value as string);
}

/** The fork seq last seen for `threadId` when it was a fork with shared rows (a hint). */
export function forkSeqHint(ctx: StoreContext, threadId: string): number | undefined {
  return forkSeqHints.get(ctx)?.get(threadId);
}

/**
 * The stretches of `path` cut to the seqs `above < seq < below`, those left empty left out: newest
 * first as `path` lists them, or oldest first.
 */
function* stretches(
  path: readonly PathSegment[],
  order: 'newest' | 'oldest',
  above: number,
  below: number,
): Generator<PathSegment> {
  for (let k = 0; k < path.length; k++) {
    const s = path[order === 'newest' ? k : path.length - 1 - k] as PathSegment;
    const after = Math.max(s.after, above);
    const upTo = Math.min(s.upTo, below - 1);
    if (after < upTo) yield { threadId: s.threadId, after, upTo };
  }
}

/**
 * Reads stretch after stretch, each by its own thread id and seq range (`read`, told how many
 * rows are still wanted), until `limit` rows; then opens them (each with its owner's key).
 */
async function collect<R extends SharedRow>(
  ctx: StoreContext,
  from: Iterable<PathSegment>,
  limit: number,
  read: (s: PathSegment, wanted: number) => Promise<QueryResult<R>>,
): Promise<R[]> {
  const rows: R[] = [];
  for (const s of from) {
    if (rows.length >= limit) break;
    for (const row of (await read(s, limit - rows.length)).rows) rows.push(row);
  }
  await openRecords(ctx.cipher, rows);
  return rows;
}

/**
 * The newest `limit` rows of the stretches `path` below seq `below`, newest first: one keyset
 * query per stretch read, each by its own thread id and seq range, until the page is full.
 */
export async function pathRowsBefore(
  ctx: StoreContext,
  path: readonly PathSegment[],
  below: number,
  limit: number,
): Promise<SegmentPageRow[]> {
  const q = queriesOf(ctx);
  return collect(ctx, stretches(path, 'newest', 0, below), limit, (s, wanted) =>
    q.newest.execute(ctx.db, [s.threadId, s.after, s.upTo, wanted]),
  );
}

/** The oldest `limit` rows of the stretches `path` above seq `above`, oldest first. */
export async function pathRowsAfter(
  ctx: StoreContext,
  path: readonly PathSegment[],
  above: number,
  limit: number,
): Promise<SegmentPageRow[]> {
  const q = queriesOf(ctx);
  return collect(ctx, stretches(path, 'oldest', above, Infinity), limit, (s, wanted) =>
    q.oldest.execute(ctx.db, [s.threadId, s.after, s.upTo, wanted]),
  );
}

/** Every row of the stretches `path` above seq `above`, oldest first. */
export async function pathRowsAll(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  path: readonly PathSegment[],
  above: number,
): Promise<SharedRow[]> {
  const q = queriesOf(ctx);
  return collect(ctx, stretches(path, 'oldest', above, Infinity), Infinity, (s) =>
    q.range.execute(db, [s.threadId, s.after, s.upTo]),
  );
}

/**
 * The rows of turn `turnId` in the stretches `path` (a turn never spans two: a fork is made at a
 * turn boundary), with the stretch they were found in; undefined when none holds it.
 */
export async function pathTurnRows(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  path: readonly PathSegment[],
  turnId: string,
): Promise<{ rows: SharedRow[]; segment: PathSegment } | undefined> {
  const q = queriesOf(ctx);
  for (const segment of path) {
    const args = [segment.threadId, turnId, segment.after, segment.upTo];
    const rows = (await q.turn.execute(db, args)).rows.slice();
    if (rows.length > 0) {
      await openRecords(ctx.cipher, rows);
      return { rows, segment };
    }
  }
  return undefined;
}

import type { Kysely } from 'kysely';
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
  /** `[threadId, after, below, limit]` → rows `after < seq < below`, newest first. */
  readonly before: PreparedQuery<SegmentPageRow>;
  /** `[threadId, after, upTo, limit]` → rows `after < seq <= upTo`, oldest first. */
  readonly after: PreparedQuery<SegmentPageRow>;
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
  const page = (direction: 'before' | 'after') =>
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
        .where('seq', direction === 'before' ? '<' : '<=', arg<number>(2))
        .orderBy('seq', direction === 'before' ? 'desc' : 'asc')
        .limit(arg<number>(3)),
    );
  q = {
    before: page('before'),
    after: page('after'),
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
  const rows: SegmentPageRow[] = [];
  for (const s of path) {
    if (rows.length >= limit) break;
    if (s.after + 1 >= below) continue;
    const args = [s.threadId, s.after, Math.min(below, s.upTo + 1), limit - rows.length];
    rows.push(...(await q.before.execute(ctx.db, args)).rows);
  }
  await openRecords(ctx.cipher, rows);
  return rows;
}

/** The oldest `limit` rows of the stretches `path` above seq `above`, oldest first. */
export async function pathRowsAfter(
  ctx: StoreContext,
  path: readonly PathSegment[],
  above: number,
  limit: number,
): Promise<SegmentPageRow[]> {
  const q = queriesOf(ctx);
  const rows: SegmentPageRow[] = [];
  for (let i = path.length - 1; i >= 0 && rows.length < limit; i--) {
    const s = path[i] as PathSegment;
    if (s.upTo <= above) continue;
    const args = [s.threadId, Math.max(s.after, above), s.upTo, limit - rows.length];
    rows.push(...(await q.after.execute(ctx.db, args)).rows);
  }
  await openRecords(ctx.cipher, rows);
  return rows;
}

/** Every row of the stretches `path` above seq `above`, oldest first. */
export async function pathRowsAll(
  ctx: StoreContext,
  db: Kysely<StoreTables>,
  path: readonly PathSegment[],
  above: number,
): Promise<SharedRow[]> {
  const q = queriesOf(ctx);
  const rows: SharedRow[] = [];
  for (let i = path.length - 1; i >= 0; i--) {
    const s = path[i] as PathSegment;
    if (s.upTo <= above) continue;
    const found = (await q.range.execute(db, [s.threadId, Math.max(s.after, above), s.upTo])).rows;
    for (const row of found) rows.push(row);
  }
  await openRecords(ctx.cipher, rows);
  return rows;
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

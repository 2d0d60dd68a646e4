import type { Kysely } from 'kysely';
import type { ChunkRow } from '../../schema/chunk-row.js';
import { MessageFold } from '../../transforms/message-fold.js';
import { ROW_COLUMNS, RowDecoder, type SelectedRow } from '../codec.js';
import type { StoreContext } from '../context.js';
import { openRecords } from '../encryption/store-cipher.js';
import type { PathSegment } from '../fork-path.js';
import { isMissingSchema } from '../not-migrated.js';
import { PreparedQuery } from '../prepared.js';
import { readOrigin } from '../queries/path-rows.js';
import { threadNotFound } from '../store-errors.js';
import type { StoreTables } from '../tables.js';
import type { CorruptRowPolicy } from '../types.js';
import { readMarkedState } from './marked-state.js';
import { type SharedStart, sharedStart } from './shared-start.js';
import { statesAvailable } from './state-codec.js';
import type { StateMark } from './state-mark.js';

/** A thread's whole history, as {@link readHistory} reads it. */
export interface ThreadHistoryRead {
  /** Every row of the thread folded into messages (its `seq` and `last` tell up to where). */
  readonly fold: MessageFold;
  /** The seq of the history state the read started from, 0 for none. */
  readonly stateSeq: number;
  /** How many rows were read after the state. */
  readonly rowsRead: number;
  /** How many of them were corrupt and skipped (the `skip` policy). */
  readonly rowsSkipped: number;
  /** For a fork, the stretches of other threads its path reads (newest first); else empty. */
  readonly ancestors: readonly PathSegment[];
  /**
   * Whether the state the read started from is the thread's own; false for none, and for a fork
   * that started from the state of a thread it reads.
   */
  readonly ownState: boolean;
}

/** A row read after the newest state, with that state's mark. */
type RowAfterState = SelectedRow & StateMark;

/** The thread's next seq with its newest state's mark, for a read that found no row. */
type ThreadProbe = StateMark & { readonly next_seq: unknown };

/** The queries of the read, compiled once per store. */
interface HistoryQueries {
  /** `[threadId ×7]` → the rows after the thread's newest state, each with its mark. */
  readonly rowsAfterState: PreparedQuery<RowAfterState>;
  /** `[threadId ×6]` → the thread's next seq and its newest state's mark. */
  readonly probe: PreparedQuery<ThreadProbe>;
  /** `[threadId]` → every row of the thread (a database without the states table). */
  readonly allRows: PreparedQuery<SelectedRow>;
}

const queries = new WeakMap<StoreContext, HistoryQueries>();

function queriesOf(ctx: StoreContext): HistoryQueries {
  let q = queries.get(ctx);
  if (q !== undefined) return q;
  const chunks = 'chunks';
  const states = 'historyStates';
  const newestSeq = (db: Kysely<StoreTables>, threadId: string) =>
    db
      .selectFrom(states)
      .select((eb) => eb.fn.max('at_seq').as('s'))
      .where('thread_id', '=', threadId);
  const newestDigest = (db: Kysely<StoreTables>, threadId: string) =>
    db
      .selectFrom(states)
      .select('digest')
      .where('thread_id', '=', threadId)
      .where('part', '=', 0)
      .orderBy('at_seq', 'desc')
      .limit(1);
  /** The row the newest state ends with: its `column`. */
  const rowAtState = (
    db: Kysely<StoreTables>,
    column: 'turn_id' | 'created_at',
    threadId: string,
    stateThreadId: string,
  ) =>
    db
      .selectFrom(chunks)
      .select(column)
      .where('thread_id', '=', threadId)
      .where((eb) => eb('seq', '=', newestSeq(db, stateThreadId)));
  /** The mark columns, the thread id read from arguments `at` to `at + 5`. */
  const mark = (db: Kysely<StoreTables>, arg: <V>(index: number) => V, at: number) => [
    newestSeq(db, arg<string>(at)).as('state_seq'),
    newestDigest(db, arg<string>(at + 1)).as('state_digest'),
    rowAtState(db, 'turn_id', arg<string>(at + 2), arg<string>(at + 3)).as('state_turn_id'),
    rowAtState(db, 'created_at', arg<string>(at + 4), arg<string>(at + 5)).as('state_created_at'),
  ];
  q = {
    rowsAfterState: new PreparedQuery((db, arg) =>
      db
        .selectFrom(chunks)
        .select(ROW_COLUMNS)
        .select(mark(db, arg, 0))
        .where('thread_id', '=', arg<string>(6))
        .where(({ eb, fn, val }) =>
          eb('seq', '>', fn.coalesce(newestSeq(db, arg<string>(7)), val(0))),
        )
        .orderBy('seq'),
    ),
    probe: new PreparedQuery((db, arg) =>
      db
        .selectFrom('threads')
        .select('next_seq')
        .select(mark(db, arg, 0))
        .where('id', '=', arg<string>(6)),
    ),
    allRows: new PreparedQuery((db, arg) =>
      db
        .selectFrom(chunks)
        .select(ROW_COLUMNS)
        .where('thread_id', '=', arg<string>(0))
        .orderBy('seq'),
    ),
  };
  queries.set(ctx, q);
  return q;
}

/** How many times a read starts over when the state it chose was replaced under it. */
const ATTEMPTS = 3;

/**
 * Reads a thread's whole history: the newest history state (the fold of its rows up to a seq)
 * and the rows after it, folded on. This is the one whole-thread read of the store:
 * `getHistory`, `getMessages` and the writer of history states all go through it. It never
 * writes.
 *
 * A thread without a state is one statement (its rows, each carrying the newest state's seq and
 * digest: none). With a state, a second statement reads its parts, checked against the digest
 * the first one saw; a state replaced in between makes the read start over, and a state that
 * does not decode is ignored (the rows are read whole). Both statements see committed data, and
 * a state is written and removed only with the rows it folds, so the state and the rows after
 * it are always of one version of the thread.
 *
 * @param ctx - the store
 * @param threadId - the thread (checked)
 * @param policy - what a corrupt row does
 * @returns the fold, and what was read
 * @throws {ChunklogError} `thread-not-found`; `corrupt-row` under the `throw` policy
 */
export async function readHistory(
  ctx: StoreContext,
  threadId: string,
  policy: CorruptRowPolicy,
): Promise<ThreadHistoryRead> {
  const q = queriesOf(ctx);
  const useStates = ctx.snapshotMinRows !== false && statesAvailable();
  for (let attempt = 1; useStates && attempt <= ATTEMPTS; attempt++) {
    let records: readonly RowAfterState[];
    try {
      records = (await q.rowsAfterState.execute(ctx.db, Array(8).fill(threadId))).rows;
    } catch (error) {
      if (isMissingSchema(error)) break; // not migrated to 0005: read the rows
      throw error;
    }
    let found: StateMark | undefined = records[0];
    if (found === undefined) {
      found = (await q.probe.execute(ctx.db, Array(7).fill(threadId))).rows[0];
      if (found === undefined) throw threadNotFound(threadId);
    }
    await openRecords(ctx.cipher, records);
    if (found.state_seq === null || found.state_seq === undefined) {
      const probed = records.length === 0 ? Number((found as ThreadProbe).next_seq) : undefined;
      const shared = await sharedRows(ctx, threadId, records, probed, true);
      return folded(threadId, records, policy, shared);
    }
    const state = await readMarkedState(ctx, threadId, found);
    if (state === 'replaced') continue; // read again
    if (state === 'unusable') break; // read the rows
    // A state of a fork ends with one of its own rows (notes/0088): the rows after it are its own.
    const own = {
      ...noShared(),
      fold: MessageFold.from(state),
      stateSeq: Number(found.state_seq),
      own: true,
    };
    return folded(threadId, records, policy, own);
  }
  const records = (await q.allRows.execute(ctx.db, [threadId])).rows;
  await openRecords(ctx.cipher, records);
  const shared = await sharedRows(ctx, threadId, records, undefined, false);
  return folded(threadId, records, policy, shared);
}

/** A fork's shared part as read (its start, and the rows after it): nothing, for a plain thread. */
interface SharedRows extends SharedStart {
  readonly ancestors: readonly PathSegment[];
}

/** Nothing shared: a new empty fold (a fold is filled in place, so never one for two reads). */
function noShared(): SharedRows {
  return { fold: new MessageFold(), stateSeq: 0, records: [], ancestors: [] };
}

/**
 * The rows a fork reads from other threads before its own `records` (read whole, from seq 1):
 * nothing to read when its own rows start at seq 1, or when the thread's next seq (`nextSeq`,
 * when the read learnt it) says it is empty; else the thread's row tells whether it is a fork.
 *
 * @throws {ChunklogError} `thread-not-found`
 */
async function sharedRows(
  ctx: StoreContext,
  threadId: string,
  records: readonly SelectedRow[],
  nextSeq: number | undefined,
  useStates: boolean,
): Promise<SharedRows> {
  const first = records[0];
  if (first !== undefined && Number(first.seq) === 1) return noShared();
  if (first === undefined && nextSeq === 1) return noShared();
  const thread = await readOrigin(ctx, ctx.db, threadId);
  if (thread === undefined) throw threadNotFound(threadId);
  const { ancestors } = thread.origin;
  if (ancestors.length === 0) return noShared();
  return { ...(await sharedStart(ctx, ancestors, useStates)), ancestors };
}

/**
 * Decodes the rows read after the state (a fork's shared rows first) and folds them into `fold`.
 * Rows read through a fork carry the fork's id.
 */
function folded(
  threadId: string,
  records: readonly SelectedRow[],
  policy: CorruptRowPolicy,
  shared: SharedRows & { readonly own?: boolean },
): ThreadHistoryRead {
  const { fold, stateSeq } = shared;
  const rows: ChunkRow[] = [];
  const decoder = new RowDecoder(threadId, policy);
  decoder.decode(shared.records, rows);
  decoder.decode(records, rows);
  for (const row of rows) fold.add(row);
  const read = shared.records.length + records.length;
  return {
    fold,
    stateSeq,
    rowsRead: read,
    rowsSkipped: read - rows.length,
    ancestors: shared.ancestors,
    ownState: shared.own === true,
  };
}

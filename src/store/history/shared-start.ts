import { MessageFold } from '../../transforms/message-fold.js';
import type { SelectedRow } from '../codec.js';
import type { StoreContext } from '../context.js';
import type { PathSegment } from '../fork-path.js';
import { PreparedQuery } from '../prepared.js';
import { pathRowsAll } from '../queries/path-rows.js';
import { readMarkedState } from './marked-state.js';

/** Where a fork's whole-history read starts: a state of a thread it reads, or nothing. */
export interface SharedStart {
  /** The fold to go on from: a state's, or empty. */
  readonly fold: MessageFold;
  /** The seq the fold ends at (0: empty). */
  readonly stateSeq: number;
  /** The shared rows after `stateSeq`, oldest first, before the fork's own. */
  readonly records: readonly SelectedRow[];
}

interface SharedStateQueries {
  /** `[threadId]` → the thread's newest state: its seq and digest. */
  readonly newest: PreparedQuery<{ readonly at_seq: unknown; readonly digest: unknown }>;
  /** `[threadId, seq]` → the turn id and creation time of the thread's row at `seq`. */
  readonly rowAt: PreparedQuery<{ readonly turn_id: unknown; readonly created_at: unknown }>;
}

const queries = new WeakMap<StoreContext, SharedStateQueries>();

function queriesOf(ctx: StoreContext): SharedStateQueries {
  const known = queries.get(ctx);
  if (known !== undefined) return known;
  const states = 'historyStates';
  const q: SharedStateQueries = {
    newest: new PreparedQuery((db, arg) =>
      db
        .selectFrom(states)
        .select(['at_seq', 'digest'])
        .where('thread_id', '=', arg<string>(0))
        .where('part', '=', 0)
        .orderBy('at_seq', 'desc')
        .limit(1),
    ),
    rowAt: new PreparedQuery((db, arg) =>
      db
        .selectFrom('chunks')
        .select(['turn_id', 'created_at'])
        .where('thread_id', '=', arg<string>(0))
        .where('seq', '=', arg<number>(1)),
    ),
  };
  queries.set(ctx, q);
  return q;
}

/**
 * The newest usable state of the thread holding `segment`, within it: it must end inside the
 * stretch (a thread's states end with its own rows, so up to `upTo` it is the fork's history
 * too), decode, and still end with the row it was made from. Undefined otherwise (a state
 * replaced meanwhile included: the caller reads rows instead).
 */
async function stateWithin(ctx: StoreContext, segment: PathSegment) {
  const q = queriesOf(ctx);
  const id = segment.threadId;
  const newest = (await q.newest.execute(ctx.db, [id])).rows[0];
  if (newest === undefined) return undefined;
  const atSeq = Number(newest.at_seq);
  if (atSeq <= segment.after || atSeq > segment.upTo) return undefined;
  const row = (await q.rowAt.execute(ctx.db, [id, atSeq])).rows[0];
  // Read by the id of the thread that wrote it: an encrypted state opens with that thread's key.
  const state = await readMarkedState(ctx, id, {
    state_seq: atSeq,
    state_digest: newest.digest,
    state_turn_id: row?.turn_id ?? null,
    state_created_at: row?.created_at ?? null,
  });
  return typeof state === 'string' ? undefined : { state, atSeq };
}

/**
 * Where a fork's whole-history read starts when it has no state of its own: the newest state of a
 * thread it reads that ends within the stretch it reads of it (a fork made at its parent's end
 * usually finds its parent's), then the shared rows after it; without one, every shared row.
 *
 * @param ctx - the store
 * @param ancestors - the fork's stretches of other threads, newest first
 * @param useStates - whether states are read at all (`snapshotMinRows`)
 */
export async function sharedStart(
  ctx: StoreContext,
  ancestors: readonly PathSegment[],
  useStates: boolean,
): Promise<SharedStart> {
  for (let i = 0; useStates && i < ancestors.length; i++) {
    const segment = ancestors[i] as PathSegment;
    const found = await stateWithin(ctx, segment);
    if (found === undefined) continue;
    const after = ancestors.slice(0, i + 1);
    return {
      fold: MessageFold.from(found.state),
      stateSeq: found.atSeq,
      records: await pathRowsAll(ctx, ctx.db, after, found.atSeq),
    };
  }
  return {
    fold: new MessageFold(),
    stateSeq: 0,
    records: await pathRowsAll(ctx, ctx.db, ancestors, 0),
  };
}

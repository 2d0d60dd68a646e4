// A thread's turns, newest first, a page at a time, from the store's public reads. The store
// lists only turns that have a status row (`listTurns`), so the turns are found in the rows: the
// rows are read backwards in pages of 200, and each turn's `getTurnInfo` gives its first seq, so
// the rest of a long turn is skipped (one more read fetches its first row). Per turn: one
// `getTurnInfo` and one `getTurnUsage`. A status filter other than `completed` reads the turns
// with that status on the store's index instead (`listTurns({ status })`).
import type { ChunkRow } from '../schema/chunk-row.js';
import type { TurnStatus } from '../schema/turn-status.js';
import { userTextOf } from '../schema/user-text.js';
import { isSentinelRow } from '../store/queries/sentinel.js';
import type { TurnInfo } from '../store/turn-types.js';
import type { PriceFunction, TurnUsage } from '../store/usage-types.js';
import { turnStatus } from './facts.js';
import {
  type InspectedStore,
  rowAfter,
  rowBefore,
  turnInfo,
  turnsWithStatus,
  turnUsage,
} from './reads.js';

/** What the turns list shows of a turn. */
export interface TurnSummary {
  readonly turnId: string;
  readonly status: string | undefined;
  readonly firstSeq: number;
  readonly lastSeq: number;
  /** The user's message (the turn's first row, when it is user text). */
  readonly firstText: string | undefined;
  /** What a retention sentinel says (its notice's text), when the turn is one; else undefined. */
  readonly sentinelText: string | undefined;
  /** Steps: the last row's step + 1. */
  readonly steps: number;
  readonly info: TurnInfo | undefined;
  readonly usage: TurnUsage | undefined;
  /** When its first row was stored. */
  readonly createdAt: string | undefined;
}

/** A page of turns, newest first; `nextBefore` is the first seq of the oldest one shown. */
export interface TurnListPage {
  readonly turns: readonly TurnSummary[];
  readonly nextBefore: number | undefined;
}

/** Options of {@link listTurnSummaries}. */
export interface TurnListOptions {
  readonly limit: number;
  /** Only turns whose rows are below this seq. */
  readonly before?: number | undefined;
  readonly status?: TurnStatus | undefined;
  readonly price?: PriceFunction | undefined;
}

const SCAN_PAGE = 200;

function firstTextOf(row: ChunkRow | undefined): string | undefined {
  return row === undefined ? undefined : userTextOf(row);
}

function sentinelTextOf(row: ChunkRow | undefined): string | undefined {
  return row?.type === 'system' && isSentinelRow(row) ? row.data.text : undefined;
}

async function summary(
  store: InspectedStore,
  threadId: string,
  parts: {
    turnId: string;
    info: TurnInfo | undefined;
    first: ChunkRow | undefined;
    last: ChunkRow;
    seen: readonly ChunkRow[];
  },
  price: PriceFunction | undefined,
): Promise<TurnSummary> {
  const { turnId, info, first, last, seen } = parts;
  return {
    turnId,
    status: turnStatus(seen, info),
    firstSeq: info?.firstSeq ?? first?.seq ?? last.seq,
    lastSeq: last.seq,
    firstText: firstTextOf(first),
    sentinelText: sentinelTextOf(first),
    steps: last.step + 1,
    info,
    usage: await turnUsage(store, threadId, turnId, price),
    createdAt: first?.createdAt,
  };
}

/** Turns with a status other than `completed`, on the store's status index. */
async function byStatus(
  store: InspectedStore,
  threadId: string,
  options: TurnListOptions,
): Promise<TurnListPage> {
  const all = (await turnsWithStatus(store, threadId, options.status as TurnStatus)) ?? [];
  const before = options.before;
  const newestFirst = all
    .filter((info) => before === undefined || info.firstSeq < before)
    .sort((a, b) => b.firstSeq - a.firstSeq);
  const shown = newestFirst.slice(0, options.limit);
  const turns: TurnSummary[] = [];
  for (const info of shown) {
    const first = await rowAfter(store, threadId, info.firstSeq - 1);
    const last = (await rowBefore(store, threadId, info.nextSeq)) ?? first;
    if (last === undefined) continue;
    const seen = first === undefined ? [last] : [first, last];
    const parts = { turnId: info.turnId, info, first, last, seen };
    turns.push(await summary(store, threadId, parts, options.price));
  }
  const more = newestFirst.length > shown.length;
  return { turns, nextBefore: more ? shown.at(-1)?.firstSeq : undefined };
}

/**
 * A page of a thread's turns, newest first.
 *
 * @param store - the store
 * @param threadId - the thread
 * @param options - how many, below which seq, which status, the price
 * @returns the turns and the cursor of the next page
 */
export async function listTurnSummaries(
  store: InspectedStore,
  threadId: string,
  options: TurnListOptions,
): Promise<TurnListPage> {
  if (options.status !== undefined && options.status !== 'completed') {
    return byStatus(store, threadId, options);
  }
  const turns: TurnSummary[] = [];
  let before = options.before;
  let buffer: ChunkRow[] = []; // newest first
  let exhausted = false;
  // A `completed` filter skips other turns; it looks at no more than ten pages' worth of turns.
  let examined = 0;
  while (turns.length < options.limit && examined < options.limit * 10) {
    if (buffer.length === 0) {
      if (exhausted || before === 1) break;
      const page = await store.getChunks(threadId, {
        limit: SCAN_PAGE,
        onCorruptRow: 'skip',
        ...(before !== undefined ? { before } : {}),
      });
      buffer = [...page.chunks].reverse();
      exhausted = !page.hasMore;
      if (buffer.length === 0) break;
    }
    const last = buffer[0] as ChunkRow;
    let n = 0;
    while (n < buffer.length && buffer[n]?.turnId === last.turnId) n++;
    const run = buffer.slice(0, n);
    buffer = buffer.slice(n);
    const oldest = run.at(-1) as ChunkRow;
    const info = await turnInfo(store, threadId, last.turnId);
    let first: ChunkRow | undefined = oldest;
    if (info !== undefined && info.firstSeq < oldest.seq) {
      // The turn goes on below what was read: skip the rest of it, fetch only its first row.
      first = await rowAfter(store, threadId, info.firstSeq - 1);
      buffer = [];
      exhausted = info.firstSeq <= 1;
    }
    before = info?.firstSeq ?? oldest.seq;
    examined++;
    const parts = { turnId: last.turnId, info, first, last, seen: run };
    const turn = await summary(store, threadId, parts, options.price);
    if (options.status === undefined || turn.status === options.status) turns.push(turn);
  }
  const more = !(exhausted && buffer.length === 0) && before !== undefined && before > 1;
  return { turns, nextBefore: more ? before : undefined };
}

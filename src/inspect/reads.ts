// The store reads the inspector makes, each as cheap as the store allows. Facts that a store not
// migrated to the latest schema cannot hold (turn statuses before 0002, usage before 0003) read as
// undefined: the inspector opens stores read-only and never migrates, so it shows "—" instead.
import type { ChunkRow } from '../schema/chunk-row.js';
import type { TurnStatus } from '../schema/turn-status.js';
import type { TurnInfo } from '../store/turn-types.js';
import type { ChunkStore } from '../store/types.js';
import type { PriceFunction, ThreadUsage, TurnUsage } from '../store/usage-types.js';

/** The store methods the inspector calls: reads only. */
export type InspectedStore = Pick<
  ChunkStore,
  | 'listThreads'
  | 'getThread'
  | 'getChunks'
  | 'getChunksAfter'
  | 'getTurn'
  | 'getTurnInfo'
  | 'listTurns'
  | 'getTurnUsage'
  | 'getThreadUsage'
  | 'getAlternatives'
  | 'activePath'
>;

/**
 * What `read` gives, or undefined when it gives null or fails: the inspector shows what a store
 * can read and leaves out what it cannot (a table an older store lacks, a method it does not have).
 */
export async function orUndefined<T>(read: Promise<T | null>): Promise<T | undefined> {
  try {
    return (await read) ?? undefined;
  } catch {
    return undefined;
  }
}

/** A turn's recorded usage (priced with `price`), or undefined. */
export function turnUsage(
  store: InspectedStore,
  threadId: string,
  turnId: string,
  price?: PriceFunction,
): Promise<TurnUsage | undefined> {
  return orUndefined(store.getTurnUsage(threadId, turnId, price ? { price } : undefined));
}

/** A thread's recorded usage (priced with `price`), or undefined. */
export function threadUsage(
  store: InspectedStore,
  threadId: string,
  price?: PriceFunction,
): Promise<ThreadUsage | undefined> {
  return orUndefined(store.getThreadUsage(threadId, price ? { price } : undefined));
}

/** A turn's status and place, or undefined. */
export function turnInfo(
  store: InspectedStore,
  threadId: string,
  turnId: string,
): Promise<TurnInfo | undefined> {
  return orUndefined(store.getTurnInfo(threadId, turnId));
}

/** The turns with this status (one indexed read), oldest first; undefined when it cannot say. */
export function turnsWithStatus(
  store: InspectedStore,
  threadId: string,
  status: TurnStatus,
): Promise<TurnInfo[] | undefined> {
  return orUndefined(store.listTurns(threadId, { status }));
}

/** The row just before `seq` (the last row of the turn before), if any: one keyset read. */
export async function rowBefore(
  store: InspectedStore,
  threadId: string,
  seq: number,
): Promise<ChunkRow | undefined> {
  if (seq <= 1) return undefined;
  const page = await store.getChunks(threadId, { limit: 1, before: seq, onCorruptRow: 'skip' });
  return page.chunks[0];
}

/** The row just after `seq` (the first row of the turn after), if any: one keyset read. */
export async function rowAfter(
  store: InspectedStore,
  threadId: string,
  seq: number,
): Promise<ChunkRow | undefined> {
  const page = await store.getChunksAfter(threadId, {
    limit: 1,
    afterSeq: seq,
    onCorruptRow: 'skip',
  });
  return page.chunks[0];
}

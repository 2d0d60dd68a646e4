import { ChunklogError } from '../errors/chunklog-error.js';
import { readOptions } from '../errors/invalid-option.js';
import { checkRelay } from '../live/check-relay.js';
import type { Relay } from '../live/relay.js';
import type { ChunkStore } from '../store/types.js';
import { closeInterruptedTurns, endOnRelay } from './recovery.js';
import type { AgentSession } from './types.js';

/** The store methods a sweep needs (every `ChunkStore` has them). */
export type SweepStore = Pick<
  ChunkStore,
  | 'findInterruptedTurns'
  | 'acquireLease'
  | 'releaseLease'
  | 'listTurns'
  | 'getTurn'
  | 'appendSteps'
  | 'getThread'
  | 'activePath'
>;

/** Options of {@link recoverInterruptedTurns}. */
export interface RecoverInterruptedTurnsOptions {
  /**
   * Continue the turns instead of closing them: a session for the thread, with the model and
   * tools its turns ran with (create it with the same options as the app's sessions). The sweep
   * calls its `resumeInterruptedTurns()`, then closes it. A turn that ran on an alternative (an
   * `edit` or `regenerate`) is continued by the session of its conversation, whose id is passed,
   * while that alternative is the conversation's active path, and closed when it is not (no
   * session runs a path that is not active). Default: close every turn honestly
   * (`closeInterruptedTurns`: error results for unanswered calls, an `interrupted` chunk).
   */
  readonly continueWith?: ((threadId: string) => AgentSession) | undefined;
  /**
   * The relay the app's sessions publish to: a closed turn it still has running (its process
   * died before its `turn-end`) is ended there, so that its readers (a `useChat` resume,
   * `GET …/events`) stop waiting for it. Best effort: a relay that cannot be reached is left as it
   * is (the next turn of the thread ends the dead one there). Its `lastEventId`, when it has
   * one, numbers that end in the numbering the relay holds (see `endOnRelay`). Default: none.
   */
  readonly relay?: Pick<Relay, 'runningTurn' | 'lastIndex' | 'lastEventId' | 'publish'> | undefined;
  /** The most interrupted turns one call looks at (1 to 1,000). Default 100. */
  readonly limit?: number | undefined;
  /** How long the sweep's lease on a thread lasts while it closes the thread's turns. Default 60,000 ms. */
  readonly ttlMs?: number | undefined;
  /** The holder id the sweep takes leases as. Default `chunklog-sweep-<random UUID>`. */
  readonly holder?: string | undefined;
}

/** What a sweep did with one thread. */
export interface RecoveredThread {
  readonly threadId: string;
  /**
   * `'closed'` (status `interrupted`), `'continued'` (by `continueWith`), `'busy'` (a live writer
   * took the thread's lease since it was found: left to it), or `'failed'` (see `error`; the
   * next sweep tries again).
   */
  readonly outcome: 'closed' | 'continued' | 'busy' | 'failed';
  /** The turns closed or continued. */
  readonly turnIds: readonly string[];
  /** Why the thread could not be recovered, when `outcome` is `'failed'`. */
  readonly error?: unknown;
}

/**
 * Finds every turn of the store left `running` by a writer that is gone (its thread's lease is
 * missing or expired), across threads, and closes each honestly or continues it (`continueWith`)
 * — once, whichever process runs the sweep: each thread is handled under its lease, so two sweeps
 * at once, or a writer that comes back, never touch a turn twice. For a cron job, a queue worker
 * or a serverless function's scheduled handler; a session on the thread also recovers it itself
 * when it next takes the lease.
 *
 * @param store - the store
 * @param options - continue instead of close; how many turns; the sweep's lease
 * @returns what was done, by thread (a thread that failed does not stop the others)
 * @throws {ChunklogError} `invalid-option`; `store-failed` when the interrupted turns cannot be
 *   listed
 * @example
 * ```ts
 * // assumes: store
 * import { recoverInterruptedTurns } from 'chunklog/session';
 *
 * // Every minute, from a cron job:
 * for (const thread of await recoverInterruptedTurns(store)) {
 *   console.log(thread.threadId, thread.outcome, thread.turnIds);
 * }
 * ```
 */
export async function recoverInterruptedTurns(
  store: SweepStore,
  options?: RecoverInterruptedTurnsOptions,
): Promise<RecoveredThread[]> {
  const o = readOptions(options, 'recoverInterruptedTurns', [
    'continueWith',
    'limit',
    'ttlMs',
    'holder',
    'relay',
  ]) as RecoverInterruptedTurnsOptions;
  const relay = checkRelay(o.relay, 'recoverInterruptedTurns', [
    'runningTurn',
    'lastIndex',
    'publish',
  ]);
  if (o.continueWith !== undefined && typeof o.continueWith !== 'function') {
    throw new ChunklogError(
      'invalid-option',
      'recoverInterruptedTurns: `continueWith` must be a function of a thread id',
      { option: 'continueWith', value: o.continueWith },
    );
  }
  const ttlMs = o.ttlMs ?? 60_000;
  const holder = o.holder ?? `chunklog-sweep-${globalThis.crypto.randomUUID()}`;
  const found = await store.findInterruptedTurns(o.limit === undefined ? {} : { limit: o.limit });
  const threads = [...new Set(found.map((turn) => turn.threadId))];
  const out: RecoveredThread[] = [];
  for (const threadId of threads) {
    try {
      const relayKey = await relayKeyOf(store, threadId);
      out.push(
        o.continueWith !== undefined && (await continuedHere(store, threadId, relayKey))
          ? await continueThread(o.continueWith, threadId, relayKey)
          : await closeThread(store, { threadId, relayKey }, holder, ttlMs, relay),
      );
    } catch (error) {
      out.push({ threadId, outcome: 'failed', turnIds: [], error });
    }
  }
  return out;
}

async function closeThread(
  store: SweepStore,
  { threadId, relayKey }: { readonly threadId: string; readonly relayKey: string },
  holder: string,
  ttlMs: number,
  relay: RecoverInterruptedTurnsOptions['relay'],
): Promise<RecoveredThread> {
  const taken = await store.acquireLease(threadId, holder, { ttlMs });
  if (!taken.acquired) return { threadId, outcome: 'busy', turnIds: [] };
  try {
    // Listed again under the lease: a turn another sweep closed meanwhile is not running any more.
    const closed = await closeInterruptedTurns(store, threadId, { fence: taken.lease });
    const turnIds = closed.map((turn) => turn.turnId);
    if (relay !== undefined && turnIds.length > 0) {
      await endOnRelay(relay, relayKey, turnIds).catch(() => {});
    }
    return { threadId, outcome: 'closed', turnIds };
  } finally {
    await store.releaseLease(threadId, taken.lease).catch(() => false);
  }
}

/**
 * The relay key a thread's turns are published under: its conversation's id for an alternative
 * (a session publishes under the conversation it serves, whichever path is active), else its own.
 */
async function relayKeyOf(store: SweepStore, threadId: string): Promise<string> {
  const thread = await store.getThread(threadId).catch(() => undefined);
  return thread?.alternativeOf ?? threadId;
}

/**
 * Whether a session continues the turns of `threadId` (given `continueWith`): a thread's own
 * session does; an alternative's turns are continued by its conversation's session (`relayKey`)
 * while the alternative is the active path, and closed when it is not.
 */
async function continuedHere(
  store: SweepStore,
  threadId: string,
  relayKey: string,
): Promise<boolean> {
  return relayKey === threadId || (await store.activePath(relayKey)) === threadId;
}

async function continueThread(
  continueWith: (threadId: string) => AgentSession,
  threadId: string,
  conversationId: string,
): Promise<RecoveredThread> {
  const session = continueWith(conversationId);
  try {
    if (session?.threadId !== conversationId) {
      throw new ChunklogError(
        'invalid-option',
        `recoverInterruptedTurns: \`continueWith\` must return a session of thread ${JSON.stringify(conversationId)}`,
        { option: 'continueWith', threadId: conversationId },
      );
    }
    const results = await session.resumeInterruptedTurns();
    return { threadId, outcome: 'continued', turnIds: results.map((result) => result.turnId) };
  } catch (error) {
    if (ChunklogError.hasCode(error, 'thread-busy'))
      return { threadId, outcome: 'busy', turnIds: [] };
    throw error;
  } finally {
    await session?.close?.();
  }
}

import { ChunklogError } from '../errors/chunklog-error.js';
import type { Chunk } from '../schema/chunk.js';
import type { ChunkRow } from '../schema/chunk-row.js';
import type { EndedTurnStatus, LeaseFence } from '../store/turn-types.js';
import type { StepUsage } from '../store/usage-types.js';
import { explodeChunks } from '../transforms/explode-turn.js';
import type { SessionStore } from './store.js';

/**
 * How a session stores a turn: `'turn'` in one transaction when it ends (the fewest writes);
 * `'step'` the user's message when the turn starts and each step's rows when the step ends, one
 * transaction each, so a crash loses at most the step in progress.
 */
export type SessionDurability = 'turn' | 'step';

/** How one turn's rows reach the store. */
export type WriteMode =
  /** In one `appendTurn` when the turn ends. */
  | 'whole'
  /** The user's message at the start, each step as it ends, the rest at the end. */
  | 'steps'
  /** A turn stored already (recovery continues it): each step as it ends, the rest at the end. */
  | 'continued';

/** What {@link TurnWriter.begin} found. */
export type BeginOutcome =
  | { readonly stored: false }
  /** The turn id is stored already (a retry): the turn must not run. */
  | { readonly stored: true; readonly status: string };

/**
 * Writes one turn's rows by its {@link WriteMode}. Writes run one after another, in order; after
 * a failed step write (reported) the later step writes wait, and the final write stores every
 * chunk from the failed one on, so nothing is skipped and the rows stay in the order of the
 * chunks. The turn's status and its steps' usage go with its last write, in the same
 * transaction.
 */
export class TurnWriter {
  readonly #store: SessionStore;
  readonly #threadId: string;
  readonly #turnId: string;
  readonly #mode: WriteMode;
  readonly #fence: LeaseFence | undefined;
  readonly #onError: (error: unknown) => void;
  /** Every stored row of the turn, user message first. */
  readonly #rows: ChunkRow[] = [];
  /** How many of the turn's assistant chunks are stored (or on their way). */
  #written = 0;
  /** The first chunk of the step write that failed: the final write starts there. */
  #failedFrom: number | undefined;
  #chain: Promise<void> = Promise.resolve();
  /** Whether the turn has rows in the store (begun, or continued). */
  #begun: boolean;
  /** The `turn-exists` error when `begin` found the turn id stored: nothing is written then. */
  #refused: ChunklogError | undefined;

  /**
   * @param store - the session's store
   * @param threadId - the thread
   * @param turnId - the turn
   * @param mode - how the turn is written
   * @param fence - the lease the writes are fenced with, when the session holds one
   * @param onError - told of a step write that failed (its chunks go with the final write)
   * @param stored - a continued turn's stored rows
   */
  constructor(
    store: SessionStore,
    threadId: string,
    turnId: string,
    mode: WriteMode,
    fence: LeaseFence | undefined,
    onError: (error: unknown) => void,
    stored: readonly ChunkRow[] = [],
  ) {
    this.#store = store;
    this.#threadId = threadId;
    this.#turnId = turnId;
    this.#mode = mode;
    this.#fence = fence;
    this.#onError = onError;
    this.#begun = mode === 'continued';
    for (const row of stored) this.#rows.push(row);
  }

  #fenced(): { fence?: LeaseFence } {
    return this.#fence === undefined ? {} : { fence: this.#fence };
  }

  /**
   * Stores the user's message and the turn's `running` status, in one transaction (mode `steps`;
   * nothing otherwise).
   *
   * @returns whether the turn id was stored already
   * @throws the store's error (the caller then stores the turn whole at its end)
   */
  async begin(userChunks: readonly Chunk[]): Promise<BeginOutcome> {
    if (this.#mode !== 'steps') return { stored: false };
    const drafts = explodeChunks(this.#turnId, userChunks, 'user');
    const result = await this.#store.beginTurn(this.#threadId, drafts, this.#fenced());
    if (!result.created) {
      this.#refused = turnExists(this.#threadId, this.#turnId, result.status);
      return { stored: true, status: result.status };
    }
    this.#begun = true;
    for (const row of result.rows) this.#rows.push(row);
    return { stored: false };
  }

  /** A step ended: queues its chunks (every chunk not stored yet) as one write (modes `steps`, `continued`). */
  stepEnded(chunks: readonly Chunk[]): void {
    if (!this.#begun) return;
    const from = this.#written;
    if (chunks.length <= from) return;
    const drafts = explodeChunks(this.#turnId, chunks.slice(from), 'assistant');
    this.#written = chunks.length;
    this.#chain = this.#chain.then(async () => {
      if (this.#failedFrom !== undefined) return;
      try {
        const rows = await this.#store.appendSteps(
          this.#threadId,
          this.#turnId,
          drafts,
          this.#fenced(),
        );
        for (const row of rows) this.#rows.push(row);
      } catch (error) {
        this.#failedFrom = from;
        this.#onError(error);
      }
    });
  }

  /**
   * Writes what is not stored yet, with the turn's status and its steps' usage, after the step
   * writes before it.
   *
   * @param userChunks - the user's message (stored now unless the turn has rows already)
   * @param chunks - the turn's assistant chunks
   * @param status - how it ended
   * @param usage - its steps' usage
   * @returns every stored row of the turn, user message first
   * @throws the store's error when the final write fails; `turn-exists` when `begin` found the
   *   turn id stored (nothing is written)
   */
  async finish(
    userChunks: readonly Chunk[],
    chunks: readonly Chunk[],
    status: EndedTurnStatus,
    usage: readonly StepUsage[],
  ): Promise<readonly ChunkRow[]> {
    await this.#chain;
    if (this.#refused !== undefined) throw this.#refused;
    const options = {
      ...this.#fenced(),
      ...(usage.length === 0 ? {} : { usage }),
    };
    if (!this.#begun) {
      const drafts = [
        ...explodeChunks(this.#turnId, userChunks, 'user'),
        ...explodeChunks(this.#turnId, chunks, 'assistant'),
      ];
      const rows = await this.#store.appendTurn(this.#threadId, drafts, {
        ...options,
        ...(status === 'completed' ? {} : { status }),
      });
      for (const row of rows) this.#rows.push(row);
      return this.#rows;
    }
    const from = this.#failedFrom ?? this.#written;
    const rest = explodeChunks(this.#turnId, chunks.slice(from), 'assistant');
    const rows = await this.#store.appendSteps(this.#threadId, this.#turnId, rest, {
      ...options,
      status,
    });
    this.#written = chunks.length;
    for (const row of rows) this.#rows.push(row);
    return this.#rows;
  }
}

/**
 * The `turn-exists` error: a turn id the thread holds already was sent again.
 *
 * @param threadId - the thread
 * @param turnId - the turn
 * @param status - the stored turn's status
 */
export function turnExists(threadId: string, turnId: string, status: string): ChunklogError {
  return new ChunklogError(
    'turn-exists',
    `Turn ${JSON.stringify(turnId)} is already stored in thread ${JSON.stringify(threadId)} (${status}); the model was not called again.`,
    { threadId, value: status },
  );
}

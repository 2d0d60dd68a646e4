import { ChunklogError } from '../errors/chunklog-error.js';
import type { Chunk } from '../schema/chunk.js';
import type { ChunkRow, ChunkRowDraft } from '../schema/chunk-row.js';
import type {
  AppendStepsOptions,
  BeginTurnOptions,
  BeginTurnResult,
  EndedTurnStatus,
  LeaseFence,
} from '../store/turn-types.js';
import { explodeChunks } from '../transforms/explode-turn.js';
import { userMessage } from './history.js';
import type { EventSink } from './live-turn.js';
import type { SessionStore } from './types.js';
import type { SessionConfig } from './validate-options.js';

/**
 * How a session stores a turn: `'turn'` in one transaction when it ends (the fewest writes);
 * `'step'` the user's message when the turn starts and each step's rows when the step ends, one
 * transaction each, so a crash loses at most the step in progress.
 */
export type SessionDurability = 'turn' | 'step';

/** The store methods `durability: 'step'` needs (every `ChunkStore` has them). */
export interface StepDurableStore extends SessionStore {
  beginTurn(
    threadId: string,
    drafts: readonly ChunkRowDraft[],
    options?: BeginTurnOptions,
  ): Promise<BeginTurnResult>;
  appendSteps(
    threadId: string,
    turnId: string,
    drafts: readonly ChunkRowDraft[],
    options?: AppendStepsOptions,
  ): Promise<ChunkRow[]>;
}

/** Whether a store can write turns step by step. */
export function isStepDurableStore(store: unknown): store is StepDurableStore {
  const s = store as Partial<StepDurableStore> | null;
  return typeof s?.beginTurn === 'function' && typeof s.appendSteps === 'function';
}

/** The status a turn's outcome is stored with. */
export function statusOfOutcome(outcome: 'completed' | 'failed' | 'cancelled'): EndedTurnStatus {
  return outcome;
}

/**
 * Writes one turn step by step (`durability: 'step'`): {@link StepWriter.begin} stores the user's
 * message and the turn's `running` status; {@link StepWriter.stepEnded} queues the chunks folded
 * since the last write (the step that just ended) as one `appendSteps`; {@link StepWriter.finish}
 * writes what is left and the turn's final status. Writes run one after another, in order; after
 * a failed step write (reported) the later step writes wait, and the final write stores every
 * chunk from the failed one on, so nothing is skipped and the rows stay in the order of the chunks.
 */
export class StepWriter {
  readonly #store: StepDurableStore;
  readonly #threadId: string;
  readonly #turnId: string;
  readonly #fence: LeaseFence | undefined;
  readonly #onError: (error: unknown) => void;
  /** How many of the turn's assistant chunks are stored (or on their way). */
  #written = 0;
  #rows: ChunkRow[] = [];
  #chain: Promise<void> = Promise.resolve();
  #begun = false;

  /**
   * @param store - the session's store
   * @param threadId - the thread
   * @param turnId - the turn
   * @param fence - the lease the writes are fenced with, when the session holds one
   * @param onError - told of a step write that failed (its chunks go with the final write)
   */
  constructor(
    store: StepDurableStore,
    threadId: string,
    turnId: string,
    fence: LeaseFence | undefined,
    onError: (error: unknown) => void,
  ) {
    this.#store = store;
    this.#threadId = threadId;
    this.#turnId = turnId;
    this.#fence = fence;
    this.#onError = onError;
  }

  #fenceOption(): { fence?: LeaseFence } {
    return this.#fence === undefined ? {} : { fence: this.#fence };
  }

  /**
   * Stores the user's message and the turn's `running` status, in one transaction.
   *
   * @returns what the store did (`created: false` when the turn id was stored already)
   */
  async begin(userChunks: readonly Chunk[]): Promise<BeginTurnResult> {
    const drafts = explodeChunks(this.#turnId, userChunks, 'user');
    const result = await this.#store.beginTurn(this.#threadId, drafts, this.#fenceOption());
    if (result.created) {
      this.#begun = true;
      this.#rows = [...result.rows];
    }
    return result;
  }

  /**
   * Takes over a turn stored already (the `continue` recovery policy): no `begin`; the next
   * writes append to it.
   *
   * @param rows - the turn's stored rows
   */
  resume(rows: readonly ChunkRow[]): void {
    this.#begun = true;
    this.#rows = [...rows];
  }

  /** Whether {@link StepWriter.begin} stored the turn. */
  get begun(): boolean {
    return this.#begun;
  }

  /** A step ended: queues its chunks (every chunk not stored yet) as one write. */
  stepEnded(chunks: readonly Chunk[]): void {
    if (!this.#begun) return;
    const from = this.#written;
    const to = chunks.length;
    if (to <= from) return;
    const drafts = explodeChunks(this.#turnId, chunks.slice(from, to), 'assistant');
    this.#written = to;
    this.#chain = this.#chain.then(async () => {
      // After a failed step write, the rest waits for the final write (rows stay in order).
      if (this.#failedFrom !== undefined) return;
      try {
        const rows = await this.#store.appendSteps(
          this.#threadId,
          this.#turnId,
          drafts,
          this.#fenceOption(),
        );
        this.#rows.push(...rows);
      } catch (error) {
        this.#failedFrom = from;
        this.#onError(error);
      }
    });
  }

  /** The first chunk of the step write that failed: the final write starts there. */
  #failedFrom: number | undefined;

  /**
   * Writes the chunks not stored yet and ends the turn with `status`, after the step writes
   * before it.
   *
   * @returns every stored row of the turn, user message first
   * @throws the store's error when the final write fails (the turn stays `running` in the store)
   */
  async finish(chunks: readonly Chunk[], status: EndedTurnStatus): Promise<ChunkRow[]> {
    await this.#chain;
    const from = this.#failedFrom ?? this.#written;
    const rest = explodeChunks(this.#turnId, chunks.slice(from), 'assistant');
    const rows = await this.#store.appendSteps(this.#threadId, this.#turnId, rest, {
      ...this.#fenceOption(),
      status,
    });
    this.#written = chunks.length;
    this.#rows.push(...rows);
    return this.#rows;
  }
}

/**
 * A turn's event sink that writes each ended step: a step's rows are written when the next step
 * starts (at once: the AI SDK starts it as soon as the step's tools returned), and the last
 * step's with the turn's status: one transaction fewer per turn than a write at every
 * `step-finish`, and no later.
 *
 * @param writer - the turn's writer
 * @param base - the session's sink
 * @param chunks - the turn's chunks so far
 */
export function stepWritingSink(
  writer: StepWriter,
  base: EventSink,
  chunks: () => readonly Chunk[],
): EventSink {
  let stepEnded = false;
  return (event, meta) => {
    base(event, meta);
    if (event.type === 'step-finish') stepEnded = true;
    else if (event.type === 'step-start' && stepEnded) {
      stepEnded = false;
      writer.stepEnded(chunks());
    }
  };
}

/** The session's glue for a turn under `durability: 'step'` (see {@link stepWriterFor}). */
export interface DurableTurn {
  /** The turn's event sink: the session's, plus a write of each ended step's rows. */
  sink(base: EventSink, chunks: () => readonly Chunk[]): EventSink;
  /** Runs after the writes before the turn: stores its user message and `running` status. */
  begin(writesBefore: Promise<unknown>): Promise<void>;
  /**
   * Stores the rest of the turn and its status. When `begin` failed for another reason than
   * `turn-exists`, the whole turn is stored in one `appendTurn` instead (nothing is lost).
   *
   * @returns every stored row of the turn
   */
  finish(
    chunks: readonly Chunk[],
    outcome: 'completed' | 'failed' | 'cancelled',
    wholeTurn: readonly ChunkRowDraft[],
  ): Promise<readonly ChunkRow[]>;
}

/**
 * The step writer of a turn when the session stores turns step by step, else undefined.
 *
 * @param config - the session's configuration
 * @param handle - the turn
 * @param fence - the session's lease, when it holds one
 * @param onError - told of a failed step write (the session reports it, and cancels the turn
 *   when the lease was lost)
 */
export function stepWriterFor(
  config: SessionConfig,
  handle: { readonly turnId: string; readonly text: string },
  fence: LeaseFence | undefined,
  onError: (error: unknown) => void,
): DurableTurn | undefined {
  if (config.durability !== 'step') return undefined;
  const store = config.turn.store as StepDurableStore;
  const threadId = config.turn.threadId;
  const writer = new StepWriter(store, threadId, handle.turnId, fence, onError);
  let beginError: unknown;
  return {
    sink: (base, chunks) => stepWritingSink(writer, base, chunks),
    async begin(writesBefore) {
      await writesBefore;
      try {
        const result = await writer.begin(userMessage(handle.turnId, handle.text).chunks);
        if (!result.created) beginError = turnExists(threadId, handle.turnId, result.status);
      } catch (error) {
        beginError = error;
      }
      if (beginError !== undefined) throw beginError;
    },
    async finish(chunks, outcome, wholeTurn) {
      if (writer.begun) return await writer.finish(chunks, statusOfOutcome(outcome));
      if (ChunklogError.hasCode(beginError, 'turn-exists')) throw beginError;
      return await store.appendTurn(threadId, wholeTurn, {
        ...(outcome === 'completed' ? {} : { status: outcome }),
        ...(fence === undefined ? {} : { fence }),
      });
    },
  };
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

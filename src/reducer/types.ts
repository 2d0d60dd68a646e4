import type { Chunk } from '../schema/chunk.js';
import type { ProviderMetadata } from '../schema/json.js';
import type { FinishReason, TokenUsage } from '../schema/usage.js';

/** What a `step-finish` said about one step (one model call) of a turn. */
export interface StepSummary {
  /** The step's number. */
  readonly step: number;
  readonly finishReason: FinishReason;
  readonly usage?: TokenUsage | undefined;
  /** The model that answered the step. */
  readonly modelId?: string | undefined;
  /** The step's provider metadata (Anthropic's refusal `stopDetails`, OpenAI's response id). */
  readonly providerMetadata?: ProviderMetadata | undefined;
}

/**
 * The state of one turn as the reducer sees it: the ordered chunks and what is still open.
 * Immutable: {@link reduceTurn} returns a new state and never changes the one it was given.
 */
export interface TurnState {
  /** The chunks held, in order (materialized on first read, then cached; frozen). */
  readonly chunks: readonly Chunk[];
  /** How many chunks are held. O(1). */
  readonly chunkCount: number;
  /**
   * The chunk at `index` in {@link TurnState.chunks}, without materializing the list. O(1).
   *
   * @param index - a position in `chunks`
   * @returns the chunk, or undefined when out of range
   */
  chunkAt(index: number): Chunk | undefined;
  /**
   * The index in `chunks` of the open chunk, the one still receiving deltas: a started, not
   * yet ended text or thinking block, a chunk of bare deltas not yet closed, or a tool batch
   * with a call whose input is still streaming. When several are open (interleaved blocks), the
   * first of them. Null when none is.
   */
  readonly openIndex: number | null;
  /** How many leading chunks {@link evictLeadingChunks} dropped: `chunks[i]` is chunk `evicted + i` of the turn. */
  readonly evicted: number;
  readonly turnId: string | null;
  readonly assistantId: string | null;
  /** The current step (0 until the first `step-start`). */
  readonly step: number;
  /** Whether `turn-end` was seen. */
  readonly ended: boolean;
  /** The turn's finish reason, from `turn-end`. */
  readonly finishReason: FinishReason | undefined;
  /** The turn's token usage, from `turn-end`. */
  readonly usage: TokenUsage | undefined;
  /** One summary per `step-finish`, in order. */
  readonly steps: readonly StepSummary[];
}

/** Ids a turn starts with (a `turn-start` event sets them too). */
export interface TurnStateInit {
  readonly turnId?: string | undefined;
  readonly assistantId?: string | undefined;
}

import type { FinishReason, TokenUsage } from '../schema/usage.js';

/**
 * What one model step of a turn used: its token counts as the provider reported them, the model
 * that answered, why it finished and how long it took.
 *
 * @example
 * ```ts
 * const step: StepUsage = {
 *   step: 0,
 *   modelId: 'claude-sonnet-4-5',
 *   finishReason: 'tool-calls',
 *   usage: { inputTokens: 1200, outputTokens: 40, cacheReadTokens: 1000 },
 *   durationMs: 850,
 * };
 * ```
 */
export interface StepUsage {
  /** The step's number in its turn, from 0. */
  readonly step: number;
  /** The model that answered (the response's model id), when known. */
  readonly modelId?: string | undefined;
  /** Why the step finished. */
  readonly finishReason?: FinishReason | undefined;
  /**
   * The step's token counts. `inputTokens` is the exact size of the prompt this step sent (what
   * a token budget is corrected by).
   */
  readonly usage: TokenUsage;
  /** How long the step took, in milliseconds, from its start to its finish. */
  readonly durationMs?: number | undefined;
}

/**
 * The app's price of a step's usage (no price table ships with chunklog): any unit, summed.
 *
 * @example
 * ```ts
 * const price: PriceFunction = (modelId, usage) =>
 *   ((usage.inputTokens ?? 0) * 3 + (usage.outputTokens ?? 0) * 15) / 1e6;
 * ```
 */
export type PriceFunction = (modelId: string | undefined, usage: TokenUsage) => number;

/** Options of a usage read. */
export interface UsageReadOptions {
  /** Prices each step; the read's `cost` is their sum. */
  readonly price?: PriceFunction | undefined;
}

/** A turn's usage: its steps, and their sum. */
export interface TurnUsage {
  readonly turnId: string;
  /** The steps, in order. */
  readonly steps: readonly StepUsage[];
  /** The steps' counts summed, key by key (a count no step reported stays absent). */
  readonly total: TokenUsage;
  /** The sum of `price` over the steps, when a price function was given. */
  readonly cost?: number | undefined;
}

/** A thread's usage, totalled over every recorded step. */
export interface ThreadUsage {
  /** How many turns have usage recorded. */
  readonly turns: number;
  /** How many steps have usage recorded. */
  readonly steps: number;
  /** The steps' counts summed, key by key. */
  readonly total: TokenUsage;
  /** The sum of `price` over the steps, when a price function was given. */
  readonly cost?: number | undefined;
}

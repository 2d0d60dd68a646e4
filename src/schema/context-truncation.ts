import type { ZodType } from 'zod';
import * as z from 'zod/mini';
import { classicView } from './classic-view.js';

/**
 * What a `context-truncated` system chunk records: where model input starts since this cut, what
 * was left out, and (with compaction) the summary sent in place of what was left out. The rows
 * left out stay stored; only model input changes.
 *
 * @example
 * ```ts
 * const cut: ContextTruncation = {
 *   firstKeptTurnId: 'turn-42',
 *   firstKeptSeq: 311,
 *   leftOutTurns: 41,
 *   maxTokens: 100_000,
 *   keptTokens: 48_200,
 * };
 * ```
 */
export interface ContextTruncation {
  /** The first turn still sent to the model: model input starts at its user message. */
  readonly firstKeptTurnId: string;
  /** The first seq kept (the first row of `firstKeptTurnId`), when the cut was stored by a store. */
  readonly firstKeptSeq?: number | undefined;
  /** How many turns before it are left out of model input, from the start of the thread. */
  readonly leftOutTurns: number;
  /** The token budget the cut was made for. */
  readonly maxTokens: number;
  /** The counter's size of the input kept, when the cut was made. */
  readonly keptTokens: number;
  /** With compaction: the summary of the turns left out, sent to the model in their place. */
  readonly summary?: string | undefined;
}

const count = z.number().check(z.int(), z.nonnegative());

/** The `zod/mini` schema of a {@link ContextTruncation}. */
export const contextTruncationMini: z.ZodMiniType<ContextTruncation> = z.object({
  firstKeptTurnId: z.string().check(z.minLength(1)),
  firstKeptSeq: z.optional(count),
  leftOutTurns: count,
  maxTokens: count,
  keptTokens: count,
  summary: z.optional(z.string()),
});

/** Zod schema of a {@link ContextTruncation}. */
export const ContextTruncationSchema: ZodType<ContextTruncation> =
  /* @__PURE__ */ classicView(contextTruncationMini);

import type { StepSummary } from '../reducer/types.js';
import type { FinishReason, TokenUsage } from '../schema/usage.js';
import type { ChunkWindowSnapshot } from '../window/snapshot.js';

/**
 * The live turn of a window, as a UI shows it: `running` from its first event to its `turn-end`,
 * `ended` until the stored rows replace it (`reconcile()`), `idle` when no turn is live.
 *
 * @example
 * ```ts
 * const turn: LiveTurn = { status: 'running', turnId: 't7', step: 1, steps: [], usage: undefined, finishReason: undefined };
 * ```
 */
export interface LiveTurn {
  readonly status: 'idle' | 'running' | 'ended';
  /** The live turn's id, or null when idle. */
  readonly turnId: string | null;
  /** The step the turn is at (0 before its first `step-start`). */
  readonly step: number;
  /** What each finished step reported (finish reason, usage, model). */
  readonly steps: readonly StepSummary[];
  /** The turn's usage, from its `turn-end`. */
  readonly usage: TokenUsage | undefined;
  /** The turn's finish reason, from its `turn-end`. */
  readonly finishReason: FinishReason | undefined;
}

const IDLE: LiveTurn = Object.freeze({
  status: 'idle',
  turnId: null,
  step: 0,
  steps: Object.freeze([]) as readonly StepSummary[],
  usage: undefined,
  finishReason: undefined,
});

/**
 * The live turn of a window snapshot (see {@link LiveTurn}). Pure.
 *
 * @param snapshot - a window snapshot
 * @returns the live turn's status, step, steps, usage and finish reason
 *
 * @example
 * ```ts
 * const running = liveTurnOf(window.getSnapshot()).status === 'running';
 * ```
 */
export function liveTurnOf(snapshot: ChunkWindowSnapshot): LiveTurn {
  const turn = snapshot.liveTurn;
  if (snapshot.liveTurnId === null || turn === null) return IDLE;
  return {
    status: turn.ended ? 'ended' : 'running',
    turnId: snapshot.liveTurnId,
    step: turn.step,
    steps: turn.steps,
    usage: turn.usage,
    finishReason: turn.finishReason,
  };
}

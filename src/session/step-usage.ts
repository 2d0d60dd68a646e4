import type { ChunkEvent } from '../schema/chunk-event.js';
import type { StepUsage } from '../store/usage-types.js';

/**
 * Collects a turn's usage step by step from its wire events: `step-start` starts the step's
 * clock, `step-finish` records its usage, model id, finish reason and duration.
 */
export class StepUsageLog {
  readonly #now: () => number;
  #started: number | undefined;
  /** The finished steps, in order. */
  readonly steps: StepUsage[] = [];

  /** @param now - the session's clock, in milliseconds */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** Looks at one event of the turn. */
  observe(event: ChunkEvent): void {
    if (event.type === 'step-start') {
      this.#started = this.#now();
    } else if (event.type === 'step-finish') {
      const started = this.#started;
      this.#started = undefined;
      this.steps.push({
        step: event.step ?? this.steps.length,
        usage: event.usage ?? {},
        ...(event.modelId === undefined ? {} : { modelId: event.modelId }),
        finishReason: event.finishReason,
        ...(started === undefined ? {} : { durationMs: Math.max(0, this.#now() - started) }),
      });
    }
  }
}

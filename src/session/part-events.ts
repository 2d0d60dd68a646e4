import type { TextStreamPart, ToolSet } from 'ai';
import type { ChunkEvent } from '../schema/chunk-event.js';
import { type FinishReason, sumUsage, type TokenUsage } from '../schema/usage.js';
import { describeModelSwitch, readModelSwitch } from './fallback.js';
import { toChunkEvents } from './pipeline.js';

/** Sums two usages key by key; a key absent from both stays absent. */
export function addUsage(
  a: TokenUsage | undefined,
  b: TokenUsage | undefined,
): TokenUsage | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return sumUsage([a, b]);
}

/**
 * Maps the parts of one turn's `streamText().stream` to wire events, the session's way:
 * `toChunkEvents` for content, explicit step numbers on `step-start` and `step-finish`, a
 * `model-changed` system event where a fallback switched models, and no `turn-end` or
 * `cancelled` event of its own: the session ends the turn itself (after its own system events),
 * using the finish reason and usage recorded here.
 */
export class PartEvents {
  /** The step in progress (-1 before the first). */
  step = -1;
  /** Whether the stream reported an abort. */
  aborted = false;
  /** Whether an error event was produced. */
  failed = false;
  /** The finish reason and usage of the whole run, from its `finish` part. */
  finishReason: FinishReason | undefined;
  usage: TokenUsage | undefined;
  /** The usage of the steps that finished, summed (the turn's usage when no `finish` came). */
  stepUsage: TokenUsage | undefined;

  /**
   * @param part - one stream part
   * @returns the events it means, in order
   */
  map(part: TextStreamPart<ToolSet>): ChunkEvent[] {
    switch (part.type) {
      case 'raw': {
        const change = readModelSwitch(part.rawValue);
        return change === undefined
          ? []
          : [{ type: 'system', kind: 'model-changed', text: describeModelSwitch(change) }];
      }
      case 'abort':
        this.aborted = true;
        return [];
      case 'start-step':
        this.step += 1;
        return toChunkEvents(part).map((event) =>
          event.type === 'step-start' ? { ...event, step: this.step } : event,
        );
      case 'finish-step':
        return toChunkEvents(part).map((event) => {
          if (event.type !== 'step-finish') return event;
          this.stepUsage = addUsage(this.stepUsage, event.usage);
          return { ...event, step: Math.max(this.step, 0) };
        });
      default:
        break;
    }
    const events = toChunkEvents(part);
    // The common case (a delta): one content event, passed through as is.
    const only = events.length === 1 ? events[0] : undefined;
    if (only !== undefined && only.type !== 'turn-end' && only.type !== 'error') return events;
    const out: ChunkEvent[] = [];
    for (const event of events) {
      if (event.type === 'turn-end') {
        this.finishReason = event.finishReason;
        this.usage = event.usage;
        continue;
      }
      if (event.type === 'error') this.failed = true;
      out.push(event);
    }
    return out;
  }
}

import type { LanguageModel, TextStreamPart, ToolSet } from 'ai';
import type { ChunkEvent, ErrorEvent } from '../schema/chunk-event.js';
import { pickErrorInfo } from '../schema/error-info.js';
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
 * The provider and id of a model, for an error event: a model object's own (a fallback chain
 * gives those of the model it is on), the id alone for a model named by a string.
 */
function modelNames(model: LanguageModel): Pick<ErrorEvent, 'provider' | 'modelId'> {
  if (typeof model === 'string') return { modelId: model };
  return { provider: model.provider, modelId: model.modelId };
}

/**
 * Maps the parts of one turn's `streamText().stream` to wire events, the session's way:
 * `toChunkEvents` for content, explicit step numbers on `step-start` and `step-finish`, a
 * `model-changed` system event where a fallback switched models, error events that name the
 * model that failed (`provider`, `modelId`), and no `turn-end` or
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
  /** The model the turn calls, once it is called: error events name it. */
  model: LanguageModel | undefined;

  /**
   * The events of an error the stream threw (rather than streamed), as of an `error` part.
   *
   * @param error - what was thrown
   * @returns its error event, naming the model when one was called
   */
  thrown(error: unknown): ChunkEvent[] {
    this.failed = true;
    return toChunkEvents({ type: 'error', error }).map((event) => this.#named(event));
  }

  /** An error event with the called model's provider and id (kept when it has its own). */
  #named(event: ChunkEvent): ChunkEvent {
    if (event.type !== 'error' || this.model === undefined) return event;
    return { type: 'error', ...pickErrorInfo({ ...modelNames(this.model), ...event }) };
  }

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
      out.push(this.#named(event));
    }
    return out;
  }
}

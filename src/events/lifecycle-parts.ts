import type {
  ErrorEvent,
  StepFinishEvent,
  StepStartEvent,
  SystemEvent,
  TurnEndEvent,
} from '../schema/chunk-event.js';
import { toErrorInfo } from './errors.js';
import { jsonMetadata } from './json-safe.js';
import type { StreamPartOf } from './part-types.js';
import { flattenUsage } from './usage.js';

/** `start-step` → `step-start` with no number (the part has none; see notes/0002). */
export function fromStartStep(_part: StreamPartOf<'start-step'>): StepStartEvent {
  return { type: 'step-start' };
}

/** `finish-step` → `step-finish { finishReason, usage, modelId, providerMetadata }`. */
export function fromFinishStep(part: StreamPartOf<'finish-step'>): StepFinishEvent {
  const usage = flattenUsage(part.usage);
  const modelId = part.response?.modelId;
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return {
    type: 'step-finish',
    finishReason: part.finishReason,
    ...(usage && { usage }),
    ...(typeof modelId === 'string' && { modelId }),
    ...(providerMetadata && { providerMetadata }),
  };
}

/** `finish` → `turn-end { finishReason, usage }` (the usage of the whole run). */
export function fromFinish(part: StreamPartOf<'finish'>): TurnEndEvent {
  const usage = flattenUsage(part.totalUsage);
  return { type: 'turn-end', finishReason: part.finishReason, ...(usage && { usage }) };
}

/**
 * The text of the `system` event (kind `cancelled`) that an `abort` part without a reason
 * becomes.
 *
 * @example
 * ```ts
 * toChunkEvents({ type: 'abort' }); // [{ type: 'system', kind: 'cancelled', text: ABORT_TEXT }]
 * ```
 */
export const ABORT_TEXT = 'The turn was aborted.';

/** `abort` → `system { kind: 'cancelled', text: reason }`. */
export function fromAbort(part: StreamPartOf<'abort'>): SystemEvent {
  return { type: 'system', kind: 'cancelled', text: part.reason ?? ABORT_TEXT };
}

/**
 * `error` → `error { message, statusCode?, kind?, retryable?, attempts? }` (see
 * {@link toErrorInfo}; the session adds the model that failed).
 */
export function fromError(part: StreamPartOf<'error'>): ErrorEvent {
  return { type: 'error', ...toErrorInfo(part.error) };
}

import type {
  ReasoningDeltaEvent,
  ReasoningEndEvent,
  ReasoningStartEvent,
  TextDeltaEvent,
  TextEndEvent,
  TextStartEvent,
} from '../schema/chunk-event.js';
import { jsonMetadata } from './json-safe.js';
import type { StreamPartOf } from './part-types.js';
import { toCitations } from './sources.js';

/** `text-start` → `text-start` with the block id and metadata. */
export function fromTextStart(part: StreamPartOf<'text-start'>): TextStartEvent {
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return { type: 'text-start', id: part.id, ...(providerMetadata && { providerMetadata }) };
}

/** `text-delta` → `text-delta` (`text`, block id, metadata). */
export function fromTextDelta(part: StreamPartOf<'text-delta'>): TextDeltaEvent {
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return {
    type: 'text-delta',
    id: part.id,
    text: part.text,
    ...(providerMetadata && { providerMetadata }),
  };
}

/** `text-end` → `text-end` with the block's citations and metadata. */
export function fromTextEnd(part: StreamPartOf<'text-end'>): TextEndEvent {
  const providerMetadata = jsonMetadata(part.providerMetadata);
  const citations = toCitations(part.citations);
  return {
    type: 'text-end',
    id: part.id,
    ...(providerMetadata && { providerMetadata }),
    ...(citations && { citations }),
  };
}

/** `reasoning-start` → `reasoning-start` (redacted thinking arrives here, as metadata). */
export function fromReasoningStart(part: StreamPartOf<'reasoning-start'>): ReasoningStartEvent {
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return { type: 'reasoning-start', id: part.id, ...(providerMetadata && { providerMetadata }) };
}

/** `reasoning-delta` → `reasoning-delta` (a signature may come with empty text). */
export function fromReasoningDelta(part: StreamPartOf<'reasoning-delta'>): ReasoningDeltaEvent {
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return {
    type: 'reasoning-delta',
    id: part.id,
    text: part.text,
    ...(providerMetadata && { providerMetadata }),
  };
}

/** `reasoning-end` → `reasoning-end` (a fresh encrypted blob may ride on it). */
export function fromReasoningEnd(part: StreamPartOf<'reasoning-end'>): ReasoningEndEvent {
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return { type: 'reasoning-end', id: part.id, ...(providerMetadata && { providerMetadata }) };
}

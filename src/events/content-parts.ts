import type {
  CustomEvent,
  FileEvent,
  SourceEvent,
  SteeringMessageEvent,
} from '../schema/chunk-event.js';
import { jsonMetadata } from './json-safe.js';
import type { StreamPartOf } from './part-types.js';
import { toSource } from './sources.js';

/** `custom` → `custom` (provider content such as `anthropic.fallback`), kept in order. */
export function fromCustom(part: StreamPartOf<'custom'>): CustomEvent {
  const providerMetadata = jsonMetadata(part.providerMetadata);
  return { type: 'custom', kind: part.kind, ...(providerMetadata && { providerMetadata }) };
}

/** `source` → `source { source }`. */
export function fromSource(part: StreamPartOf<'source'>): SourceEvent {
  return { type: 'source', source: toSource(part) };
}

/** `file` and `reasoning-file` → `file` with base64 `data` (`reasoning: true` for the latter). */
export function fromFile(part: StreamPartOf<'file'> | StreamPartOf<'reasoning-file'>): FileEvent {
  const providerMetadata = jsonMetadata({
    ...part.file.providerMetadata,
    ...part.providerMetadata,
  });
  return {
    type: 'file',
    mediaType: part.file.mediaType,
    data: part.file.base64,
    ...(providerMetadata && { providerMetadata }),
    ...(part.type === 'reasoning-file' && { reasoning: true }),
  };
}

/**
 * `steering-message` → `steering-message { id, text, step }`: the text parts of the user's
 * message, joined by a newline, and the number of the step that received it.
 */
export function fromSteeringMessage(part: StreamPartOf<'steering-message'>): SteeringMessageEvent {
  const { content } = part.message;
  const text =
    typeof content === 'string'
      ? content
      : content
          .filter((p): p is Extract<typeof p, { type: 'text' }> => p.type === 'text')
          .map((p) => p.text)
          .join('\n');
  return { type: 'steering-message', id: part.id, text, step: part.stepNumber };
}

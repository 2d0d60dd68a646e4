import type { Chunk, DataChunk, JSONValue } from '../schema/index.js';

/**
 * The name of the `data` chunk that keeps what a `UIMessage` holds outside its parts, when
 * chunklog cannot derive it: the message's own id (when it is not `${turnId}:${role}`) and its
 * `metadata`. It is the first chunk of its message; `toUIMessages` folds it back into the message
 * instead of showing it as a part.
 *
 * @example
 * ```ts
 * const visible = message.chunks.filter(
 *   (c) => !(c.type === 'data' && c.name === UI_MESSAGE_ENVELOPE),
 * );
 * ```
 */
export const UI_MESSAGE_ENVELOPE = 'chunklog-ui-message';

/** What the envelope holds. */
export interface UIMessageEnvelope {
  readonly id?: string | undefined;
  readonly metadata?: JSONValue | undefined;
}

/**
 * The envelope chunk for a message, or undefined when there is nothing to keep.
 *
 * @param envelope - the original id (only when it differs from chunklog's) and the metadata
 */
export function envelopeChunk(envelope: UIMessageEnvelope): DataChunk | undefined {
  if (envelope.id === undefined && envelope.metadata === undefined) return undefined;
  const data: { [key: string]: JSONValue } = {};
  if (envelope.id !== undefined) data.id = envelope.id;
  if (envelope.metadata !== undefined) data.metadata = envelope.metadata;
  return { type: 'data', step: 0, name: UI_MESSAGE_ENVELOPE, data };
}

/**
 * Splits a message's chunks into its envelope (when its first chunk is one) and the rest.
 *
 * @param chunks - the chunks of one message
 */
export function readEnvelope(chunks: readonly Chunk[]): {
  readonly envelope: UIMessageEnvelope;
  readonly chunks: readonly Chunk[];
} {
  const first = chunks[0];
  if (first?.type !== 'data' || first.name !== UI_MESSAGE_ENVELOPE) return { envelope: {}, chunks };
  const data = first.data;
  const envelope: { id?: string; metadata?: JSONValue } = {};
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    if (typeof data.id === 'string') envelope.id = data.id;
    if (data.metadata !== undefined) envelope.metadata = data.metadata;
  }
  return { envelope, chunks: chunks.slice(1) };
}

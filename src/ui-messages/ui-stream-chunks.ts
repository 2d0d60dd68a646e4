import type { UIMessageChunk } from 'ai';
import type { Chunk, SourceChunk, TextChunk, ThinkingChunk } from '../schema/index.js';
import { toUICitation } from './citations.js';
import { CHUNKLOG_DATA_PARTS } from './data-parts.js';
import { fileUrl } from './file-url.js';

/** A chunk that is sent in one piece: anything but text, thinking and tool-batch chunks. */
export type WholeChunk = Exclude<Chunk, TextChunk | ThinkingChunk | { type: 'tool-batch' }>;

function sourceChunk(chunk: SourceChunk): UIMessageChunk {
  const { sourceType, id, ...rest } = chunk.source;
  return sourceType === 'url'
    ? ({ type: 'source-url', sourceId: id, ...rest } as UIMessageChunk)
    : ({ type: 'source-document', sourceId: id, ...rest } as UIMessageChunk);
}

/**
 * The one stream chunk that adds a whole chunk's part to the client's message.
 *
 * @param chunk - an error, system, steering, source, file, custom or data chunk
 */
export function wholeChunkToStream(chunk: WholeChunk): UIMessageChunk {
  const metadata =
    'providerMetadata' in chunk && chunk.providerMetadata !== undefined
      ? { providerMetadata: chunk.providerMetadata }
      : {};
  switch (chunk.type) {
    case 'error':
      return {
        type: CHUNKLOG_DATA_PARTS.error,
        data: {
          message: chunk.message,
          ...(chunk.statusCode === undefined ? {} : { statusCode: chunk.statusCode }),
        },
      };
    case 'system':
      return { type: CHUNKLOG_DATA_PARTS.system, data: { kind: chunk.kind, text: chunk.text } };
    case 'steering':
      return {
        type: 'steering-message',
        id: chunk.id,
        parts: [{ type: 'text', text: chunk.text }],
      };
    case 'source':
      return sourceChunk(chunk);
    case 'file':
      return {
        type: chunk.reasoning === true ? 'reasoning-file' : 'file',
        mediaType: chunk.mediaType,
        url: fileUrl(chunk.mediaType, chunk),
        ...metadata,
      };
    case 'custom':
      return { type: 'custom', kind: chunk.kind as `${string}.${string}`, ...metadata };
    case 'data':
      return {
        type: `data-${chunk.name}`,
        ...(chunk.id === undefined ? {} : { id: chunk.id }),
        data: chunk.data,
      };
    default: {
      const unknown: never = chunk;
      throw new Error(`unknown chunk type ${(unknown as { type: string }).type}`);
    }
  }
}

/**
 * The stream chunk that ends a text or reasoning block, with its final metadata (and citations).
 *
 * @param chunk - the block's chunk
 * @param uiId - the block's id in the stream
 */
export function blockEnd(chunk: TextChunk | ThinkingChunk, uiId: string): UIMessageChunk {
  const metadata =
    chunk.providerMetadata === undefined ? {} : { providerMetadata: chunk.providerMetadata };
  if (chunk.type === 'thinking') return { type: 'reasoning-end', id: uiId, ...metadata };
  return {
    type: 'text-end',
    id: uiId,
    ...metadata,
    ...(chunk.citations === undefined ? {} : { citations: chunk.citations.map(toUICitation) }),
  };
}

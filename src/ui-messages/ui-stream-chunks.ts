import type { UIMessageChunk } from 'ai';
import type { Chunk, FileChunk, TextChunk, ThinkingChunk } from '../schema/index.js';
import { toUICitation } from './citations.js';
import { fileUrl } from './file-url.js';
import { isSharedPartChunk, sharedPart } from './shared-parts.js';

/** A chunk that is sent in one piece: anything but text, thinking and tool-batch chunks. */
export type WholeChunk = Exclude<Chunk, TextChunk | ThinkingChunk | { type: 'tool-batch' }>;

/**
 * The one stream chunk that adds a whole chunk's part to the client's message.
 *
 * @param chunk - an error, system, steering, source, file, custom or data chunk
 */
export function wholeChunkToStream(chunk: WholeChunk): UIMessageChunk {
  // The same object as the message part (shared-parts.ts).
  if (isSharedPartChunk(chunk)) return sharedPart(chunk) as UIMessageChunk;
  // Only a file chunk is left: another whole chunk type does not compile until it is handled.
  const file: FileChunk = chunk;
  return {
    type: file.reasoning === true ? 'reasoning-file' : 'file',
    mediaType: file.mediaType,
    url: fileUrl(file.mediaType, file),
    ...(file.providerMetadata === undefined ? {} : { providerMetadata: file.providerMetadata }),
  };
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

import type { CustomChunk, FileChunk, TextChunk } from '../schema/chunk.js';
import type { AssistantPart, UserPart } from './ai-types.js';

/** A text chunk as a prompt part (the AI SDK's own shape). */
export function textPart(chunk: TextChunk): Extract<AssistantPart, { type: 'text' }> {
  return chunk.providerMetadata === undefined
    ? { type: 'text', text: chunk.text }
    : { type: 'text', text: chunk.text, providerOptions: chunk.providerMetadata };
}

/** A custom chunk as a prompt part: provider content sent back in place. */
export function customPart(chunk: CustomChunk): Extract<AssistantPart, { type: 'custom' }> {
  const kind = chunk.kind as `${string}.${string}`;
  return chunk.providerMetadata === undefined
    ? { type: 'custom', kind }
    : { type: 'custom', kind, providerOptions: chunk.providerMetadata };
}

/** A URL, or the string itself when it does not parse as one. */
function fileData(chunk: FileChunk): string | URL {
  if (chunk.data !== undefined) return chunk.data;
  try {
    return new URL(chunk.url ?? '');
  } catch {
    return chunk.url ?? '';
  }
}

type FilePart = Extract<UserPart, { type: 'file' }>;

/** A file chunk as a `file` part (filename and metadata only when present). */
function filePart(chunk: FileChunk): FilePart {
  const part: FilePart = { type: 'file', data: fileData(chunk), mediaType: chunk.mediaType };
  if (chunk.filename !== undefined) part.filename = chunk.filename;
  if (chunk.providerMetadata !== undefined) part.providerOptions = chunk.providerMetadata;
  return part;
}

/** A user's file chunk as a `file` part. */
export function userFilePart(chunk: FileChunk): FilePart {
  return filePart(chunk);
}

/** A generated file chunk as a `file` or `reasoning-file` part, as the AI SDK records it. */
export function assistantFilePart(
  chunk: FileChunk,
): Extract<AssistantPart, { type: 'file' | 'reasoning-file' }> {
  if (chunk.reasoning !== true) return filePart(chunk);
  const part: Extract<AssistantPart, { type: 'reasoning-file' }> = {
    type: 'reasoning-file',
    data: fileData(chunk),
    mediaType: chunk.mediaType,
  };
  if (chunk.providerMetadata !== undefined) part.providerOptions = chunk.providerMetadata;
  return part;
}

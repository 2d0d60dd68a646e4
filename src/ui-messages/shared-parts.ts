import type { UIDataTypes, UIMessagePart, UITools } from 'ai';
import type {
  Chunk,
  CustomChunk,
  DataChunk,
  ErrorChunk,
  SourceChunk,
  SteeringChunk,
  SystemChunk,
} from '../schema/index.js';
import { pickErrorInfo } from '../schema/index.js';
import { noticeFields } from '../schema/system-message.js';
import { CHUNKLOG_DATA_PARTS } from './data-parts.js';

/** Any part of a `UIMessage`. */
export type AnyUIPart = UIMessagePart<UIDataTypes, UITools>;

/** The chunks whose `UIMessage` part is also, field for field, their UI message stream chunk. */
export type SharedPartChunk =
  | ErrorChunk
  | SystemChunk
  | SteeringChunk
  | SourceChunk
  | CustomChunk
  | DataChunk;

const sharedPartTypes: Record<SharedPartChunk['type'], true> = {
  error: true,
  system: true,
  steering: true,
  source: true,
  custom: true,
  data: true,
};

/**
 * Whether a chunk's part is {@link sharedPart}'s: an error, system, steering, source, custom or
 * data chunk.
 *
 * @param chunk - the chunk
 * @returns whether it is a {@link SharedPartChunk}
 */
export function isSharedPartChunk(chunk: Chunk): chunk is SharedPartChunk {
  return Object.hasOwn(sharedPartTypes, chunk.type);
}

function sourcePart(chunk: SourceChunk): AnyUIPart {
  const source = chunk.source;
  const metadata =
    source.providerMetadata === undefined ? {} : { providerMetadata: source.providerMetadata };
  if (source.sourceType === 'url') {
    return {
      type: 'source-url',
      sourceId: source.id,
      url: source.url,
      ...(source.title === undefined ? {} : { title: source.title }),
      ...metadata,
    };
  }
  return {
    type: 'source-document',
    sourceId: source.id,
    mediaType: source.mediaType,
    title: source.title,
    ...(source.filename === undefined ? {} : { filename: source.filename }),
    ...metadata,
  };
}

/**
 * The one part of a chunk whose `UIMessage` part and UI message stream chunk are the same object:
 * an error or system notice (chunklog's data parts), a steering message, a source, a custom part,
 * an app's data part. Used for stored messages (`toUIMessages`) and live streams alike.
 *
 * @param chunk - the chunk
 * @returns its part
 */
export function sharedPart(chunk: SharedPartChunk): AnyUIPart {
  switch (chunk.type) {
    case 'error':
      return {
        type: CHUNKLOG_DATA_PARTS.error,
        data: pickErrorInfo(chunk),
      };
    case 'system':
      return {
        type: CHUNKLOG_DATA_PARTS.system,
        data: noticeFields(chunk),
      };
    case 'steering':
      return {
        type: 'steering-message',
        id: chunk.id,
        parts: [{ type: 'text', text: chunk.text }],
      };
    case 'source':
      return sourcePart(chunk);
    case 'custom':
      return {
        type: 'custom',
        kind: chunk.kind as `${string}.${string}`,
        ...(chunk.providerMetadata === undefined
          ? {}
          : { providerMetadata: chunk.providerMetadata }),
      };
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

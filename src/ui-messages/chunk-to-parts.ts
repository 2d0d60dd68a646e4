import type { Chunk, ToolCallEntry } from '../schema/index.js';
import { toUICitation } from './citations.js';
import { CHUNKLOG_DATA_PARTS } from './data-parts.js';
import { fileUrl } from './file-url.js';
import { type AnyUIPart, isSharedPartChunk, sharedPart } from './shared-parts.js';
import { toolCallToPart } from './tool-call-to-part.js';

export type { AnyUIPart } from './shared-parts.js';

/** How a message's parts are shaped: assistant text and reasoning are marked `state: 'done'`. */
export interface PartOptions {
  /** Whether the message is the assistant's (its text and reasoning get `state: 'done'`). */
  readonly assistant: boolean;
}

/**
 * The `data-chunklog-tool-progress` part of a call that streamed progress text.
 *
 * @param call - a tool call with `progress`
 */
export function toolProgressPart(call: ToolCallEntry & { progress: string }): AnyUIPart {
  return {
    type: CHUNKLOG_DATA_PARTS.toolProgress,
    id: call.id,
    data: { toolCallId: call.id, text: call.progress },
  };
}

/**
 * The `data-chunklog-deferred-result` part that marks where a call's deferred result arrived.
 *
 * @param toolCallId - the call's id
 */
export function deferredResultPart(toolCallId: string): AnyUIPart {
  return { type: CHUNKLOG_DATA_PARTS.deferredResult, id: toolCallId, data: { toolCallId } };
}

/**
 * The `UIMessage` parts of one chunk, in order. A tool-batch gives one tool part per call, then
 * one `data-chunklog-tool-progress` part per call that streamed progress text.
 *
 * @param chunk - a chunk of a chat message
 * @param options - whether the message is the assistant's
 * @returns the parts (step boundaries are not included)
 */
export function chunkToParts(chunk: Chunk, options: PartOptions): AnyUIPart[] {
  if (isSharedPartChunk(chunk)) return [sharedPart(chunk)];
  const done = options.assistant ? { state: 'done' as const } : {};
  switch (chunk.type) {
    case 'text':
      return [
        {
          type: 'text',
          text: chunk.text,
          ...done,
          ...(chunk.providerMetadata === undefined
            ? {}
            : { providerMetadata: chunk.providerMetadata }),
          ...(chunk.citations === undefined
            ? {}
            : { citations: chunk.citations.map(toUICitation) }),
        },
      ];
    case 'thinking':
      return [
        {
          type: 'reasoning',
          ...(chunk.id === undefined ? {} : { id: chunk.id }),
          text: chunk.text,
          ...done,
          ...(chunk.providerMetadata === undefined
            ? {}
            : { providerMetadata: chunk.providerMetadata }),
        },
      ];
    case 'tool-batch':
      return [
        ...chunk.calls.map((call) =>
          call.deferred === true ? deferredResultPart(call.id) : toolCallToPart(call),
        ),
        ...chunk.calls.flatMap((call) =>
          call.progress === undefined
            ? []
            : [toolProgressPart({ ...call, progress: call.progress })],
        ),
      ];
    case 'file': {
      const metadata =
        chunk.providerMetadata === undefined ? {} : { providerMetadata: chunk.providerMetadata };
      const url = fileUrl(chunk.mediaType, chunk);
      if (chunk.reasoning === true) {
        return [{ type: 'reasoning-file', mediaType: chunk.mediaType, url, ...metadata }];
      }
      return [
        {
          type: 'file',
          mediaType: chunk.mediaType,
          ...(chunk.filename === undefined ? {} : { filename: chunk.filename }),
          url,
          ...metadata,
        },
      ];
    }
    default: {
      const unknown: never = chunk;
      throw new Error(`unknown chunk type ${(unknown as { type: string }).type}`);
    }
  }
}

export {
  CHUNKLOG_DATA_PART_PREFIX,
  CHUNKLOG_DATA_PARTS,
  type ChunklogDeferredResultData,
  type ChunklogErrorData,
  type ChunklogErrorUIPart,
  type ChunklogSystemData,
  type ChunklogSystemUIPart,
  type ChunklogToolProgressData,
  type ChunklogToolProgressUIPart,
  type ChunklogUIDataTypes,
  isChunklogErrorPart,
  isChunklogSystemPart,
  isChunklogToolProgressPart,
} from './data-parts.js';
export { UI_MESSAGE_ENVELOPE } from './envelope.js';
export { fromUIMessages, type TurnDrafts, turnDrafts } from './from-ui-messages.js';
export { storedTurnUIMessageChunks } from './stored-turn-stream.js';
export { type ToUIMessageStreamOptions, toUIMessageStream } from './to-ui-message-stream.js';
export {
  type ToUIMessageStreamResponseOptions,
  toUIMessageStreamResponse,
} from './to-ui-message-stream-response.js';
export { toUIMessage, toUIMessages } from './to-ui-messages.js';
export { type ChunkList, chunkList, UIChunkDiffer } from './ui-chunk-differ.js';
export {
  type FromUIMessagesOptions,
  uiMessagesToChatMessages,
} from './ui-messages-to-chat-messages.js';
export type { UIMessageSchemas } from './validate-ui-messages.js';

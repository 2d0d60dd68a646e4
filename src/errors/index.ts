export {
  ChunklogError,
  type ChunklogErrorCode,
  type ChunklogErrorDetails,
  type ChunklogErrorOptions,
  type SafeResult,
} from './chunklog-error.js';

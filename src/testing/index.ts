/**
 * chunklog/testing: helpers for testing code built on chunklog, and the store conformance kit
 * (which needs vitest).
 *
 * @packageDocumentation
 */
export {
  type ChunkStoreConformanceOptions,
  type ChunkStoreFactory,
  describeChunkStore,
  sampleDrafts,
  textDrafts,
} from './store-conformance.js';

/**
 * chunklog/testing: helpers for testing code built on chunklog, and the store conformance kit
 * (written for vitest, which it is given rather than imports).
 *
 * @packageDocumentation
 */
export {
  type ChunkStoreConformanceOptions,
  type ChunkStoreFactory,
  type ConformanceAssertion,
  type ConformanceTestApi,
  describeChunkStore,
  sampleDrafts,
  textDrafts,
} from './store-conformance.js';

/**
 * chunklog/testing: helpers for testing code built on chunklog, and the store conformance kit
 * (written for vitest, which it is given rather than imports).
 *
 * @packageDocumentation
 */
export { parseScript } from './parse-script.js';
export type {
  Script,
  ScriptEntry,
  ScriptedDelay,
  ScriptedFailure,
  ScriptedFinishReason,
  ScriptedPart,
  ScriptedRawPart,
  ScriptedReasoning,
  ScriptedRedactedReasoning,
  ScriptedStep,
  ScriptedStepFunction,
  ScriptedStreamError,
  ScriptedStreamThrow,
  ScriptedText,
  ScriptedToolCall,
  ScriptedToolResult,
  ScriptedUsage,
  ScriptedWait,
} from './script.js';
export {
  createScriptedModel,
  type ScriptedCall,
  type ScriptedModel,
  type ScriptedModelOptions,
} from './scripted-model.js';
export {
  type ChunkStoreConformanceOptions,
  type ChunkStoreFactory,
  type ConformanceAssertion,
  type ConformanceTestApi,
  describeChunkStore,
  sampleDrafts,
  textDrafts,
} from './store-conformance.js';

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

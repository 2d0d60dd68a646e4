export type {
  AssistantPart,
  ProviderOptions,
  ReasoningPart,
  ToolPart,
  ToolResultOutput,
  UserPart,
} from './ai-types.js';
export {
  ANTHROPIC_MAX_BREAKPOINTS,
  type AnthropicCachingOptions,
  anthropicCachedSystem,
  applyAnthropicCaching,
} from './anthropic-caching.js';
export { capToolResults, toolResultCutNote } from './cap-tool-results.js';
export {
  type ContextBudget,
  DEFAULT_CUT_TO,
  DEFAULT_KEEP_TURNS,
  describeCut,
  type KnownInputSize,
  type PlanModelInputOptions,
  type PlannedModelInput,
  planModelInput,
  SUMMARY_HEADING,
} from './context-budget.js';
export {
  type ForeignReasoning,
  type ToModelMessagesOptions,
  UNANSWERED_TOOL_CALL_TEXT,
} from './options.js';
export { toModelMessages } from './to-model-messages.js';
export {
  ESTIMATE_CHARS_PER_TOKEN,
  ESTIMATE_TOKENS_PER_FILE,
  ESTIMATE_TOKENS_PER_MESSAGE,
  estimateTokens,
  type TokenCounter,
} from './token-estimate.js';

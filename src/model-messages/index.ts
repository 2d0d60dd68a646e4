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
export {
  type ForeignReasoning,
  type ToModelMessagesOptions,
  UNANSWERED_TOOL_CALL_TEXT,
} from './options.js';
export { toModelMessages } from './to-model-messages.js';

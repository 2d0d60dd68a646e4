// Part types of the AI SDK's ModelMessage, derived from the types `ai` exports (type-only: the
// core never imports `ai` at runtime).
import type { AssistantContent, TextPart, ToolContent, ToolResultPart, UserContent } from 'ai';

/** One part of an assistant message's content. */
export type AssistantPart = Exclude<AssistantContent, string>[number];
/** One part of a tool message's content (a result or an approval response). */
export type ToolPart = ToolContent[number];
/** One part of a user message's content. */
export type UserPart = Exclude<UserContent, string>[number];
/** The AI SDK's reasoning prompt part. */
export type ReasoningPart = Extract<AssistantPart, { type: 'reasoning' }>;
/** The AI SDK's tool result output (`text`, `json`, `error-text`, `execution-denied`, …). */
export type ToolResultOutput = ToolResultPart['output'];
/** Provider options on a prompt part. */
export type ProviderOptions = NonNullable<TextPart['providerOptions']>;

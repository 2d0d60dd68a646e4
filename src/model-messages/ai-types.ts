// Part types of the AI SDK's ModelMessage, derived from the types `ai` exports (type-only: the
// core never imports `ai` at runtime).
import type { AssistantContent, TextPart, ToolContent, ToolResultPart, UserContent } from 'ai';

/**
 * One part of an assistant message's content.
 *
 * @example
 * ```ts
 * const part: AssistantPart = { type: 'reasoning', text: '…', providerOptions: { anthropic: { signature } } };
 * ```
 */
export type AssistantPart = Exclude<AssistantContent, string>[number];
/**
 * One part of a tool message's content (a result or an approval response).
 *
 * @example
 * ```ts
 * const part: ToolPart = { type: 'tool-result', toolCallId: 'c1', toolName: 'read', output: { type: 'text', value: 'ok' } };
 * ```
 */
export type ToolPart = ToolContent[number];
/**
 * One part of a user message's content.
 *
 * @example
 * ```ts
 * const part: UserPart = { type: 'file', data: base64, mediaType: 'image/png' };
 * ```
 */
export type UserPart = Exclude<UserContent, string>[number];
/**
 * The AI SDK's reasoning prompt part.
 *
 * @example
 * ```ts
 * const part: ReasoningPart = { type: 'reasoning', text: 'Let me check.' };
 * ```
 */
export type ReasoningPart = Extract<AssistantPart, { type: 'reasoning' }>;
/**
 * The AI SDK's tool result output (`text`, `json`, `error-text`, `execution-denied`, …).
 *
 * @example
 * ```ts
 * const output: ToolResultOutput = { type: 'error-text', value: UNANSWERED_TOOL_CALL_TEXT };
 * ```
 */
export type ToolResultOutput = ToolResultPart['output'];
/**
 * Provider options on a prompt part.
 *
 * @example
 * ```ts
 * const options: ProviderOptions = { anthropic: { cacheControl: { type: 'ephemeral' } } };
 * ```
 */
export type ProviderOptions = NonNullable<TextPart['providerOptions']>;

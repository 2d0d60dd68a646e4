import { ChunklogError } from '../errors/chunklog-error.js';
import type { ToolCallEntry } from '../schema/chunk.js';
import type { ToolResultOutput } from './ai-types.js';
import type { ContextBudget } from './context-budget.js';

/**
 * The text of the error result {@link toModelMessages} gives a tool call that never got a result
 * (the turn was cancelled or crashed while it ran), so that no provider rejects the request.
 * Sent as an `error-text` output unless `unansweredToolResult` overrides it.
 *
 * @example
 * ```ts
 * toModelMessages(history, { unansweredToolResult: `${UNANSWERED_TOOL_CALL_TEXT} Retry if needed.` });
 * ```
 */
export const UNANSWERED_TOOL_CALL_TEXT: string =
  'The tool call was interrupted before it returned a result (the turn was cancelled or failed); its outcome is unknown.';

/**
 * What to do with reasoning made by another model than the one the request goes to.
 *
 * @example
 * ```ts
 * toModelMessages(history, { targetModelId: 'gpt-5', foreignReasoning: 'strip' satisfies ForeignReasoning });
 * ```
 */
export type ForeignReasoning = 'omit' | 'strip';

/**
 * Options of {@link toModelMessages}.
 *
 * @example
 * ```ts
 * const options: ToModelMessagesOptions = { targetModelId: 'claude-sonnet-4-5', pendingApprovals: 'keep' };
 * ```
 */
export interface ToModelMessagesOptions {
  /**
   * The model the messages are for. A thinking chunk recorded with another `modelId` is foreign:
   * its signature would be rejected (see `foreignReasoning`). An alias matches its dated
   * snapshots, which is what a stream records: `'gpt-5-nano'` matches `gpt-5-nano-2025-08-07`,
   * `'claude-sonnet-4-5'` matches `claude-sonnet-4-5-20250929`. Thinking with no recorded model
   * is trusted unless a `model-changed` notice follows it.
   */
  readonly targetModelId?: string | undefined;
  /**
   * Foreign reasoning (recorded for another model than `targetModelId`, or anywhere before the
   * last `model-changed` system chunk): `'omit'` (default) leaves it out; `'strip'` sends its
   * text as a reasoning part without provider metadata (no signature, no redacted data, no
   * encrypted content). A stripped part with no text is left out.
   */
  readonly foreignReasoning?: ForeignReasoning | undefined;
  /** The error text given to a tool call that never got a result. Default {@link UNANSWERED_TOOL_CALL_TEXT}. */
  readonly unansweredToolResult?: string | undefined;
  /**
   * Tool calls still awaiting approval at the very end of the history: `'error'` (default) gives
   * them the unanswered error result like any other call; `'keep'` leaves them without a result
   * (assistant message ends with the call and its `tool-approval-request`) so the caller can append
   * a `tool-approval-response`, as with the AI SDK's own response messages. Pending calls anywhere
   * earlier always get the error result. A provider-executed call awaiting an approval the provider
   * asked for (an MCP tool) is kept only with `'keep'`, at the end; otherwise it is left out.
   */
  readonly pendingApprovals?: 'error' | 'keep' | undefined;
  /**
   * Maps a call's stored result to the output sent to the model (the synchronous counterpart of a
   * tool's `toModelOutput`). Called for successful local results only; returning undefined uses the
   * default: a string result as `text`, anything else as `json`.
   */
  readonly toolResultOutput?: ((call: ToolCallEntry) => ToolResultOutput | undefined) | undefined;
  /**
   * A token budget: whole oldest turns are left out when the input would exceed it, from the
   * latest `context-truncated` system chunk in `messages` on (see `planModelInput`, which also
   * returns the cut to record). Each tool result can be capped with `maxToolResultChars`.
   */
  readonly contextBudget?: ContextBudget | undefined;
}

/** Options after validation, with defaults filled in. */
export interface ResolvedOptions {
  readonly targetModelId: string | undefined;
  readonly foreignReasoning: ForeignReasoning;
  readonly unansweredToolResult: string;
  readonly pendingApprovals: 'error' | 'keep';
  readonly toolResultOutput: ((call: ToolCallEntry) => ToolResultOutput | undefined) | undefined;
}

const KNOWN = new Set([
  'targetModelId',
  'foreignReasoning',
  'unansweredToolResult',
  'pendingApprovals',
  'toolResultOutput',
  'contextBudget',
]);

function bad(option: string, message: string, value: unknown): never {
  throw new ChunklogError('invalid-option', `toModelMessages: ${message}`, { option, value });
}

/**
 * Validates {@link ToModelMessagesOptions} and fills in defaults.
 *
 * @throws {ChunklogError} `invalid-option`, naming the option
 */
export function resolveOptions(options: ToModelMessagesOptions | undefined): ResolvedOptions {
  if (options === undefined) {
    return {
      targetModelId: undefined,
      foreignReasoning: 'omit',
      unansweredToolResult: UNANSWERED_TOOL_CALL_TEXT,
      pendingApprovals: 'error',
      toolResultOutput: undefined,
    };
  }
  if (options === null || typeof options !== 'object')
    bad('options', 'options must be an object', options);
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key))
      bad(key, `unknown option \`${key}\``, (options as Record<string, unknown>)[key]);
  }
  const {
    targetModelId,
    foreignReasoning,
    unansweredToolResult,
    pendingApprovals,
    toolResultOutput,
  } = options;
  if (targetModelId !== undefined && (typeof targetModelId !== 'string' || targetModelId === '')) {
    bad('targetModelId', '`targetModelId` must be a non-empty string', targetModelId);
  }
  if (
    foreignReasoning !== undefined &&
    foreignReasoning !== 'omit' &&
    foreignReasoning !== 'strip'
  ) {
    bad('foreignReasoning', "`foreignReasoning` must be 'omit' or 'strip'", foreignReasoning);
  }
  if (unansweredToolResult !== undefined && typeof unansweredToolResult !== 'string') {
    bad('unansweredToolResult', '`unansweredToolResult` must be a string', unansweredToolResult);
  }
  if (
    pendingApprovals !== undefined &&
    pendingApprovals !== 'error' &&
    pendingApprovals !== 'keep'
  ) {
    bad('pendingApprovals', "`pendingApprovals` must be 'error' or 'keep'", pendingApprovals);
  }
  if (toolResultOutput !== undefined && typeof toolResultOutput !== 'function') {
    bad('toolResultOutput', '`toolResultOutput` must be a function', toolResultOutput);
  }
  return {
    targetModelId,
    foreignReasoning: foreignReasoning ?? 'omit',
    unansweredToolResult: unansweredToolResult ?? UNANSWERED_TOOL_CALL_TEXT,
    pendingApprovals: pendingApprovals ?? 'error',
    toolResultOutput,
  };
}

// The named differences between chunklog's model input and the AI SDK's own response messages,
// each listed in docs/model-input.md ("Where chunklog differs from the AI SDK") with its reason.
// Each turns the AI SDK's history into what chunklog sends, so that a test can show the
// difference exists and that nothing else differs.
import type { ModelMessage, TextStreamPart, ToolSet } from 'ai';
import { UNANSWERED_TOOL_CALL_TEXT } from '../../../src/index.js';

/** The name of a listed difference. */
export type DifferenceName = 'preliminary-result-kept-once' | 'unanswered-call-answered';

/**
 * OpenAI/Azure image generation: the provider marks the partial image `preliminary`; the AI SDK's
 * response messages drop that flag and hold the call's result twice (the partial image, then the
 * final one). chunklog keeps the latest preliminary output apart (`preliminary`) and sends the
 * result once. Returns the AI SDK's messages with the preliminary results left out, or undefined
 * when the run streamed none.
 */
function withoutPreliminaryResults(
  parts: readonly TextStreamPart<ToolSet>[],
  messages: readonly ModelMessage[],
): ModelMessage[] | undefined {
  // `streamText` passes the provider's preliminary results on without the flag: a call with
  // several results had preliminary ones, all but its last.
  const preliminary = new Map<string, number>();
  for (const part of parts) {
    if (part.type === 'tool-result' && part.providerExecuted === true) {
      preliminary.set(part.toolCallId, (preliminary.get(part.toolCallId) ?? -1) + 1);
    }
  }
  for (const [id, count] of preliminary) if (count === 0) preliminary.delete(id);
  if (preliminary.size === 0) return undefined;
  return messages.map((message) => {
    if (message.role !== 'assistant' || typeof message.content === 'string') return message;
    const content = message.content.filter((part) => {
      if (part.type !== 'tool-result') return true;
      const left = preliminary.get(part.toolCallId) ?? 0;
      if (left === 0) return true;
      preliminary.set(part.toolCallId, left - 1);
      return false;
    });
    return { ...message, content };
  });
}

/**
 * A local call that never got a result (its stream failed): the AI SDK refuses its own response
 * messages (`MissingToolResultsError`); chunklog answers the call with an explicit error result.
 * Returns the AI SDK's messages with that answer added, or undefined when every call has one.
 */
function withUnansweredCallsAnswered(
  messages: readonly ModelMessage[],
): ModelMessage[] | undefined {
  const answered = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result') answered.add(part.toolCallId);
  }
  const out: ModelMessage[] = [];
  let added = false;
  for (const message of messages) {
    out.push(message);
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    const missing = message.content.filter(
      (part) =>
        part.type === 'tool-call' &&
        part.providerExecuted !== true &&
        !answered.has(part.toolCallId),
    );
    if (missing.length === 0) continue;
    added = true;
    out.push({
      role: 'tool',
      content: missing.map((part) => ({
        type: 'tool-result' as const,
        toolCallId: (part as { toolCallId: string }).toolCallId,
        toolName: (part as { toolName: string }).toolName,
        output: { type: 'error-text' as const, value: UNANSWERED_TOOL_CALL_TEXT },
      })),
    });
  }
  return added ? out : undefined;
}

/** The AI SDK's history as chunklog sends it under a listed difference, or undefined if none applies. */
export function listedDifference(
  parts: readonly TextStreamPart<ToolSet>[],
  messages: readonly ModelMessage[],
): { name: DifferenceName; messages: ModelMessage[] } | undefined {
  const once = withoutPreliminaryResults(parts, messages);
  if (once !== undefined) return { name: 'preliminary-result-kept-once', messages: once };
  const answered = withUnansweredCallsAnswered(messages);
  if (answered !== undefined) return { name: 'unanswered-call-answered', messages: answered };
  return undefined;
}

// The prompt a model receives for some messages: `streamText` over a mock model, which records
// the call. Comparing prompts (not ModelMessages) is what matters: two message lists that differ
// only in ways the AI SDK normalizes away send the same request.
import type { LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';
import { type ModelMessage, streamText, type ToolSet } from 'ai';
import { scriptedModel, text } from './model-script.js';

/**
 * The prompt `streamText` sends the model for `messages`, followed by one more user message (the
 * next turn's), so that any history makes a valid call.
 *
 * @param messages - the conversation so far
 * @param tools - the tools the call declares
 */
export async function capturePrompt(
  messages: ModelMessage[],
  tools?: ToolSet,
): Promise<LanguageModelV4Prompt> {
  const model = scriptedModel([{ parts: text('t', 'ok') }]);
  let failure: unknown;
  const result = streamText({
    model,
    messages: [...messages, { role: 'user', content: 'next' }],
    maxRetries: 0,
    ...(tools === undefined ? {} : { tools }),
    onError: ({ error }) => {
      failure = error;
    },
  });
  await result.consumeStream();
  if (failure !== undefined) throw failure;
  const call = model.doStreamCalls[0];
  if (call === undefined) throw new Error('the model was not called');
  return withoutUndefined(call.prompt);
}

/**
 * `value` without its `undefined` members (which no provider sends), other values untouched: two
 * prompts that differ only there are the same request.
 *
 * @param value - a prompt, or part of one
 */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  if (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, withoutUndefined(v)]),
    ) as T;
  }
  return value;
}

function executionDenied(reason: string | undefined): LanguageModelV4ToolResultOutput {
  return reason === undefined
    ? { type: 'execution-denied' as const }
    : { type: 'execution-denied' as const, reason };
}

/**
 * `prompt` with the results of denied calls as the model saw them when they were denied.
 *
 * `convertToModelMessages` turns an `output-denied` tool part into an `error-text` result (the
 * denial's reason, or "Tool call execution denied."), but the request that carried the denial sent
 * the model `execution-denied`, and chunklog keeps sending that. This rewrites the former into the
 * latter, so that the rest of two prompts can be compared exactly.
 *
 * @param prompt - a captured prompt
 * @param denied - the ids of the denied calls, with the denial's reason
 */
export function asSentWhenDenied(
  prompt: LanguageModelV4Prompt,
  denied: ReadonlyMap<string, string | undefined>,
): LanguageModelV4Prompt {
  return prompt.map((message) =>
    message.role !== 'tool'
      ? message
      : {
          ...message,
          content: message.content.map((part) =>
            part.type === 'tool-result' && denied.has(part.toolCallId)
              ? { ...part, output: executionDenied(denied.get(part.toolCallId)) }
              : part,
          ),
        },
  );
}

// The prompt a model receives for some messages: `streamText` over a mock model, which records
// the call. Comparing prompts (not ModelMessages) is what matters: two message lists that differ
// only in ways the AI SDK normalizes away send the same request.
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { type ModelMessage, streamText, type ToolSet } from 'ai';
import { scriptedModel, text } from './model-script.js';

/**
 * The prompt `streamText` sends the model for `messages`.
 *
 * @param messages - the conversation
 * @param tools - the tools the call declares
 */
export async function capturePrompt(
  messages: ModelMessage[],
  tools?: ToolSet,
): Promise<LanguageModelV4Prompt> {
  const model = scriptedModel([{ parts: text('t', 'ok') }]);
  const result = streamText({ model, messages, ...(tools === undefined ? {} : { tools }) });
  await result.consumeStream();
  const call = model.doStreamCalls[0];
  if (call === undefined) throw new Error('the model was not called');
  return call.prompt;
}

import { convertToModelMessages } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toModelMessages } from '../../src/model-messages/index.js';
import type { ChatMessage, Chunk, ToolCallEntry } from '../../src/schema/index.js';
import { toUIMessages } from '../../src/ui-messages/index.js';
import { chatThread } from './arbitraries.js';
import { asSentWhenDenied, capturePrompt } from './support/capture-prompt.js';

/** Known differences, outside this property (notes/0011-ui-message-interop.md, 7). */
function known(chunk: Chunk): Chunk | undefined {
  if (chunk.type === 'system') return undefined;
  if (chunk.type === 'steering' && chunk.text === '') return { ...chunk, text: 'steer' };
  if (chunk.type === 'text' && chunk.text === '') return { ...chunk, text: 'text' };
  if (chunk.type === 'tool-batch') return { ...chunk, calls: chunk.calls.map(answered) };
  return chunk;
}

/**
 * A call with its outcome. An unanswered call is where the two differ by design: chunklog sends
 * an explicit error result for it, the AI SDK refuses the history (MissingToolResultsError).
 */
function answered(entry: ToolCallEntry): ToolCallEntry {
  // A call's metadata goes on its result from both, as the AI SDK's loop sends it, except on a
  // denial's, where convertToModelMessages puts it and the loop does not (notes/0011 §7, 3).
  const { providerMetadata: _m, ...call } = entry;
  // The approval of a provider-executed call is answered in the tool message by both (notes/0011
  // §7, 4), but the loop puts a step's answers before its results and convertToModelMessages
  // puts each answer at its call: the order differs, so these are left out here.
  if (call.providerExecuted === true && call.approval !== undefined) {
    delete (call as { providerExecuted?: unknown }).providerExecuted;
  }
  // convertToModelMessages gives an errored call without metadata of its own its result's (the
  // loop sends the call's): the result's metadata of an error is left out here.
  if (call.isError === true)
    delete (call as { resultProviderMetadata?: unknown }).resultProviderMetadata;
  // convertToModelMessages reads an errored call's input with `??`: a null input goes missing.
  if (call.isError === true && call.input === null) return { ...call, input: {} };
  if (call.result !== undefined) return call;
  const { inputText: _t, preliminary: _p, approval, ...rest } = call;
  return {
    ...rest,
    input: call.input ?? {},
    result: 'done',
    ...(approval?.approved === true ? { approval } : {}),
  };
}

/** A user message the model can read: the AI SDK sends even one of only data parts, empty. */
function readable(message: ChatMessage): ChatMessage {
  if (
    message.role !== 'user' ||
    message.chunks.some((c) => c.type === 'text' || c.type === 'file')
  ) {
    return message;
  }
  return { ...message, chunks: [...message.chunks, { type: 'text', step: 0, text: 'hello' }] };
}

/** The denied calls of a history, with the reason of each denial. */
function deniedCalls(messages: readonly ChatMessage[]): Map<string, string | undefined> {
  const denied = new Map<string, string | undefined>();
  for (const chunk of messages.flatMap((m) => m.chunks)) {
    if (chunk.type !== 'tool-batch') continue;
    for (const call of chunk.calls)
      if (call.denied === true) denied.set(call.id, call.approval?.reason);
  }
  return denied;
}

/** The user message of the next turn, after the history. */
const next: ChatMessage = {
  id: 'next:user',
  turnId: 'next',
  role: 'user',
  chunks: [{ type: 'text', step: 0, text: 'And now?' }],
};

const withoutSystem = chatThread.map((messages): ChatMessage[] => [
  ...messages
    .filter((m) => m.role !== 'system')
    .map((m) => readable({ ...m, chunks: m.chunks.flatMap((c) => known(c) ?? []) })),
  next,
]);

describe('the model input of a history without system chunks', () => {
  it('is the same from convertToModelMessages(toUIMessages(m)) as from toModelMessages(m)', async () => {
    await fc.assert(
      fc.asyncProperty(withoutSystem, async (messages) => {
        const ours = await capturePrompt(toModelMessages(messages));
        const theirs = await capturePrompt(await convertToModelMessages(toUIMessages(messages)));
        expect(ours).toStrictEqual(asSentWhenDenied(theirs, deniedCalls(messages)));
      }),
      { numRuns: 200 },
    );
  });
});

// Scripted model calls for MockLanguageModelV4: each step is a list of stream parts, wrapped with
// stream-start and finish.
import type { LanguageModelV4StreamPart, LanguageModelV4StreamResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** One model call: its content parts, and why it finished. */
export interface ScriptedStep {
  readonly parts: LanguageModelV4StreamPart[];
  readonly finish?: 'stop' | 'tool-calls' | undefined;
}

function result(step: ScriptedStep): LanguageModelV4StreamResult {
  const parts: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    ...step.parts,
    {
      type: 'finish',
      usage,
      finishReason: { unified: step.finish ?? 'stop', raw: step.finish ?? 'stop' },
    },
  ];
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/**
 * A mock model answering its calls with the scripted steps in order; `doStreamCalls` records the
 * prompt of each call.
 *
 * @param steps - one entry per model call
 */
export function scriptedModel(steps: readonly ScriptedStep[]): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    // The model takes every URL as it is: no download in tests.
    supportedUrls: { '*': [/^https?:/] },
    doStream: async () => {
      const step = steps[Math.min(call, steps.length - 1)] as ScriptedStep;
      call++;
      return result(step);
    },
  });
}

/** Text as one block. */
export function text(id: string, value: string): LanguageModelV4StreamPart[] {
  return [
    { type: 'text-start', id },
    { type: 'text-delta', id, delta: value },
    { type: 'text-end', id },
  ];
}

/** Reasoning as one block, with a signature in its metadata. */
export function reasoning(
  id: string,
  value: string,
  signature: string,
): LanguageModelV4StreamPart[] {
  return [
    { type: 'reasoning-start', id },
    { type: 'reasoning-delta', id, delta: value },
    {
      type: 'reasoning-end',
      id,
      providerMetadata: { anthropic: { signature } },
    },
  ];
}

/** A complete tool call. */
export function toolCall(
  toolCallId: string,
  toolName: string,
  input: unknown,
): LanguageModelV4StreamPart {
  return { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) };
}

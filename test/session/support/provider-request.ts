// The request body the real `@ai-sdk/anthropic` and `@ai-sdk/openai` (Responses) providers build
// for a model input, captured by a custom `fetch` (nothing reaches the network), and the tool calls
// such a body leaves unanswered.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { type LanguageModel, type ModelMessage, streamText, type ToolSet } from 'ai';
import { expect } from 'vitest';

/** The body the provider's request builder makes for `messages` (the request is not sent). */
export async function requestBody(
  provider: 'anthropic' | 'openai',
  messages: ModelMessage[],
  tools: ToolSet,
): Promise<Record<string, unknown>> {
  const bodies = await requestBodies(provider, messages, tools);
  expect(bodies).toHaveLength(1);
  return bodies[0] as Record<string, unknown>;
}

/** The bodies the provider sends for `messages`: none when the input is refused before. */
export async function requestBodies(
  provider: 'anthropic' | 'openai',
  messages: ModelMessage[],
  tools: ToolSet,
): Promise<unknown[]> {
  const bodies: unknown[] = [];
  const fetch = (async (_url: unknown, init?: { body?: unknown }) => {
    bodies.push(JSON.parse(String(init?.body)));
    return new Response(JSON.stringify({ error: { message: 'not sent' } }), { status: 400 });
  }) as typeof globalThis.fetch;
  const model: LanguageModel =
    provider === 'openai'
      ? createOpenAI({ apiKey: 'test-key', fetch }).responses('gpt-5-test')
      : createAnthropic({ apiKey: 'test-key', fetch })('claude-test');
  await streamText({ model, messages, tools, maxRetries: 0, onError: () => {} }).consumeStream();
  return bodies;
}

export type Block = { type: string; id?: string; tool_use_id?: string; call_id?: string };

/** Anthropic: every tool_use is answered by a tool_result in the next (user) message. */
export function anthropicOrphans(body: Record<string, unknown>): string[] {
  const messages = body.messages as Array<{ role: string; content: string | Block[] }>;
  const orphans: string[] = [];
  messages.forEach((message, i) => {
    if (message.role !== 'assistant' || typeof message.content === 'string') return;
    const next = messages[i + 1];
    const answered = new Set(
      next === undefined || typeof next.content === 'string'
        ? []
        : next.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id),
    );
    for (const block of message.content) {
      if (block.type === 'tool_use' && !answered.has(block.id)) orphans.push(block.id as string);
    }
  });
  return orphans;
}

/** OpenAI Responses: every function_call has a function_call_output after it. */
export function openaiOrphans(body: Record<string, unknown>): string[] {
  const input = body.input as Block[];
  const orphans: string[] = [];
  input.forEach((item, i) => {
    if (item.type !== 'function_call') return;
    const answered = input
      .slice(i + 1)
      .some((later) => later.type === 'function_call_output' && later.call_id === item.call_id);
    if (!answered) orphans.push(item.call_id as string);
  });
  return orphans;
}

/**
 * Sends `messages` through both providers' request builders and returns the unanswered calls
 * each body holds (none when the input is one a provider accepts), and how many calls it holds.
 */
export async function orphansInBodies(
  messages: ModelMessage[],
  tools: ToolSet,
): Promise<{ anthropic: string[]; openai: string[]; calls: number[] }> {
  const anthropic = await requestBody('anthropic', messages, tools);
  const openai = await requestBody('openai', messages, tools);
  return {
    anthropic: anthropicOrphans(anthropic),
    openai: openaiOrphans(openai),
    calls: [
      (JSON.stringify(anthropic).match(/"type":"tool_use"/g) ?? []).length,
      (openai.input as Block[]).filter((b) => b.type === 'function_call').length,
    ],
  };
}

// Multi-step agent turns through the real @ai-sdk/anthropic provider with applyAnthropicCaching on
// every step, and the checks every sequence of their request bodies must pass.
import {
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  streamText,
  tool,
} from 'ai';
import { expect } from 'vitest';
import {
  ANTHROPIC_MAX_BREAKPOINTS,
  anthropicCachedSystem,
  applyAnthropicCaching,
} from '../../../src/index.js';
import {
  cacheSegments,
  prefixUpTo,
  type ScriptedBlock,
  withoutCacheControl,
} from './anthropic-script.js';

export const cacheTools = {
  read: tool({
    inputSchema: jsonSchema<{ path: string }>({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    }),
    execute: async ({ path }) => `contents of ${path}`,
  }),
  list: tool({
    inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
    execute: async () => ['a.ts', 'b.ts'],
  }),
};

/** Four steps of an agent turn: thinking with signatures, text, parallel calls, an answer. */
export const stepScripts: ScriptedBlock[][] = [
  [
    { type: 'thinking', text: 'First I list.', signature: 'SIG-1' },
    { type: 'tool_use', id: 'toolu_1', name: 'list', input: {} },
  ],
  [
    { type: 'thinking', text: 'Now read both.', signature: 'SIG-2' },
    { type: 'text', text: 'Reading both files.' },
    { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: 'a.ts' } },
    { type: 'tool_use', id: 'toolu_3', name: 'read', input: { path: 'b.ts' } },
  ],
  [
    { type: 'thinking', text: 'And one more.', signature: 'SIG-3' },
    { type: 'tool_use', id: 'toolu_4', name: 'read', input: { path: 'c.ts' } },
  ],
  [{ type: 'text', text: 'All read.' }],
];

/** One turn of at most `steps` steps; every step's request goes through applyAnthropicCaching. */
export function cachedTurn(model: LanguageModel, messages: ModelMessage[], steps: number) {
  return streamText({
    model,
    system: anthropicCachedSystem('You are a careful coding agent.'),
    messages: applyAnthropicCaching(messages),
    tools: cacheTools,
    maxOutputTokens: 2048,
    providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
    stopWhen: stepCountIs(steps),
    prepareStep: ({ messages: stepMessages }) => ({
      messages: applyAnthropicCaching(stepMessages),
    }),
  });
}

/** Runs a turn and returns the history after it (the AI SDK's own response messages appended). */
export async function runTurn(
  model: LanguageModel,
  messages: ModelMessage[],
  steps: number,
): Promise<ModelMessage[]> {
  const result = cachedTurn(model, messages, steps);
  await result.consumeStream();
  return [...messages, ...(await result.responseMessages)];
}

export type Segments = ReturnType<typeof cacheSegments>;

/** How many `cache_control` markers a request carries. */
export function breakpointCount(body: Record<string, unknown>): number {
  return (JSON.stringify(body).match(/"cache_control"/g) ?? []).length;
}

/**
 * Checks a sequence of consecutive request bodies: never more than four markers; the header
 * (tools, system, parameters) unchanged; the cached content (markers removed) up to every
 * breakpoint of a request identical in the next; a marker never moves to an older block (the next
 * request's markers are ones it kept plus new ones after everything the request sent). Returns
 * how many markers were dropped from one request to the next.
 */
export function expectStableCaching(bodies: ReadonlyArray<Record<string, unknown>>): number {
  for (const body of bodies) {
    expect(breakpointCount(body)).toBeLessThanOrEqual(ANTHROPIC_MAX_BREAKPOINTS);
  }
  const segments = bodies.map(cacheSegments);
  let dropped = 0;
  for (let k = 0; k + 1 < segments.length; k++) {
    const [now, next] = [segments[k], segments[k + 1]] as [Segments, Segments];
    expect(next.header).toBe(now.header);
    for (const at of now.marked) {
      expect(withoutCacheControl(prefixUpTo(next, at))).toBe(
        withoutCacheControl(prefixUpTo(now, at)),
      );
    }
    for (const at of next.marked) {
      expect(now.marked.includes(at) || at >= now.blocks.length - 1).toBe(true);
    }
    dropped += now.marked.filter((at) => !next.marked.includes(at)).length;
  }
  return dropped;
}

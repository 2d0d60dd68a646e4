// After either recovery policy (`close`, `continue`) of a turn a dead writer left with unanswered
// tool calls, the next model input rebuilt from the store goes through the real
// `@ai-sdk/anthropic` and `@ai-sdk/openai` (Responses) request builders, and the body they would
// send has no orphan call: every tool_use has its tool_result in the next message, every
// function_call its function_call_output after it. A custom `fetch` captures the body; nothing
// reaches the network.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ModelMessage, type ToolSet, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeInterruptedTurns, createAgentSession } from '../../src/entries/session.js';
import { toModelMessages } from '../../src/model-messages/index.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { storeInterruptedTurn } from './support/interrupted-turn.js';
import {
  anthropicOrphans,
  type Block,
  openaiOrphans,
  requestBodies,
  requestBody,
} from './support/provider-request.js';

const tools: ToolSet = {
  read_file: tool({
    description: 'Read a file',
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `// ${path}`,
  }),
  write_file: tool({
    description: 'Write a file',
    inputSchema: z.object({ path: z.string(), text: z.string().optional() }),
    execute: async () => 'written',
  }),
};

let dir: string;
let store: ChunkStore;
beforeAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
  dir = mkdtempSync(join(tmpdir(), 'chunklog-recovery-input-'));
  store = createChunkStore({ sqlite: join(dir, 'thread.db') });
  await store.migrate();
});
afterAll(async () => {
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = undefined;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The next model input of a thread, with the user's next message. */
async function nextInput(threadId: string): Promise<ModelMessage[]> {
  const messages = toModelMessages(await store.getMessages(threadId));
  return [...messages, { role: 'user', content: 'And now?' }];
}

async function checkBothProviders(threadId: string, calls: number): Promise<void> {
  const input = await nextInput(threadId);
  const anthropic = await requestBody('anthropic', input, tools);
  const toolUses = JSON.stringify(anthropic).match(/"type":"tool_use"/g) ?? [];
  expect(toolUses).toHaveLength(calls);
  expect(anthropicOrphans(anthropic)).toEqual([]);
  const openai = await requestBody('openai', input, tools);
  const functionCalls = (openai.input as Block[]).filter((b) => b.type === 'function_call');
  expect(functionCalls).toHaveLength(calls);
  expect(openaiOrphans(openai)).toEqual([]);
}

describe('the next model input after recovery goes through the real request builders', () => {
  it('without recovery, the stored calls are orphans: the input is refused, and the checks find them', async () => {
    await storeInterruptedTurn(store, 'raw');
    const calls = (await store.getRows('raw')).flatMap((row) =>
      row.type === 'tool_call'
        ? [
            {
              type: 'tool-call' as const,
              toolCallId: row.data.id,
              toolName: row.data.name,
              input: row.data.input,
            },
          ]
        : [],
    );
    expect(calls.map((c) => c.toolCallId)).toEqual(['c1', 'c2']);
    // The stored calls as raw model messages, without the repair `toModelMessages` does.
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Copy a.ts to b.ts' },
      { role: 'assistant', content: calls },
      { role: 'user', content: 'And now?' },
    ];
    // The AI SDK refuses an input with unanswered calls before the provider builds a request.
    expect(await requestBodies('anthropic', messages, tools)).toEqual([]);
    expect(await requestBodies('openai', messages, tools)).toEqual([]);
    // The body checks find such calls.
    const toolUse = { type: 'tool_use', id: 'c1' };
    expect(
      anthropicOrphans({
        messages: [
          { role: 'assistant', content: [toolUse] },
          { role: 'user', content: 'And now?' },
        ],
      }),
    ).toEqual(['c1']);
    expect(
      openaiOrphans({ input: [{ type: 'function_call', call_id: 'c2' }, { role: 'user' }] }),
    ).toEqual(['c2']);
  });

  it("after 'close'", async () => {
    await storeInterruptedTurn(store, 'closed');
    await closeInterruptedTurns(store, 'closed');
    expect(await store.getTurnInfo('closed', 'turn-1')).toMatchObject({ status: 'interrupted' });
    await checkBothProviders('closed', 2);
  });

  it("after 'continue' (one call re-run, one answered with an error, then a new step with a call)", async () => {
    await storeInterruptedTurn(store, 'continued');
    const session = createAgentSession({
      store,
      threadId: 'continued',
      model: createScriptedModel([
        {
          parts: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool-call', toolName: 'read_file', input: { path: 'b.ts' } },
          ],
        },
        { parts: [{ type: 'text', text: 'Copied.' }] },
      ]),
      tools,
      recovery: { policy: 'continue', rerunTools: ['read_file'] },
    });
    const [result] = await session.resumeInterruptedTurns();
    await session.close();
    expect(result?.outcome).toBe('completed');
    await checkBothProviders('continued', 3);
  });
});

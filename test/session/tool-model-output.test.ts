// A tool's `toModelOutput` decides what the model is sent for its result, in the turn that ran it
// (the AI SDK's own steps) and in every later turn, rebuilt from the stored rows.
import { tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentSession } from '../../src/entries/session.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { openSqliteStore, sequentialIds } from './support.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The tool results of a prompt, as the model got them. */
function toolResults(prompt: readonly { role: string; content: unknown }[]): unknown[] {
  return prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content as Array<{ type: string; output?: unknown }>)
    .filter((part) => part.type === 'tool-result')
    .map((part) => part.output);
}

describe("a tool's toModelOutput", () => {
  it('maps its stored result in later turns, and after a restart, as the AI SDK did in its own turn', async () => {
    const opened = await openSqliteStore();
    cleanups.push(opened.dispose);
    const issues = tool({
      inputSchema: z.object({ project: z.string() }),
      execute: async ({ project }) => ({ project, issues: ['a', 'b'], raw: 'R'.repeat(50) }),
      toModelOutput: async ({ input, output }) => ({
        type: 'text' as const,
        value: `${input.project}: ${output.issues.join(',')}`,
      }),
    });
    const prompts: Array<readonly { role: string; content: unknown }[]> = [];
    const model = createScriptedModel((call, index) => {
      prompts.push(call.prompt);
      return index === 0
        ? { parts: [{ type: 'tool-call', toolName: 'issues', input: { project: 'web' } }] }
        : { parts: [{ type: 'text', text: `answer ${index}` }] };
    });
    const open = () =>
      createAgentSession({
        store: opened.store,
        threadId: 'mapped',
        model,
        tools: { issues },
        idGenerator: sequentialIds(),
      });
    const session = open();
    await session.send('first').rows;
    await session.send('second').rows;
    await session.close();
    const sentInItsTurn = toolResults(prompts[1] ?? []);
    expect(sentInItsTurn).toEqual([{ type: 'text', value: 'web: a,b' }]);
    expect(toolResults(prompts[2] ?? [])).toEqual(sentInItsTurn);

    const restarted = open();
    cleanups.push(() => restarted.close());
    expect(toolResults(await restarted.modelMessages({ text: 'third' }))).toEqual(sentInItsTurn);
    // The stored row keeps the tool's whole result: only what the model is sent is mapped.
    const rows = await opened.store.getRows('mapped');
    expect(JSON.stringify(rows)).toContain(`"raw":"${'R'.repeat(50)}"`);
  });

  it('is what the token budget counts: every input it measures holds the mapped result, never the stored one, so nothing is cut for it', async () => {
    const opened = await openSqliteStore();
    cleanups.push(opened.dispose);
    const fetchPage = tool({
      inputSchema: z.object({ url: z.string() }),
      // 60,000 characters stored (some 20,000 tokens); the model is sent one line.
      execute: async ({ url }) => ({ url, html: 'x'.repeat(60_000) }),
      toModelOutput: async ({ output }) => ({
        type: 'text' as const,
        value: `fetched ${output.url}`,
      }),
    });
    // Three turns of long answers, then a turn that fetches a page.
    const model = createScriptedModel((_call, index) =>
      index === 3
        ? { parts: [{ type: 'tool-call', toolName: 'fetchPage', input: { url: 'a.test' } }] }
        : {
            parts: [
              { type: 'text', text: index === 4 ? 'done' : `answer ${index} ${'y'.repeat(1_200)}` },
            ],
          },
    );
    const measured: string[] = [];
    const countTokens = (messages: readonly unknown[]) => {
      const json = JSON.stringify(messages);
      measured.push(json);
      return Math.ceil(json.length / 4);
    };
    // A provider that reports no usage: the budget measures the whole input itself.
    const store = Object.assign(Object.create(opened.store) as typeof opened.store, {
      getTurnUsage: async () => null,
    });
    const session = createAgentSession({
      store,
      threadId: 'budget',
      model,
      tools: { fetchPage },
      idGenerator: sequentialIds(),
      // Far above what the model is sent, far below the stored result.
      contextBudget: { maxTokens: 4_000, keepTurns: 1, countTokens },
    });
    cleanups.push(() => session.close());
    for (const text of ['one', 'two', 'three', 'four']) await session.send(text).rows;
    measured.length = 0;
    const next = await session.modelMessages({ text: 'five' });
    expect(toolResults(next)).toEqual([{ type: 'text', value: 'fetched a.test' }]);
    expect(measured.some((json) => json.includes('fetched a.test'))).toBe(true);
    expect(measured.filter((json) => json.includes('xxxxxxxxxx'))).toEqual([]);
    // Nothing was cut: the first turn is still sent, and no cut was recorded.
    expect(JSON.stringify(next[0])).toContain('one');
    const rows = await opened.store.getRows('budget');
    const cuts = rows.filter(
      (r) => r.type === 'system' && (r.data as { kind?: string }).kind === 'context-truncated',
    );
    expect(cuts).toEqual([]);
  });
});

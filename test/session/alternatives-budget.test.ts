// A context budget on a conversation with alternatives (issue 32): a cut made on one version of a
// turn is recorded (its `context-truncated` sentinel) on that version's path only; the sibling it
// replaced keeps its whole history, and its next model input holds every one of its turns.
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import type { ChunkRow } from '../../src/schema/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { openSqliteStore, sequentialIds } from './support.js';

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

function userTexts(prompt: LanguageModelV4Prompt): string[] {
  return prompt.flatMap((m) =>
    m.role === 'user' ? m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])) : [],
  );
}

const isSentinel = (r: ChunkRow) =>
  r.type === 'system' && (r.data as { kind?: string }).kind === 'context-truncated';

describe('a context budget on a conversation with alternatives', () => {
  it('a cut on one version is recorded on its path only; its sibling keeps every turn', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const prompts: LanguageModelV4Prompt[] = [];
    const model = createScriptedModel((call) => {
      prompts.push(call.prompt);
      const input = Math.ceil(JSON.stringify(call.prompt).length / 4);
      return {
        parts: [{ type: 'text', text: `Answer: ${'lorem ipsum '.repeat(8)}` }],
        usage: { input, output: 30 },
      };
    });
    const session = createAgentSession({
      store,
      threadId: 'chat',
      model,
      idGenerator: sequentialIds(),
      contextBudget: { maxTokens: 500, keepTurns: 2, cutTo: 0.5 },
    });
    const question = (n: number) => `Question ${n}: ${'why '.repeat(20)}?`;
    const turnIds: string[] = [];
    for (let n = 1; n <= 4; n++) turnIds.push((await session.send(question(n)).result).turnId);
    expect((await store.getRows('chat')).filter(isSentinel)).toEqual([]);
    // A new version of turn 4, then turns on it until the budget cuts.
    await session.regenerate(turnIds[3] as string).result;
    const version = await store.activePath('chat');
    expect(version).not.toBe('chat');
    for (let n = 5; n <= 12; n++) await session.send(question(n)).result;
    const versionRows = await store.getRows(version);
    expect(versionRows.filter(isSentinel).length).toBeGreaterThan(0);
    expect(userTexts(prompts.at(-1) as LanguageModelV4Prompt)[0]).not.toMatch(/^Question 1:/);
    // The original version: no sentinel, and its next turn sees all of its turns from the first.
    expect((await store.getRows('chat')).filter(isSentinel)).toEqual([]);
    await store.switchAlternative('chat', 'chat');
    await session.send(question(99)).result;
    const users = userTexts(prompts.at(-1) as LanguageModelV4Prompt);
    expect(users.map((u) => u.split(':')[0])).toEqual([
      'Question 1',
      'Question 2',
      'Question 3',
      'Question 4',
      'Question 99',
    ]);
    expect((await store.getRows('chat')).filter(isSentinel)).toEqual([]);
    await session.close();
  });
});

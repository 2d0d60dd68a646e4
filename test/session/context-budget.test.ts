// A session under a small token budget over 200 turns: cuts are recorded as context-truncated
// chunks in the turns where they happened, model input starts at the recorded first kept turn and
// otherwise grows by appending only (a stable cached prefix), sentinels never reach the model,
// usage totals equal the scripted model's reported usage, and the window shows the sentinels.
import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession, DEFAULT_COMPACTION_INSTRUCTIONS } from '../../src/entries/session.js';
import { SUMMARY_HEADING } from '../../src/model-messages/index.js';
import type { ContextTruncation } from '../../src/schema/context-truncation.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { ChunkWindow } from '../../src/window/index.js';
import { readFile } from './fixtures.js';
import { openSqliteStore, sequentialIds } from './support.js';

const disposers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
});

const TURNS = 200;
const BUDGET = 3000;

function userTexts(prompt: LanguageModelV4Prompt): string[] {
  const out: string[] = [];
  for (const message of prompt) {
    if (message.role !== 'user') continue;
    for (const part of message.content) if (part.type === 'text') out.push(part.text);
  }
  return out;
}

describe('a session under a token budget', () => {
  it('cuts whole oldest turns rarely, records each cut where it happened, and keeps usage', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const reported: Array<{ input: number; output: number }> = [];
    // The first prompt of each turn, by turn number.
    const firstPrompts = new Map<number, LanguageModelV4Prompt>();
    let turn = 0;
    let callsThisTurn = 0;
    const model = createScriptedModel(
      (call) => {
        callsThisTurn += 1;
        if (callsThisTurn === 1) firstPrompts.set(turn, call.prompt);
        const usage = {
          input: Math.ceil(JSON.stringify(call.prompt).length / 4),
          output: 30 + (turn % 7),
        };
        reported.push(usage);
        // Every fifth turn calls a tool first.
        if (turn % 5 === 0 && callsThisTurn === 1) {
          return {
            parts: [{ type: 'tool-call', toolName: 'read_file', input: { path: `f${turn}.ts` } }],
            usage,
          };
        }
        return {
          parts: [
            { type: 'text', text: `Answer ${turn}: ${'lorem ipsum '.repeat(10 + (turn % 13))}` },
          ],
          usage,
        };
      },
      { keepCalls: 4 },
    );
    const session = createAgentSession({
      store,
      threadId: 'budget',
      model,
      tools: { read_file: readFile },
      idGenerator: sequentialIds(),
      contextBudget: { maxTokens: BUDGET, keepTurns: 2, cutTo: 0.5 },
    });
    for (turn = 1; turn <= TURNS; turn++) {
      callsThisTurn = 0;
      const result = await session.send(`Question ${turn}: ${'why '.repeat(turn % 11)}?`).result;
      expect(result.outcome).toBe('completed');
    }
    await session.idle();

    // The sentinels, stored in the turns that made the cuts.
    const rows = await store.getRows('budget');
    const sentinels = rows.filter(
      (r) => r.type === 'system' && (r.data as { kind?: string }).kind === 'context-truncated',
    );
    expect(sentinels.length).toBeGreaterThan(2);
    expect(sentinels.length).toBeLessThan(TURNS / 5); // coarse: well below one cut per turn
    const cutTurns = new Set(sentinels.map((r) => Number(r.turnId.slice(1))));
    let firstKept = 1;
    for (let n = 1; n <= TURNS; n++) {
      const sentinel = sentinels.find((r) => r.turnId === `t${n}`);
      const prompt = firstPrompts.get(n) as LanguageModelV4Prompt;
      if (sentinel !== undefined) {
        const cut = (sentinel.data as { truncation: ContextTruncation }).truncation;
        firstKept = Number(cut.firstKeptTurnId.slice(1));
        expect(cut.keptTokens).toBeLessThanOrEqual(BUDGET * 0.5);
        expect(cut.leftOutTurns).toBe(firstKept - 1);
        const firstRow = rows.find((r) => r.turnId === cut.firstKeptTurnId);
        expect(cut.firstKeptSeq).toBe(firstRow?.seq);
        expect(sentinel.data).toMatchObject({ text: expect.stringMatching(/^Context cut: /) });
      }
      // Model input starts at the first kept turn and holds every turn since: whole turns.
      const users = userTexts(prompt);
      expect(users[0]).toMatch(new RegExp(`^Question ${firstKept}:`));
      expect(users).toHaveLength(n - firstKept + 1);
      expect(n - firstKept + 1).toBeGreaterThanOrEqual(Math.min(n, 2)); // the newest turns kept
      expect(JSON.stringify(prompt)).not.toContain('Context cut');
      // Between cuts the input only grows at its end: the previous prompt is its prefix.
      const previous = firstPrompts.get(n - 1);
      if (previous !== undefined && !cutTurns.has(n)) {
        expect(prompt.slice(0, previous.length)).toEqual(previous);
      }
    }

    // Usage: the store's totals are the sum of what the model reported.
    const usage = await store.getThreadUsage('budget');
    expect(usage.turns).toBe(TURNS);
    expect(usage.steps).toBe(reported.length);
    expect(usage.total.inputTokens).toBe(reported.reduce((s, u) => s + u.input, 0));
    expect(usage.total.outputTokens).toBe(reported.reduce((s, u) => s + u.output, 0));

    // The window shows the sentinels.
    const window = new ChunkWindow({
      limit: 100_000,
      pageSize: 500,
      loadPage: (request) => store.getChunks('budget', { ...request, limit: 500 }),
    });
    await window.reconcile();
    while (window.hasOlder) await window.loadOlder();
    const shown = window.log.filter(
      (e) => e.type === 'system' && (e.data as { kind?: string }).kind === 'context-truncated',
    );
    expect(shown.map((e) => e.seq)).toEqual(sentinels.map((r) => r.seq));

    // session.modelMessages shows what the next call sends: from the last cut's first kept turn.
    const next = await session.modelMessages('One more');
    const lastSentinel = sentinels.at(-1);
    if (lastSentinel === undefined) throw new Error('no sentinel stored');
    const lastCut = (lastSentinel.data as { truncation: ContextTruncation }).truncation;
    const firstUser = next.find((m) => m.role === 'user');
    expect(JSON.stringify(firstUser)).toContain(`Question ${lastCut.firstKeptTurnId.slice(1)}:`);
    await session.close();
  });

  it('with compaction, summarises what a cut leaves out and sends the summary in its place', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const summaries: Array<{ summary: string; asked: string[] }> = [];
    const model = createScriptedModel((call, index) => {
      const users = userTexts(call.prompt);
      if (users.at(-1) === DEFAULT_COMPACTION_INSTRUCTIONS) {
        const summary = `SUMMARY-${summaries.length + 1}`;
        summaries.push({ summary, asked: users });
        return { parts: [{ type: 'text', text: summary }] };
      }
      return { parts: [{ type: 'text', text: `Answer ${index}: ${'words '.repeat(40)}` }] };
    });
    const session = createAgentSession({
      store,
      threadId: 'compact',
      model,
      idGenerator: sequentialIds(),
      contextBudget: { maxTokens: 1200, keepTurns: 1 },
      compaction: true,
    });
    const prompts: LanguageModelV4Prompt[] = [];
    for (let n = 1; n <= 30; n++) {
      await session.send(`Question ${n}`).result;
      const last = model.calls.at(-1);
      if (last !== undefined) prompts.push(last.prompt);
    }
    await session.idle();
    const sentinels = (await store.getRows('compact')).filter(
      (r) => r.type === 'system' && (r.data as { kind?: string }).kind === 'context-truncated',
    );
    expect(sentinels.length).toBeGreaterThan(1);
    expect(summaries).toHaveLength(sentinels.length);
    for (const [i, row] of sentinels.entries()) {
      const cut = (row.data as { truncation: ContextTruncation }).truncation;
      expect(cut.summary).toBe(summaries[i]?.summary);
      // A later summary is asked with the earlier one in front of the turns it summarises.
      if (i > 0) expect(summaries[i]?.asked[0]).toBe(SUMMARY_HEADING + summaries[i - 1]?.summary);
      // The turn's answer was written from the summary and the kept turns.
      const turnNumber = Number(row.turnId.slice(1));
      const users = userTexts(prompts[turnNumber - 1] as LanguageModelV4Prompt);
      expect(users[0]).toBe(SUMMARY_HEADING + cut.summary);
      expect(users[1]).toBe(`Question ${cut.firstKeptTurnId.slice(1)}`);
    }
    await session.close();
  });
});

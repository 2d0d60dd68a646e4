// Every recorded provider stream, replayed through the real @ai-sdk/anthropic or @ai-sdk/openai
// provider into `streamText`, then `foldStream`: what the provider sent lands in the chunks.

import { createAnthropic } from '@ai-sdk/anthropic';
import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { foldStream, type TurnState } from '../../src/reducer/index.js';
import type { Chunk, TextChunk, ThinkingChunk, ToolBatchChunk } from '../../src/schema/index.js';
import { ChunkSchema } from '../../src/schema/index.js';
import {
  fixtureBlobId,
  readFixtureBytes,
  recordedFixtureNames,
  recordedFixturesAvailable,
  replayFetch,
  streamRecorded,
} from '../support/recorded-fixtures.js';

async function replay(name: string, framing: 'data' | 'event' = 'data'): Promise<TurnState> {
  return foldStream(streamRecorded(name, framing).result.stream);
}

const ofType = <T extends Chunk['type']>(chunks: readonly Chunk[], type: T) =>
  chunks.filter((c): c is Extract<Chunk, { type: T }> => c.type === type);

describe.runIf(recordedFixturesAvailable)('the recorded fixtures', () => {
  const readme = readFixtureBytes('README.md').toString('utf8');

  it.each(recordedFixtureNames())('%s is a byte-identical copy of its upstream blob', (name) => {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\``));
    expect(row).toBeDefined();
    expect(row).toContain(`\`${fixtureBlobId(name)}\``);
    expect(row).toContain(`| ${readFixtureBytes(name).length} |`);
  });

  it.each(recordedFixtureNames())(
    '%s folds to valid chunks, the same with `data:` or `event:` framing',
    async (name) => {
      const state = await replay(name);
      expect(state.ended).toBe(true);
      expect(state.openIndex).toBeNull();
      for (const chunk of state.chunks) expect(ChunkSchema.parse(chunk)).toStrictEqual(chunk);
      expect(JSON.parse(JSON.stringify(state.chunks))).toStrictEqual(state.chunks);
      // Source ids are random (the provider generates them); everything else is identical.
      const sameIds = (chunks: readonly Chunk[]) =>
        chunks.map((c) => (c.type === 'source' ? { ...c, source: { ...c.source, id: '' } } : c));
      expect(sameIds((await replay(name, 'event')).chunks)).toStrictEqual(sameIds(state.chunks));
    },
  );
});

describe.runIf(recordedFixturesAvailable)('Anthropic', () => {
  it('summarized thinking keeps its text, signature and model', async () => {
    const state = await replay('anthropic-claude-sonnet-5-reasoning-summarized.chunks.txt');
    expect(state.chunks.map((c) => c.type)).toEqual(['custom', 'thinking', 'text']);
    const thinking = state.chunks[1] as ThinkingChunk;
    expect(thinking.text).toMatch(/^I'm working through the Euclidean algorithm/);
    expect(thinking.text).toMatch(/21 as the greatest common divisor\.$/);
    expect(thinking.providerMetadata?.anthropic?.signature).toEqual(expect.any(String));
    expect(String(thinking.providerMetadata?.anthropic?.signature).length).toBeGreaterThan(100);
    expect(thinking.modelId).toBe('claude-sonnet-5');
    expect((state.chunks[2] as TextChunk).text).toMatch(/^# Finding GCD\(1071, 462\)/);
    expect(state.finishReason).toBe('stop');
  });

  it('a mid-output fallback: the custom marker sits between the two signed thinking blocks', async () => {
    const state = await replay('anthropic-fallback-mid-output.chunks.txt');
    expect(state.chunks).toStrictEqual([
      expect.objectContaining({ type: 'custom', kind: 'anthropic.message_start' }),
      {
        type: 'thinking',
        step: 0,
        id: '0',
        text: 'Opus 5.5 thinking',
        providerMetadata: { anthropic: { signature: 'SIG_FROM_OPUS_5_5' } },
        modelId: 'claude-opus-5-5',
      },
      {
        type: 'custom',
        step: 0,
        kind: 'anthropic.fallback',
        providerMetadata: {
          anthropic: {
            type: 'fallback',
            from: { model: 'claude-opus-5-5' },
            to: { model: 'claude-opus-4-8' },
          },
        },
      },
      {
        type: 'thinking',
        step: 0,
        id: '2',
        text: 'Opus 4.8 thinking',
        providerMetadata: { anthropic: { signature: 'SIG_FROM_OPUS_4_8' } },
        modelId: 'claude-opus-4-8',
      },
      {
        type: 'tool-batch',
        step: 0,
        calls: [{ id: 'toolu_1', name: 'lookup', input: { q: 'x' }, result: 'looked up' }],
      },
    ]);
    expect(state.finishReason).toBe('tool-calls');
  });

  it('a refusal: its only content is kept, its explanation is on the step', async () => {
    const state = await replay('anthropic-refusal.chunks.txt');
    expect(state.chunks).toStrictEqual([
      {
        type: 'custom',
        step: 0,
        kind: 'anthropic.message_start',
        providerMetadata: {
          anthropic: expect.objectContaining({
            id: 'msg_01RefusalStreamAbcdefghijk',
            model: 'claude-fable-5',
          }),
        },
      },
    ]);
    expect(state.finishReason).toBe('content-filter');
    expect(state.steps).toHaveLength(1);
    expect(state.steps[0]?.providerMetadata?.anthropic?.stopDetails).toStrictEqual({
      type: 'refusal',
      category: 'cyber',
      explanation:
        "This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.",
      recommendedModel: 'claude-fable-5',
    });
  });

  it('redacted thinking (a hand-made stream in the same format): an empty thinking chunk keeps its data', async () => {
    // No recording has a redacted_thinking block; this one follows the Messages API's format.
    const lines = [
      {
        type: 'message_start',
        message: {
          id: 'msg_r',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          usage: { input_tokens: 5, output_tokens: 0 },
        },
      },
      {
        type: 'content_block_start',
        index: 0,
        content_block: {
          type: 'redacted_thinking',
          data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw==',
        },
      },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'thinking_delta', thinking: 'Visible thought.' },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'signature_delta', signature: 'SIG' },
      },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Hello.' } },
      { type: 'content_block_stop', index: 2 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 9 },
      },
      { type: 'message_stop' },
    ].map((line) => JSON.stringify(line));
    const { fetch } = replayFetch([lines], 'event');
    const result = streamText({
      model: createAnthropic({ apiKey: 'k', fetch })('claude-sonnet-4-5'),
      prompt: 'hi',
    });
    const state = await foldStream(result.stream);
    expect(state.chunks.slice(1)).toStrictEqual([
      {
        type: 'thinking',
        step: 0,
        id: '0',
        text: '',
        providerMetadata: {
          anthropic: { redactedData: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw==' },
        },
        modelId: 'claude-sonnet-4-5',
      },
      {
        type: 'thinking',
        step: 0,
        id: '1',
        text: 'Visible thought.',
        providerMetadata: { anthropic: { signature: 'SIG' } },
        modelId: 'claude-sonnet-4-5',
      },
      { type: 'text', step: 0, id: '2', text: 'Hello.' },
    ]);
  });

  it('a tool with no arguments gets input {} and its result', async () => {
    const state = await replay('anthropic-tool-no-args.chunks.txt');
    expect(state.chunks.slice(1)).toStrictEqual([
      { type: 'text', step: 0, id: '0', text: "I'll update the issue list for you." },
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          {
            id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP',
            name: 'updateIssueList',
            input: {},
            result: 'updated',
          },
        ],
      },
    ]);
  });

  it('web search: the provider-executed call with its results, the sources, 19 cited blocks', async () => {
    const state = await replay('anthropic-web-search-tool.1.chunks.txt');
    const [batch] = ofType(state.chunks, 'tool-batch') as ToolBatchChunk[];
    expect(batch?.calls).toHaveLength(1);
    expect(batch?.calls[0]).toMatchObject({
      id: 'srvtoolu_01Bj5uzzLcYG5hfueSLcDH8k',
      name: 'web_search',
      providerExecuted: true,
      input: { query: 'tech news today September 26 2025' },
    });
    const results = batch?.calls[0]?.result as Array<{ url: string; encryptedContent: string }>;
    expect(results).toHaveLength(10);
    expect(results[0]?.encryptedContent).toEqual(expect.any(String));
    expect(ofType(state.chunks, 'source')).toHaveLength(10);
    const texts = ofType(state.chunks, 'text');
    expect(texts).toHaveLength(19);
    const cited = texts.filter((t) => t.citations !== undefined);
    expect(cited).toHaveLength(9);
    expect(cited[0]?.citations?.[0]).toMatchObject({
      source: { sourceType: 'url', url: expect.stringContaining('apple.com') },
    });
    expect(cited[0]?.providerMetadata?.anthropic?.citations).toEqual(expect.any(Array));
    expect(texts.map((t) => t.text).join('')).toMatch(/^Based on my search results/);
    expect(state.chunks.map((c) => c.type).slice(0, 3)).toEqual(['custom', 'tool-batch', 'source']);
  });
});

describe.runIf(recordedFixturesAvailable)('OpenAI', () => {
  it('reasoning with encrypted content across 4 steps: the end’s blob wins, calls and results in order', async () => {
    const state = await replay('openai-reasoning-encrypted-content.1.chunks.txt');
    expect(state.chunks.map((c) => [c.type, c.step])).toEqual([
      ['thinking', 0],
      ['tool-batch', 0],
      ['tool-batch', 1],
      ['tool-batch', 2],
      ['text', 3],
    ]);
    const thinking = state.chunks[0] as ThinkingChunk;
    const openai = thinking.providerMetadata?.openai as {
      itemId: string;
      reasoningEncryptedContent: string;
    };
    expect(openai.itemId).toBe('rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9');
    expect(openai.reasoningEncryptedContent).toMatch(/^gAAAAABpPDIV/); // from output_item.done, not .added
    expect(thinking.text).toMatch(/^\*\*Calculating step-by-step using calculator\*\*/);
    expect(thinking.modelId).toBe('gpt-5.1-codex-max');
    const calls = ofType(state.chunks, 'tool-batch').map((b) => b.calls[0]);
    expect(calls.map((c) => [c?.input, c?.result])).toEqual([
      [{ a: 12, b: 7, op: 'add' }, 19],
      [{ a: 19, b: 3, op: 'multiply' }, 57],
      [{ a: 57, b: 10, op: 'multiply' }, 570],
    ]);
    expect((state.chunks[4] as TextChunk).text).toBe('The final result is **570**.');
    expect(state.steps.map((s) => s.finishReason)).toEqual([
      'tool-calls',
      'tool-calls',
      'tool-calls',
      'stop',
    ]);
  });

  it('web search: empty reasoning items kept for their ids, four provider-executed searches, cited text', async () => {
    const state = await replay('openai-web-search-tool.1.chunks.txt');
    const thinking = ofType(state.chunks, 'thinking');
    expect(thinking).toHaveLength(5);
    for (const t of thinking) {
      expect(t.text).toBe('');
      expect(t.providerMetadata?.openai?.itemId).toMatch(/^rs_/);
    }
    const searches = ofType(state.chunks, 'tool-batch').flatMap((b) => b.calls);
    expect(searches).toHaveLength(4);
    for (const call of searches)
      expect(call).toMatchObject({ name: 'web_search', providerExecuted: true });
    expect(searches[0]?.result).toMatchObject({
      action: { type: 'search', query: 'Berlin news today' },
    });
    const [text] = ofType(state.chunks, 'text');
    expect(text?.citations).toHaveLength(6);
    expect(text?.text).toMatch(/^Here’s what’s notable in Berlin today/);
    expect(state.chunks.at(-1)).toBe(text);
  });
});

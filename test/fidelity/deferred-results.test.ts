// Deferred tool results: a result that arrives apart from its call is kept where (and in the step)
// it arrived, through the reducer, the rows, pages, grouping, model input and the UI bridge; rows
// stored by 0.1.0 (every result next to its call) still read back as they did.
import { describe, expect, it } from 'vitest';
import {
  type ChatMessage,
  type Chunk,
  type ChunkEvent,
  type ChunkRow,
  type ChunkRowDraft,
  explodeTurn,
  foldTurn,
  groupRowsToMessages,
  toModelMessages,
  toUIMessages,
  UNANSWERED_TOOL_CALL_TEXT,
} from '../../src/index.js';
import { uiMessagesToChatMessages } from '../../src/ui-messages/ui-messages-to-chat-messages.js';

const call = (id: string, name: string, providerExecuted = false): ChunkEvent[] => [
  {
    type: 'tool-call',
    toolCallId: id,
    toolName: name,
    input: { q: id },
    ...(providerExecuted && { providerExecuted }),
  },
];
const result = (
  id: string,
  name: string,
  output: string,
  providerExecuted = false,
): ChunkEvent => ({
  type: 'tool-result',
  toolCallId: id,
  toolName: name,
  output,
  ...(providerExecuted && { providerExecuted }),
});

/** Anthropic's programmatic tool calling: a code execution whose result comes two steps later. */
const programmatic: ChunkEvent[] = [
  { type: 'step-start' },
  ...call('ce', 'code_execution', true),
  ...call('d1', 'rollDie'),
  result('d1', 'rollDie', '4'),
  { type: 'step-finish', finishReason: 'tool-calls' },
  { type: 'step-start' },
  ...call('d2', 'rollDie'),
  result('d2', 'rollDie', '6'),
  { type: 'step-finish', finishReason: 'tool-calls' },
  { type: 'step-start' },
  result('ce', 'code_execution', 'total 10', true),
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', text: 'You rolled 10.' },
  { type: 'text-end', id: 't' },
  { type: 'step-finish', finishReason: 'stop' },
];

function stored(turnId: string, chunks: readonly Chunk[]): ChunkRow[] {
  const drafts: ChunkRowDraft[] = [
    ...explodeTurn(turnId, [{ type: 'text', step: 0, text: 'Roll twice.' }], { role: 'user' }),
    ...explodeTurn(turnId, chunks, { role: 'assistant' }),
  ];
  return drafts.map(
    (d, i) =>
      ({ ...d, threadId: 'th', seq: i + 1, createdAt: '2026-12-01T00:00:00.000Z' }) as ChunkRow,
  );
}

describe('deferred tool results', () => {
  it('the reducer keeps a result that arrived in a later step there, as a deferred result', () => {
    const { chunks } = foldTurn(programmatic);
    expect(chunks.map((c) => [c.type, c.step])).toStrictEqual([
      ['tool-batch', 0],
      ['tool-batch', 1],
      ['tool-batch', 2],
      ['text', 2],
    ]);
    expect(chunks[0]).toStrictEqual({
      type: 'tool-batch',
      step: 0,
      calls: [
        { id: 'ce', name: 'code_execution', input: { q: 'ce' }, providerExecuted: true },
        { id: 'd1', name: 'rollDie', input: { q: 'd1' }, result: '4' },
      ],
    });
    expect(chunks[2]).toStrictEqual({
      type: 'tool-batch',
      step: 2,
      calls: [{ id: 'ce', name: 'code_execution', deferred: true, result: 'total 10' }],
    });
  });

  it('a provider-executed result right after its call stays on it; one after other content is deferred', () => {
    const adjacent = foldTurn([
      ...call('w', 'web_search', true),
      result('w', 'web_search', 'r', true),
    ]);
    expect(adjacent.chunks).toStrictEqual([
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          { id: 'w', name: 'web_search', input: { q: 'w' }, providerExecuted: true, result: 'r' },
        ],
      },
    ]);
    // Anthropic's web_fetch inside code_execution: [call ce, call wf, result wf, result ce].
    const nested = foldTurn([
      ...call('ce', 'code_execution', true),
      ...call('wf', 'web_fetch', true),
      result('wf', 'web_fetch', 'page', true),
      result('ce', 'code_execution', 'done', true),
    ]);
    expect(nested.chunks).toStrictEqual([
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          { id: 'ce', name: 'code_execution', input: { q: 'ce' }, providerExecuted: true },
          {
            id: 'wf',
            name: 'web_fetch',
            input: { q: 'wf' },
            providerExecuted: true,
            result: 'page',
          },
        ],
      },
      {
        type: 'tool-batch',
        step: 0,
        calls: [{ id: 'ce', name: 'code_execution', deferred: true, result: 'done' }],
      },
    ]);
    const [message] = groupRowsToMessages(stored('t', nested.chunks)).slice(1);
    const content = toModelMessages([message as ChatMessage])[0]?.content as {
      type: string;
      toolCallId: string;
    }[];
    expect(content.map((p) => `${p.type}:${p.toolCallId}`)).toStrictEqual([
      'tool-call:ce',
      'tool-call:wf',
      'tool-result:wf',
      'tool-result:ce',
    ]);
  });

  it('rows: the deferred result is a tool_result row of its step, marked deferred; grouping gives the chunks back', () => {
    const { chunks } = foldTurn(programmatic);
    const rows = stored('t', chunks);
    expect(rows.filter((r) => r.type === 'tool_result').map((r) => [r.step, r.data])).toStrictEqual(
      [
        [0, { callId: 'd1', name: 'rollDie', result: '4' }],
        [1, { callId: 'd2', name: 'rollDie', result: '6' }],
        [2, { callId: 'ce', name: 'code_execution', result: 'total 10', deferred: true }],
      ],
    );
    expect(groupRowsToMessages(rows)[1]?.chunks).toStrictEqual(chunks);
  });

  it('model input: the call goes alone in its step, its result where it arrived', () => {
    const messages = groupRowsToMessages(stored('t', foldTurn(programmatic).chunks));
    const out = toModelMessages(messages);
    expect(out.map((m) => m.role)).toStrictEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(out[1]?.content).toStrictEqual([
      {
        type: 'tool-call',
        toolCallId: 'ce',
        toolName: 'code_execution',
        input: { q: 'ce' },
        providerExecuted: true,
      },
      { type: 'tool-call', toolCallId: 'd1', toolName: 'rollDie', input: { q: 'd1' } },
    ]);
    expect(out[5]?.content).toStrictEqual([
      {
        type: 'tool-result',
        toolCallId: 'ce',
        toolName: 'code_execution',
        output: { type: 'text', value: 'total 10' },
      },
      { type: 'text', text: 'You rolled 10.' },
    ]);
    // In the loop (steps 0 and 1 only) the pending call is sent as the AI SDK's loop sends it.
    const inLoop = toModelMessages(
      groupRowsToMessages(stored('t', foldTurn(programmatic).chunks).filter((r) => r.step < 2)),
    );
    expect(JSON.stringify(inLoop)).toContain('"toolCallId":"ce"');
    expect(JSON.stringify(inLoop)).not.toContain(UNANSWERED_TOOL_CALL_TEXT);
  });

  it('a page that holds the deferred result but not its call drops the result (no result without its call)', () => {
    const rows = stored('t', foldTurn(programmatic).chunks);
    const page = rows.slice(-3);
    const out = toModelMessages(groupRowsToMessages(page));
    expect(JSON.stringify(out)).not.toContain('total 10');
    expect(toModelMessages(groupRowsToMessages(rows))).toStrictEqual(
      toModelMessages(groupRowsToMessages([...rows.slice(0, -3), ...page])),
    );
  });

  it('rows stored by 0.1.0 (the result next to its call, no deferred flag) read back as before', () => {
    // What 0.1.0 stored for the programmatic run: the code execution's result merged into its
    // call, its result row right after the batch's call rows.
    const v010: ChunkRowDraft[] = [
      { turnId: 'old', step: 0, role: 'user', type: 'text', data: { text: 'Roll twice.' } },
      {
        turnId: 'old',
        step: 0,
        role: 'assistant',
        type: 'tool_call',
        data: {
          id: 'ce',
          name: 'code_execution',
          index: 0,
          input: { q: 'ce' },
          providerExecuted: true,
        },
      },
      {
        turnId: 'old',
        step: 0,
        role: 'assistant',
        type: 'tool_call',
        data: { id: 'd1', name: 'rollDie', index: 1, input: { q: 'd1' } },
      },
      {
        turnId: 'old',
        step: 0,
        role: 'tool',
        type: 'tool_result',
        data: { callId: 'ce', name: 'code_execution', result: 'total 10' },
      },
      {
        turnId: 'old',
        step: 0,
        role: 'tool',
        type: 'tool_result',
        data: { callId: 'd1', name: 'rollDie', result: '4' },
      },
      { turnId: 'old', step: 2, role: 'assistant', type: 'text', data: { text: 'You rolled 10.' } },
    ];
    const rows = v010.map(
      (d, i) =>
        ({ ...d, threadId: 'th', seq: i + 1, createdAt: '2026-11-30T00:00:00.000Z' }) as ChunkRow,
    );
    const [, assistant] = groupRowsToMessages(rows);
    expect(assistant?.chunks[0]).toStrictEqual({
      type: 'tool-batch',
      step: 0,
      calls: [
        {
          id: 'ce',
          name: 'code_execution',
          input: { q: 'ce' },
          providerExecuted: true,
          result: 'total 10',
        },
        { id: 'd1', name: 'rollDie', input: { q: 'd1' }, result: '4' },
      ],
    });
    const out = toModelMessages(groupRowsToMessages(rows));
    expect(out[1]?.content).toStrictEqual([
      {
        type: 'tool-call',
        toolCallId: 'ce',
        toolName: 'code_execution',
        input: { q: 'ce' },
        providerExecuted: true,
      },
      {
        type: 'tool-result',
        toolCallId: 'ce',
        toolName: 'code_execution',
        output: { type: 'text', value: 'total 10' },
      },
      { type: 'tool-call', toolCallId: 'd1', toolName: 'rollDie', input: { q: 'd1' } },
    ]);
  });

  it('UI messages: the call part shows the result, a marker keeps where it arrived, and the import gives the chunks back', async () => {
    const messages = groupRowsToMessages(stored('t', foldTurn(programmatic).chunks));
    const [, ui] = toUIMessages(messages);
    const parts = (ui?.parts ?? []) as {
      type: string;
      state?: string;
      output?: unknown;
      data?: unknown;
    }[];
    const callPart = parts.find(
      (p) => p.type === 'dynamic-tool' || p.type === 'tool-code_execution',
    );
    expect(callPart?.state).toBe('output-available');
    expect(callPart?.output).toBe('total 10');
    const marker = parts.findIndex((p) => p.type === 'data-chunklog-deferred-result');
    expect(parts[marker]?.data).toStrictEqual({ toolCallId: 'ce' });
    expect(parts.filter((p) => p.type === 'step-start')).toHaveLength(3);
    const back = await uiMessagesToChatMessages(toUIMessages(messages));
    // (A UI text part has no block id: the only thing the UI does not carry back.)
    const withoutTextIds = (chunks: readonly Chunk[]) =>
      chunks.map((c) => (c.type === 'text' ? { ...c, id: undefined } : c));
    expect(back.map((m) => withoutTextIds(m.chunks))).toStrictEqual(
      messages.map((m) => withoutTextIds(m.chunks)),
    );
  });
});

import type { LanguageModelV4Prompt } from '@ai-sdk/provider';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { listFiles, readFile } from './fixtures.js';
import { openSqliteStore, plainRows, recordEvents, sequentialIds } from './support.js';

const cache = { anthropic: { cacheControl: { type: 'ephemeral' } } };
const system = { role: 'system', content: 'You are terse.', providerOptions: cache } as const;
const question = 'What do a.ts and b.ts export?';

function script() {
  return createScriptedModel(
    [
      {
        parts: [
          { type: 'reasoning', text: 'Two files to read.', signature: 'sig-A' },
          { type: 'text', text: 'Let me look.' },
          { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } },
          { type: 'tool-call', toolName: 'list_files', input: { dir: '.' } },
        ],
      },
      {
        parts: [
          { type: 'redacted-reasoning', data: 'REDACTED' },
          { type: 'reasoning', text: 'Now b.ts.', signature: 'sig-B' },
          { type: 'tool-call', toolName: 'read_file', input: { path: 'b.ts' } },
        ],
      },
      {
        parts: [
          { type: 'reasoning', text: 'Done.', signature: 'sig-C' },
          { type: 'text', text: 'Both export one function.' },
        ],
      },
      { parts: [{ type: 'text', text: 'Yes.' }] },
    ],
    { provider: 'anthropic.messages', modelId: 'claude-test' },
  );
}

const usage0 = { inputTokens: 68, outputTokens: 15, totalTokens: 83, reasoningTokens: 5 };
const usage1 = { inputTokens: 245, outputTokens: 7, totalTokens: 252, reasoningTokens: 3 };
const usage2 = { inputTokens: 381, outputTokens: 9, totalTokens: 390, reasoningTokens: 2 };

const expectedEvents: ChunkEvent[] = [
  { type: 'turn-start', turnId: 't1', userText: question },
  { type: 'step-start', step: 0 },
  { type: 'reasoning-start', id: '0-0' },
  { type: 'reasoning-delta', id: '0-0', text: 'Two ' },
  { type: 'reasoning-delta', id: '0-0', text: 'files ' },
  { type: 'reasoning-delta', id: '0-0', text: 'to ' },
  { type: 'reasoning-delta', id: '0-0', text: 'read.' },
  {
    type: 'reasoning-delta',
    id: '0-0',
    text: '',
    providerMetadata: { anthropic: { signature: 'sig-A' } },
  },
  { type: 'reasoning-end', id: '0-0' },
  { type: 'text-start', id: '0-1' },
  { type: 'text-delta', id: '0-1', text: 'Let ' },
  { type: 'text-delta', id: '0-1', text: 'me ' },
  { type: 'text-delta', id: '0-1', text: 'look.' },
  { type: 'text-end', id: '0-1' },
  { type: 'tool-input-start', toolCallId: 'call-0-0', toolName: 'read_file' },
  { type: 'tool-input-delta', toolCallId: 'call-0-0', delta: '{"path":"a.ts"}' },
  { type: 'tool-call', toolCallId: 'call-0-0', toolName: 'read_file', input: { path: 'a.ts' } },
  { type: 'tool-input-start', toolCallId: 'call-0-1', toolName: 'list_files' },
  { type: 'tool-input-delta', toolCallId: 'call-0-1', delta: '{"dir":"."}' },
  { type: 'tool-call', toolCallId: 'call-0-1', toolName: 'list_files', input: { dir: '.' } },
  {
    type: 'tool-result',
    toolCallId: 'call-0-0',
    toolName: 'read_file',
    output: '// a.ts\nexport function f() {}',
  },
  { type: 'tool-result', toolCallId: 'call-0-1', toolName: 'list_files', output: ['a.ts', 'b.ts'] },
  {
    type: 'step-finish',
    finishReason: 'tool-calls',
    usage: usage0,
    modelId: 'claude-test',
    step: 0,
  },
  { type: 'step-start', step: 1 },
  {
    type: 'reasoning-start',
    id: '1-0',
    providerMetadata: { anthropic: { redactedData: 'REDACTED' } },
  },
  { type: 'reasoning-end', id: '1-0' },
  { type: 'reasoning-start', id: '1-1' },
  { type: 'reasoning-delta', id: '1-1', text: 'Now ' },
  { type: 'reasoning-delta', id: '1-1', text: 'b.ts.' },
  {
    type: 'reasoning-delta',
    id: '1-1',
    text: '',
    providerMetadata: { anthropic: { signature: 'sig-B' } },
  },
  { type: 'reasoning-end', id: '1-1' },
  { type: 'tool-input-start', toolCallId: 'call-1-0', toolName: 'read_file' },
  { type: 'tool-input-delta', toolCallId: 'call-1-0', delta: '{"path":"b.ts"}' },
  { type: 'tool-call', toolCallId: 'call-1-0', toolName: 'read_file', input: { path: 'b.ts' } },
  {
    type: 'tool-result',
    toolCallId: 'call-1-0',
    toolName: 'read_file',
    output: '// b.ts\nexport function f() {}',
  },
  {
    type: 'step-finish',
    finishReason: 'tool-calls',
    usage: usage1,
    modelId: 'claude-test',
    step: 1,
  },
  { type: 'step-start', step: 2 },
  { type: 'reasoning-start', id: '2-0' },
  { type: 'reasoning-delta', id: '2-0', text: 'Done.' },
  {
    type: 'reasoning-delta',
    id: '2-0',
    text: '',
    providerMetadata: { anthropic: { signature: 'sig-C' } },
  },
  { type: 'reasoning-end', id: '2-0' },
  { type: 'text-start', id: '2-1' },
  { type: 'text-delta', id: '2-1', text: 'Both ' },
  { type: 'text-delta', id: '2-1', text: 'export ' },
  { type: 'text-delta', id: '2-1', text: 'one ' },
  { type: 'text-delta', id: '2-1', text: 'function.' },
  { type: 'text-end', id: '2-1' },
  { type: 'step-finish', finishReason: 'stop', usage: usage2, modelId: 'claude-test', step: 2 },
  {
    type: 'turn-end',
    finishReason: 'stop',
    usage: { inputTokens: 694, outputTokens: 31, totalTokens: 725, reasoningTokens: 10 },
  },
];

const row = (seq: number, rest: object) => ({ threadId: 'thread-1', seq, turnId: 't1', ...rest });
const expectedRows = [
  row(1, { step: 0, role: 'user', type: 'text', data: { text: question } }),
  row(2, {
    step: 0,
    role: 'assistant',
    type: 'thinking',
    data: {
      text: 'Two files to read.',
      id: '0-0',
      providerMetadata: { anthropic: { signature: 'sig-A' } },
      modelId: 'claude-test',
    },
  }),
  row(3, { step: 0, role: 'assistant', type: 'text', data: { text: 'Let me look.', id: '0-1' } }),
  row(4, {
    step: 0,
    role: 'assistant',
    type: 'tool_call',
    data: { id: 'call-0-0', name: 'read_file', index: 0, input: { path: 'a.ts' } },
  }),
  row(5, {
    step: 0,
    role: 'assistant',
    type: 'tool_call',
    data: { id: 'call-0-1', name: 'list_files', index: 1, input: { dir: '.' } },
  }),
  row(6, {
    step: 0,
    role: 'tool',
    type: 'tool_result',
    data: { callId: 'call-0-0', name: 'read_file', result: '// a.ts\nexport function f() {}' },
  }),
  row(7, {
    step: 0,
    role: 'tool',
    type: 'tool_result',
    data: { callId: 'call-0-1', name: 'list_files', result: ['a.ts', 'b.ts'] },
  }),
  row(8, {
    step: 1,
    role: 'assistant',
    type: 'thinking',
    data: {
      text: '',
      id: '1-0',
      providerMetadata: { anthropic: { redactedData: 'REDACTED' } },
      modelId: 'claude-test',
    },
  }),
  row(9, {
    step: 1,
    role: 'assistant',
    type: 'thinking',
    data: {
      text: 'Now b.ts.',
      id: '1-1',
      providerMetadata: { anthropic: { signature: 'sig-B' } },
      modelId: 'claude-test',
    },
  }),
  row(10, {
    step: 1,
    role: 'assistant',
    type: 'tool_call',
    data: { id: 'call-1-0', name: 'read_file', index: 0, input: { path: 'b.ts' } },
  }),
  row(11, {
    step: 1,
    role: 'tool',
    type: 'tool_result',
    data: { callId: 'call-1-0', name: 'read_file', result: '// b.ts\nexport function f() {}' },
  }),
  row(12, {
    step: 2,
    role: 'assistant',
    type: 'thinking',
    data: {
      text: 'Done.',
      id: '2-0',
      providerMetadata: { anthropic: { signature: 'sig-C' } },
      modelId: 'claude-test',
    },
  }),
  row(13, {
    step: 2,
    role: 'assistant',
    type: 'text',
    data: { text: 'Both export one function.', id: '2-1' },
  }),
];

// The model messages of the turn, as the AI SDK built them in the turn and as toModelMessages
// rebuilds them from the store.
const user = { role: 'user', content: [{ type: 'text', text: question }] } as const;
const assistant0 = {
  role: 'assistant',
  content: [
    {
      type: 'reasoning',
      text: 'Two files to read.',
      providerOptions: { anthropic: { signature: 'sig-A' } },
    },
    { type: 'text', text: 'Let me look.' },
    { type: 'tool-call', toolCallId: 'call-0-0', toolName: 'read_file', input: { path: 'a.ts' } },
    { type: 'tool-call', toolCallId: 'call-0-1', toolName: 'list_files', input: { dir: '.' } },
  ],
} as const;
const result0a = {
  type: 'tool-result',
  toolCallId: 'call-0-0',
  toolName: 'read_file',
  output: { type: 'text', value: '// a.ts\nexport function f() {}' },
} as const;
const result0b = {
  type: 'tool-result',
  toolCallId: 'call-0-1',
  toolName: 'list_files',
  output: { type: 'json', value: ['a.ts', 'b.ts'] },
} as const;
const assistant1 = {
  role: 'assistant',
  content: [
    { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'REDACTED' } } },
    {
      type: 'reasoning',
      text: 'Now b.ts.',
      providerOptions: { anthropic: { signature: 'sig-B' } },
    },
    { type: 'tool-call', toolCallId: 'call-1-0', toolName: 'read_file', input: { path: 'b.ts' } },
  ],
} as const;
const result1 = {
  type: 'tool-result',
  toolCallId: 'call-1-0',
  toolName: 'read_file',
  output: { type: 'text', value: '// b.ts\nexport function f() {}' },
} as const;
const assistant2 = {
  role: 'assistant',
  content: [
    { type: 'reasoning', text: 'Done.', providerOptions: { anthropic: { signature: 'sig-C' } } },
    { type: 'text', text: 'Both export one function.' },
  ],
} as const;

describe('a turn with interleaved thinking and parallel tools across steps', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('streams the events, stores the rows, and sends the next call exactly that', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = script();
    const session = createAgentSession({
      store,
      threadId: 'thread-1',
      model,
      tools: { read_file: readFile, list_files: listFiles },
      system: 'You are terse.',
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const turn = session.send(question);
    expect(turn.turnId).toBe('t1');
    const iterated: ChunkEvent[] = [];
    for await (const event of turn) iterated.push(event);
    const rows = await turn.rows;

    expect(iterated).toEqual(expectedEvents);
    expect(recorded.events.map((e) => e.event)).toEqual(expectedEvents);
    expect(recorded.events.map((e) => e.meta.id)).toEqual(expectedEvents.map((_, i) => `t1:${i}`));
    expect(plainRows(rows)).toEqual(expectedRows);
    expect(plainRows(await store.getRows('thread-1'))).toEqual(expectedRows);
    const result = await turn.result;
    expect([result.outcome, result.finishReason, turn.status]).toEqual([
      'completed',
      'stop',
      'done',
    ]);

    // Inside the turn, every step's prompt got stable cache breakpoints (prepareStep).
    expect(model.prompts[1]).toEqual([
      system,
      { ...user, providerOptions: cache },
      assistant0,
      { role: 'tool', content: [result0a, { ...result0b, providerOptions: cache }] },
    ]);
    expect(model.prompts[2]).toEqual([
      system,
      { ...user, providerOptions: cache },
      assistant0,
      { role: 'tool', content: [result0a, { ...result0b, providerOptions: cache }] },
      assistant1,
      { role: 'tool', content: [{ ...result1, providerOptions: cache }] },
    ]);

    // The next call's input, rebuilt from the store.
    const next = { role: 'user', content: [{ type: 'text', text: 'Sure?' }] } as const;
    const expectedNext = [
      user,
      assistant0,
      { role: 'tool', content: [result0a, { ...result0b, providerOptions: cache }] },
      assistant1,
      { role: 'tool', content: [{ ...result1, providerOptions: cache }] },
      assistant2,
      { ...next, providerOptions: cache },
    ];
    const messages = await session.modelMessages('Sure?');
    expect(messages).toEqual(expectedNext);
    await session.send('Sure?').rows;
    expect(model.prompts[3]).toEqual([system, ...expectedNext] as LanguageModelV4Prompt);
    expect(model.calls[3]?.options.tools?.map((t) => t.name)).toEqual(['read_file', 'list_files']);
    // Without an input, the history alone (with its own breakpoints).
    const history = await session.modelMessages();
    expect(history.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
    ]);
    await session.close();
  });
});

import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  type ChatMessage,
  type Chunk,
  ChunklogError,
  type ToModelMessagesOptions,
  toModelMessages,
  UNANSWERED_TOOL_CALL_TEXT,
} from '../../src/index.js';

const msg = (turnId: string, role: ChatMessage['role'], chunks: Chunk[]): ChatMessage => ({
  id: `${turnId}:${role}`,
  turnId,
  role,
  chunks,
});

const sig = (s: string) => ({ anthropic: { signature: s } });

describe('toModelMessages', () => {
  it('rebuilds the plan example turn: steps, tool messages, no system or error chunks', () => {
    const messages: ChatMessage[] = [
      msg('n', 'user', [{ type: 'text', step: 0, text: 'explain X' }]),
      msg('n', 'assistant', [
        { type: 'thinking', step: 0, text: 'I should...', providerMetadata: sig('a') },
        { type: 'text', step: 0, text: "Sure, here's the gist..." },
        {
          type: 'tool-batch',
          step: 0,
          calls: [
            { id: '1', name: 'read_file', input: { p: 'x' }, result: 'file' },
            { id: '2', name: 'list_files', input: {}, result: ['a', 'b'] },
          ],
        },
        { type: 'system', step: 1, kind: 'notice', text: 'NOTICE' },
        { type: 'text', step: 1, text: 'Looking at the file...' },
        { type: 'error', step: 1, message: 'Network error', statusCode: 503 },
      ]),
      msg('s', 'system', [{ type: 'system', step: 0, kind: 'notice', text: 'SYSTEM' }]),
    ];
    expect(toModelMessages(messages)).toStrictEqual([
      { role: 'user', content: [{ type: 'text', text: 'explain X' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'I should...', providerOptions: sig('a') },
          { type: 'text', text: "Sure, here's the gist..." },
          { type: 'tool-call', toolCallId: '1', toolName: 'read_file', input: { p: 'x' } },
          { type: 'tool-call', toolCallId: '2', toolName: 'list_files', input: {} },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: '1',
            toolName: 'read_file',
            output: { type: 'text', value: 'file' },
          },
          {
            type: 'tool-result',
            toolCallId: '2',
            toolName: 'list_files',
            output: { type: 'json', value: ['a', 'b'] },
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Looking at the file...' }] },
    ] satisfies ModelMessage[]);
  });

  it('gives an unanswered call the documented error result, and errors and denials their outputs', () => {
    const out = toModelMessages([
      msg('t', 'assistant', [
        {
          type: 'tool-batch',
          step: 0,
          calls: [
            { id: 'a', name: 'sh', input: { c: 'sleep' }, progress: 'zz' },
            { id: 'b', name: 'sh', input: {}, result: 'boom', isError: true },
            {
              id: 'c',
              name: 'rm',
              input: {},
              result: null,
              isError: true,
              denied: true,
              approval: { id: 'ap', approved: false, reason: 'no' },
            },
          ],
        },
      ]),
    ]);
    // The step's approval answers come first, then the results in call order: the AI SDK's own
    // response messages (parity-approvals.test.ts).
    expect(out[1]).toStrictEqual({
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approvalId: 'ap', approved: false, reason: 'no' },
        {
          type: 'tool-result',
          toolCallId: 'a',
          toolName: 'sh',
          output: { type: 'error-text', value: UNANSWERED_TOOL_CALL_TEXT },
        },
        {
          type: 'tool-result',
          toolCallId: 'b',
          toolName: 'sh',
          output: { type: 'error-text', value: 'boom' },
        },
        {
          type: 'tool-result',
          toolCallId: 'c',
          toolName: 'rm',
          output: { type: 'execution-denied', reason: 'no' },
        },
      ],
    });
    expect(out[0]?.content).toContainEqual({
      type: 'tool-approval-request',
      approvalId: 'ap',
      toolCallId: 'c',
    });
    expect(UNANSWERED_TOOL_CALL_TEXT).toBe(
      'The tool call was interrupted before it returned a result (the turn was cancelled or failed); its outcome is unknown.',
    );
  });

  it('keeps provider-executed calls and results in the assistant message, each with its own metadata, sends a pending one alone', () => {
    const out = toModelMessages([
      msg('t', 'assistant', [
        {
          type: 'tool-batch',
          step: 0,
          calls: [
            {
              id: 'w',
              name: 'web_search',
              input: { q: 'x' },
              providerExecuted: true,
              result: [{ url: 'u' }],
              providerMetadata: { openai: { itemId: 'ws_1' } },
              resultProviderMetadata: { openai: { itemId: 'ws_1r', status: 'completed' } },
            },
            { id: 'v', name: 'web_search', input: { q: 'y' }, providerExecuted: true },
          ],
        },
        { type: 'text', step: 0, text: 'found' },
      ]),
    ]);
    expect(out).toStrictEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'w',
            toolName: 'web_search',
            input: { q: 'x' },
            providerExecuted: true,
            providerOptions: { openai: { itemId: 'ws_1' } },
          },
          {
            type: 'tool-result',
            toolCallId: 'w',
            toolName: 'web_search',
            output: { type: 'json', value: [{ url: 'u' }] },
            providerOptions: { openai: { itemId: 'ws_1r', status: 'completed' } },
          },
          {
            type: 'tool-call',
            toolCallId: 'v',
            toolName: 'web_search',
            input: { q: 'y' },
            providerExecuted: true,
          },
          { type: 'text', text: 'found' },
        ],
      },
    ]);
  });

  it('leaves out a pending provider-executed call of a step that was cancelled', () => {
    const out = toModelMessages([
      msg('t', 'assistant', [
        { type: 'text', step: 0, text: 'searching' },
        {
          type: 'tool-batch',
          step: 0,
          calls: [{ id: 'v', name: 'web_search', input: { q: 'y' }, providerExecuted: true }],
        },
        { type: 'system', step: 0, kind: 'cancelled', text: 'stopped' },
      ]),
    ]);
    expect(out).toStrictEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'searching' }] },
    ]);
  });

  it('leaves out the reasoning that ends a step cut short, and keeps the rest of that step', () => {
    const cancelled = (step: number): Chunk => ({
      type: 'system',
      step,
      kind: 'cancelled',
      text: 'stopped',
    });
    const thought = (step: number, signed: boolean): Chunk =>
      signed
        ? { type: 'thinking', step, text: 'so', providerMetadata: sig('s') }
        : { type: 'thinking', step, text: 'so' };
    for (const signed of [false, true]) {
      // Cut during the thought: nothing of the step goes back.
      expect(
        toModelMessages([msg('t', 'assistant', [thought(0, signed), cancelled(0)])]),
      ).toStrictEqual([]);
      // Cut after an answer began: the thought before the text stays with it.
      expect(
        toModelMessages([
          msg('t', 'assistant', [
            thought(0, signed),
            { type: 'text', step: 0, text: 'Half an ans' },
            thought(0, signed),
            cancelled(0),
          ]),
        ]),
      ).toStrictEqual([
        {
          role: 'assistant',
          content: [
            signed
              ? { type: 'reasoning', text: 'so', providerOptions: sig('s') }
              : { type: 'reasoning', text: 'so' },
            { type: 'text', text: 'Half an ans' },
          ],
        },
      ]);
    }
    // An earlier step, which ended, keeps its thought; so does a step that was not cut short.
    const steps = toModelMessages([
      msg('t', 'assistant', [thought(0, true), thought(1, true), cancelled(1)]),
    ]);
    expect(steps).toStrictEqual([
      {
        role: 'assistant',
        content: [{ type: 'reasoning', text: 'so', providerOptions: sig('s') }],
      },
    ]);
    expect(toModelMessages([msg('t', 'assistant', [thought(0, true)])])).toHaveLength(1);
  });

  it('puts a steering message before the step that received it', () => {
    const out = toModelMessages([
      msg('t', 'user', [{ type: 'text', step: 0, text: 'go' }]),
      msg('t', 'assistant', [
        { type: 'tool-batch', step: 0, calls: [{ id: 'a', name: 'x', input: {}, result: 1 }] },
        { type: 'steering', step: 1, id: 's', text: 'use b instead' },
        { type: 'text', step: 1, text: 'ok' },
      ]),
    ]);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    expect(out[3]).toStrictEqual({ role: 'user', content: 'use b instead' });
  });

  it('makes a custom-only (refused) turn its own assistant message, and skips sources', () => {
    const out = toModelMessages([
      msg('a', 'user', [{ type: 'text', step: 0, text: 'q1' }]),
      msg('a', 'assistant', [
        {
          type: 'custom',
          step: 0,
          kind: 'anthropic.message_start',
          providerMetadata: { anthropic: { id: 'm' } },
        },
        { type: 'source', step: 0, source: { sourceType: 'url', id: 's', url: 'https://x' } },
      ]),
      msg('b', 'user', [{ type: 'text', step: 0, text: 'q2' }]),
    ]);
    expect(out).toStrictEqual([
      { role: 'user', content: [{ type: 'text', text: 'q1' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'custom',
            kind: 'anthropic.message_start',
            providerOptions: { anthropic: { id: 'm' } },
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'q2' }] },
    ]);
  });

  it('turns user files into file parts and generated files into file / reasoning-file parts', () => {
    const out = toModelMessages([
      msg('a', 'user', [
        { type: 'file', step: 0, mediaType: 'image/png', data: 'AAAA', filename: 'a.png' },
        { type: 'file', step: 0, mediaType: 'application/pdf', url: 'https://example.com/a.pdf' },
      ]),
      msg('a', 'assistant', [
        { type: 'file', step: 0, mediaType: 'image/png', data: 'BBBB' },
        { type: 'file', step: 0, mediaType: 'image/png', data: 'CCCC', reasoning: true },
      ]),
    ]);
    expect(out[0]).toStrictEqual({
      role: 'user',
      content: [
        { type: 'file', data: 'AAAA', mediaType: 'image/png', filename: 'a.png' },
        { type: 'file', data: new URL('https://example.com/a.pdf'), mediaType: 'application/pdf' },
      ],
    });
    expect(out[1]?.content).toStrictEqual([
      { type: 'file', data: 'BBBB', mediaType: 'image/png' },
      { type: 'reasoning-file', data: 'CCCC', mediaType: 'image/png' },
    ]);
  });

  it('pairs a result that arrived in a later turn (orphan) with its earlier call', () => {
    const out = toModelMessages([
      msg('a', 'assistant', [
        {
          type: 'tool-batch',
          step: 0,
          calls: [{ id: 'x', name: 'rm', input: {}, approval: { id: 'ap' } }],
        },
      ]),
      msg('b', 'assistant', [
        {
          type: 'tool-batch',
          step: 0,
          calls: [{ id: 'x', name: '', orphan: true, result: 'removed' }],
        },
        { type: 'text', step: 0, text: 'done' },
      ]),
    ]);
    expect(out).toStrictEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'x', toolName: 'rm', input: {} },
          { type: 'tool-approval-request', approvalId: 'ap', toolCallId: 'x' },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'x',
            toolName: 'rm',
            output: { type: 'text', value: 'removed' },
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ]);
  });

  it("with pendingApprovals 'keep', leaves a trailing call awaiting approval without a result", () => {
    const history = [
      msg('a', 'assistant', [
        {
          type: 'tool-batch',
          step: 0,
          calls: [{ id: 'x', name: 'rm', input: {}, approval: { id: 'ap' } }],
        },
      ]),
    ];
    expect(toModelMessages(history, { pendingApprovals: 'keep' }).map((m) => m.role)).toEqual([
      'assistant',
    ]);
    expect(toModelMessages(history).map((m) => m.role)).toEqual(['assistant', 'tool']);
    const later = [...history, msg('b', 'user', [{ type: 'text', step: 0, text: 'never mind' }])];
    expect(toModelMessages(later, { pendingApprovals: 'keep' }).map((m) => m.role)).toEqual([
      'assistant',
      'tool',
      'user',
    ]);
  });

  it('applies toolResultOutput to local results and maps invalid inputs like the AI SDK', () => {
    const out = toModelMessages(
      [
        msg('a', 'assistant', [
          {
            type: 'tool-batch',
            step: 0,
            calls: [
              { id: 'x', name: 'img', input: {}, result: { b64: 'AAAA' } },
              {
                id: 'y',
                name: 'nope',
                input: 'not json',
                invalid: true,
                result: 'no such tool',
                isError: true,
              },
            ],
          },
        ]),
      ],
      {
        toolResultOutput: (call) =>
          call.name === 'img'
            ? { type: 'content', value: [{ type: 'text', text: 'an image' }] }
            : undefined,
      },
    );
    expect(out[0]?.content).toContainEqual({
      type: 'tool-call',
      toolCallId: 'y',
      toolName: 'nope',
      input: {},
    });
    expect(out[1]?.content).toStrictEqual([
      {
        type: 'tool-result',
        toolCallId: 'x',
        toolName: 'img',
        output: { type: 'content', value: [{ type: 'text', text: 'an image' }] },
      },
      {
        type: 'tool-result',
        toolCallId: 'y',
        toolName: 'nope',
        output: { type: 'error-text', value: 'no such tool' },
      },
    ]);
  });

  it('keeps empty text blocks that carry metadata and drops bare empty ones, like the AI SDK', () => {
    const out = toModelMessages([
      msg('a', 'assistant', [
        { type: 'text', step: 0, text: '' },
        { type: 'text', step: 0, text: '', providerMetadata: { openai: { itemId: 'm' } } },
      ]),
    ]);
    expect(out).toStrictEqual([
      {
        role: 'assistant',
        content: [{ type: 'text', text: '', providerOptions: { openai: { itemId: 'm' } } }],
      },
    ]);
  });

  it('validates options, naming the option', () => {
    const option = (o: unknown) => {
      try {
        toModelMessages([], o as ToModelMessagesOptions);
        return 'ok';
      } catch (error) {
        expect(ChunklogError.hasCode(error, 'invalid-option')).toBe(true);
        return (error as ChunklogError).option;
      }
    };
    expect(option({ targetModelId: '' })).toBe('targetModelId');
    expect(option({ foreignReasoning: 'drop' })).toBe('foreignReasoning');
    expect(option({ pendingApprovals: true })).toBe('pendingApprovals');
    expect(option({ unansweredToolResult: 1 })).toBe('unansweredToolResult');
    expect(option({ toolResultOutput: 'x' })).toBe('toolResultOutput');
    expect(option({ targetModel: 'x' })).toBe('targetModel');
    expect(option(null)).toBe('options');
    expect(option({ targetModelId: undefined })).toBe('ok');
  });
});

describe('toModelMessages reasoning replay', () => {
  const thinkingTurn = (): ChatMessage[] => [
    msg('a', 'user', [{ type: 'text', step: 0, text: 'q' }]),
    msg('a', 'assistant', [
      { type: 'thinking', step: 0, text: 'old', providerMetadata: sig('A'), modelId: 'opus' },
      {
        type: 'thinking',
        step: 0,
        text: '',
        providerMetadata: { anthropic: { redactedData: 'R' } },
        modelId: 'opus',
      },
      { type: 'text', step: 0, text: 'answer' },
      { type: 'thinking', step: 0, text: 'unknown model', providerMetadata: sig('U') },
    ]),
  ];

  it('replays signatures when the target model is the recorded one', () => {
    const out = toModelMessages(thinkingTurn(), { targetModelId: 'opus' });
    expect(out[1]?.content).toStrictEqual([
      { type: 'reasoning', text: 'old', providerOptions: sig('A') },
      { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'R' } } },
      { type: 'text', text: 'answer' },
      { type: 'reasoning', text: 'unknown model', providerOptions: sig('U') },
    ]);
  });

  it('omits (default) or strips reasoning recorded for another model', () => {
    expect(toModelMessages(thinkingTurn(), { targetModelId: 'sonnet' })[1]?.content).toStrictEqual([
      { type: 'text', text: 'answer' },
      { type: 'reasoning', text: 'unknown model', providerOptions: sig('U') },
    ]);
    expect(
      toModelMessages(thinkingTurn(), { targetModelId: 'sonnet', foreignReasoning: 'strip' })[1]
        ?.content,
    ).toStrictEqual([
      { type: 'reasoning', text: 'old' },
      { type: 'text', text: 'answer' },
      { type: 'reasoning', text: 'unknown model', providerOptions: sig('U') },
    ]);
  });

  it('takes an alias as its dated snapshot (what a stream records), and no other model', () => {
    const recordedAs = (modelId: string): ChatMessage[] => [
      msg('a', 'user', [{ type: 'text', step: 0, text: 'q' }]),
      msg('a', 'assistant', [
        { type: 'thinking', step: 0, text: 'kept?', providerMetadata: sig('A'), modelId },
        { type: 'text', step: 0, text: 'answer' },
      ]),
    ];
    const kept = (modelId: string, targetModelId: string) =>
      JSON.stringify(toModelMessages(recordedAs(modelId), { targetModelId })).includes('kept?');
    expect(kept('gpt-5-nano-2025-08-07', 'gpt-5-nano')).toBe(true);
    expect(kept('claude-sonnet-4-5-20250929', 'claude-sonnet-4-5')).toBe(true);
    expect(kept('claude-sonnet-4-5', 'claude-sonnet-4-5-20250929')).toBe(true);
    expect(kept('claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-latest')).toBe(true);
    expect(kept('gpt-5-nano-2025-08-07', 'gpt-5')).toBe(false);
    expect(kept('gpt-5-mini-2025-08-07', 'gpt-5-nano')).toBe(false);
    expect(kept('claude-opus-4-1-20250805', 'claude-sonnet-4-5')).toBe(false);
  });

  it('treats all reasoning before the last model-changed notice as foreign, even in a system message', () => {
    const messages = [
      ...thinkingTurn(),
      msg('s', 'system', [{ type: 'system', step: 0, kind: 'model-changed', text: 'now sonnet' }]),
      msg('b', 'user', [{ type: 'text', step: 0, text: 'q2' }]),
      msg('b', 'assistant', [
        { type: 'thinking', step: 0, text: 'new', providerMetadata: sig('B') },
      ]),
    ];
    const out = toModelMessages(messages, { foreignReasoning: 'strip' });
    expect(out[1]?.content).toStrictEqual([
      { type: 'reasoning', text: 'old' },
      { type: 'text', text: 'answer' },
      { type: 'reasoning', text: 'unknown model' },
    ]);
    expect(out[3]?.content).toStrictEqual([
      { type: 'reasoning', text: 'new', providerOptions: sig('B') },
    ]);
  });

  it('applies a model change inside a turn to the reasoning before it only', () => {
    const out = toModelMessages([
      msg('a', 'assistant', [
        { type: 'thinking', step: 0, text: 'x', providerMetadata: sig('X') },
        { type: 'system', step: 0, kind: 'model-changed', text: 'rate limit' },
        { type: 'thinking', step: 1, text: 'y', providerMetadata: sig('Y') },
      ]),
    ]);
    expect(out).toStrictEqual([
      { role: 'assistant', content: [{ type: 'reasoning', text: 'y', providerOptions: sig('Y') }] },
    ]);
  });
});

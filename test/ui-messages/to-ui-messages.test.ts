import { convertToModelMessages, validateUIMessages } from 'ai';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/schema/index.js';
import {
  CHUNKLOG_DATA_PARTS,
  toUIMessages,
  uiMessagesToChatMessages,
} from '../../src/ui-messages/index.js';

const metadata = { anthropic: { signature: 'sig' } };

/** One turn with every kind of chunk, and a system message after it. */
const thread: ChatMessage[] = [
  {
    id: 't1:user',
    turnId: 't1',
    role: 'user',
    chunks: [
      { type: 'text', step: 0, text: 'What is in this picture?' },
      { type: 'file', step: 0, mediaType: 'image/png', data: 'iVBORw0=', filename: 'a.png' },
    ],
  },
  {
    id: 't1:assistant',
    turnId: 't1',
    role: 'assistant',
    chunks: [
      { type: 'thinking', step: 0, id: 'r1', text: 'Look first.', providerMetadata: metadata },
      { type: 'text', step: 0, text: 'Looking.' },
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          { id: 'c1', name: 'zoom', input: { x: 1 }, result: { ok: true }, progress: 'zooming…' },
          { id: 'c2', name: 'shell', input: { cmd: 'ls' }, result: 'exit 1', isError: true },
          {
            id: 'c3',
            name: 'rm',
            input: { path: '/' },
            result: null,
            isError: true,
            denied: true,
            approval: { id: 'a3', approved: false, reason: 'no' },
          },
          { id: 'c4', name: 'send', input: {}, approval: { id: 'a4', reason: 'sends mail' } },
          { id: 'c5', name: 'plot', input: {}, preliminary: { percent: 50 } },
          { id: 'c6', name: 'mcp_search', input: { q: 'x' }, dynamic: true },
        ],
      },
      { type: 'system', step: 0, kind: 'model-changed', text: 'Switched to a smaller model' },
      { type: 'steering', step: 1, id: 's1', text: 'Also check the colours.' },
      {
        type: 'source',
        step: 1,
        source: { sourceType: 'url', id: 'src1', url: 'https://example.com', title: 'Example' },
      },
      {
        type: 'text',
        step: 1,
        text: 'It is a cat.',
        citations: [{ source: { sourceType: 'url', id: 'src1', url: 'https://example.com' } }],
      },
      { type: 'custom', step: 1, kind: 'anthropic.fallback' },
      { type: 'error', step: 1, message: 'Overloaded', statusCode: 529 },
    ],
  },
  {
    id: 't2:system',
    turnId: 't2',
    role: 'system',
    chunks: [{ type: 'system', step: 0, kind: 'config-reload', text: 'Settings reloaded' }],
  },
];

describe('toUIMessages', () => {
  it('keeps chunk order, with the AI SDK part for each chunk and a step-start per step', () => {
    expect(toUIMessages(thread)).toStrictEqual([
      {
        id: 't1:user',
        role: 'user',
        parts: [
          { type: 'text', text: 'What is in this picture?' },
          {
            type: 'file',
            mediaType: 'image/png',
            filename: 'a.png',
            url: 'data:image/png;base64,iVBORw0=',
          },
        ],
      },
      {
        id: 't1:assistant',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          {
            type: 'reasoning',
            id: 'r1',
            text: 'Look first.',
            state: 'done',
            providerMetadata: metadata,
          },
          { type: 'text', text: 'Looking.', state: 'done' },
          {
            type: 'tool-zoom',
            toolCallId: 'c1',
            state: 'output-available',
            input: { x: 1 },
            output: { ok: true },
          },
          {
            type: 'tool-shell',
            toolCallId: 'c2',
            state: 'output-error',
            input: { cmd: 'ls' },
            errorText: 'exit 1',
          },
          {
            type: 'tool-rm',
            toolCallId: 'c3',
            state: 'output-denied',
            input: { path: '/' },
            approval: { id: 'a3', approved: false, reason: 'no' },
          },
          {
            type: 'tool-send',
            toolCallId: 'c4',
            state: 'approval-requested',
            input: {},
            approval: { id: 'a4', requestReason: 'sends mail' },
          },
          {
            type: 'tool-plot',
            toolCallId: 'c5',
            state: 'output-available',
            input: {},
            output: { percent: 50 },
            preliminary: true,
          },
          {
            type: 'dynamic-tool',
            toolName: 'mcp_search',
            toolCallId: 'c6',
            state: 'input-available',
            input: { q: 'x' },
          },
          {
            type: CHUNKLOG_DATA_PARTS.toolProgress,
            id: 'c1',
            data: { toolCallId: 'c1', text: 'zooming…' },
          },
          {
            type: CHUNKLOG_DATA_PARTS.system,
            data: { kind: 'model-changed', text: 'Switched to a smaller model' },
          },
          {
            type: 'steering-message',
            id: 's1',
            parts: [{ type: 'text', text: 'Also check the colours.' }],
          },
          { type: 'step-start' },
          {
            type: 'source-url',
            sourceId: 'src1',
            url: 'https://example.com',
            title: 'Example',
          },
          {
            type: 'text',
            text: 'It is a cat.',
            state: 'done',
            citations: [
              {
                source: {
                  type: 'source',
                  sourceType: 'url',
                  id: 'src1',
                  url: 'https://example.com',
                },
              },
            ],
          },
          { type: 'custom', kind: 'anthropic.fallback' },
          { type: CHUNKLOG_DATA_PARTS.error, data: { message: 'Overloaded', statusCode: 529 } },
        ],
      },
      {
        id: 't2:system',
        role: 'assistant',
        parts: [
          {
            type: CHUNKLOG_DATA_PARTS.system,
            data: { kind: 'config-reload', text: 'Settings reloaded' },
          },
        ],
      },
    ]);
  });

  it("keeps a call's and its result's provider metadata in the AI SDK's two fields, both ways", async () => {
    const call = {
      id: 'ws',
      name: 'web_search',
      input: { q: 'x' },
      providerExecuted: true,
      result: { hits: 1 },
      providerMetadata: { openai: { itemId: 'ws_call' } },
      resultProviderMetadata: { openai: { itemId: 'ws_result' } },
    };
    const messages: ChatMessage[] = [
      {
        id: 'w:assistant',
        turnId: 'w',
        role: 'assistant',
        chunks: [{ type: 'tool-batch', step: 0, calls: [call] }],
      },
    ];
    const ui = toUIMessages(messages);
    expect(ui[0]?.parts[1]).toStrictEqual({
      type: 'tool-web_search',
      toolCallId: 'ws',
      state: 'output-available',
      providerExecuted: true,
      input: { q: 'x' },
      output: { hits: 1 },
      callProviderMetadata: { openai: { itemId: 'ws_call' } },
      resultProviderMetadata: { openai: { itemId: 'ws_result' } },
    });
    expect(await uiMessagesToChatMessages(ui)).toStrictEqual(messages);
    // convertToModelMessages puts each where it belongs, as toModelMessages does.
    const [assistant] = await convertToModelMessages(ui);
    expect(assistant?.content).toMatchObject([
      { type: 'tool-call', providerOptions: { openai: { itemId: 'ws_call' } } },
      { type: 'tool-result', providerOptions: { openai: { itemId: 'ws_result' } } },
    ]);
  });

  it('gives messages that validateUIMessages accepts', async () => {
    const ui = toUIMessages(thread);
    await expect(validateUIMessages({ messages: ui })).resolves.toStrictEqual(ui);
  });

  it('sends no system notice, error or progress text to the model', async () => {
    const modelMessages = await convertToModelMessages(toUIMessages(thread), {
      ignoreIncompleteToolCalls: true,
    });
    const sent = JSON.stringify(modelMessages);
    for (const hidden of ['Switched to', 'Settings reloaded', 'Overloaded', 'zooming']) {
      expect(sent).not.toContain(hidden);
    }
    expect(modelMessages.map((m) => m.role)).not.toContain('system');
    expect(sent).toContain('Also check the colours.');
  });
});

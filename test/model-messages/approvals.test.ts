// A turn that stopped for a tool approval, stored, and resumed from the store: with
// `pendingApprovals: 'keep'` the rebuilt history ends with the call and its approval request, so
// the app can answer it and the AI SDK runs the approved call.
import { jsonSchema, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  type ChatMessage,
  type ChunkRow,
  explodeTurn,
  foldStream,
  groupRowsToMessages,
  toModelMessages,
} from '../../src/index.js';
import { partStream, streamParts } from './support/mock-stream.js';

const history: ChatMessage[] = [
  {
    id: 't:user',
    turnId: 't',
    role: 'user',
    chunks: [{ type: 'text', step: 0, text: 'Delete tmp/' }],
  },
  {
    id: 't:assistant',
    turnId: 't',
    role: 'assistant',
    chunks: [
      { type: 'text', step: 0, text: 'Deleting.' },
      {
        type: 'tool-batch',
        step: 0,
        calls: [
          { id: 'call-rm', name: 'rm', input: { path: 'tmp/' }, approval: { id: 'approval-1' } },
        ],
      },
    ],
  },
];

describe('approvals from a stored history', () => {
  it("'keep' leaves the pending call open so the AI SDK runs it once approved", async () => {
    const ran: string[] = [];
    const model = new MockLanguageModelV4({
      doStream: async () => ({
        stream: partStream(streamParts([{ type: 'text', text: 'Deleted.' }], 'm1')),
      }),
    });
    const messages = toModelMessages(history, { pendingApprovals: 'keep' });
    expect(messages.at(-1)).toStrictEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Deleting.' },
        { type: 'tool-call', toolCallId: 'call-rm', toolName: 'rm', input: { path: 'tmp/' } },
        { type: 'tool-approval-request', approvalId: 'approval-1', toolCallId: 'call-rm' },
      ],
    });
    const result = streamText({
      model,
      messages: [
        ...messages,
        {
          role: 'tool',
          content: [{ type: 'tool-approval-response', approvalId: 'approval-1', approved: true }],
        },
      ],
      tools: {
        rm: tool({
          inputSchema: jsonSchema<{ path: string }>({
            type: 'object',
            properties: { path: { type: 'string' } },
          }),
          needsApproval: true,
          execute: async ({ path }) => {
            ran.push(path);
            return `removed ${path}`;
          },
        }),
      },
    });
    await result.consumeStream();
    expect(ran).toEqual(['tmp/']);
    const prompt = JSON.stringify(model.doStreamCalls[0]?.prompt);
    expect(prompt).toContain('removed tmp/');
  });

  it('by default the pending call gets the unanswered error result, so a new message can follow', () => {
    const messages = toModelMessages(history);
    expect(messages.at(-1)).toStrictEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-rm',
          toolName: 'rm',
          output: { type: 'error-text', value: expect.stringContaining('interrupted') },
        },
      ],
    });
  });

  it('a signed approval request survives fold, store and rebuild, and the AI SDK accepts the answer', async () => {
    const secret = 'approval-secret';
    const ran: string[] = [];
    const tools = {
      rm: tool({
        inputSchema: jsonSchema<{ path: string }>({
          type: 'object',
          properties: { path: { type: 'string' } },
        }),
        needsApproval: true,
        execute: async ({ path }) => {
          ran.push(path);
          return `removed ${path}`;
        },
      }),
    };
    const scripts = [
      streamParts([{ type: 'call', id: 'call-rm', name: 'rm', input: { path: 'tmp/' } }], 'm1'),
      streamParts([{ type: 'text', text: 'Deleted.' }], 'm2'),
    ];
    let call = 0;
    const model = new MockLanguageModelV4({
      doStream: async () => ({ stream: partStream(scripts[call++] ?? []) }),
    });

    // Turn 1 stops at the approval request; fold it and store it as rows (through JSON).
    const turn1 = streamText({
      model,
      messages: [{ role: 'user', content: 'Delete tmp/' }],
      tools,
      experimental_toolApprovalSecret: secret,
    });
    const state = await foldStream(turn1.stream);
    const rows = [
      ...explodeTurn('t1', [{ type: 'text', step: 0, text: 'Delete tmp/' }], { role: 'user' }),
      ...explodeTurn('t1', state.chunks, { role: 'assistant' }),
    ].map((d, i) => ({ ...d, threadId: 'th', seq: i + 1 }) as ChunkRow);
    const stored = JSON.parse(JSON.stringify(rows)) as ChunkRow[];
    const approval = stored.find((r) => r.type === 'tool_call')?.data;
    expect(approval).toMatchObject({ approval: { signature: expect.any(String) } });

    // Turn 2: the app approves from the stored history.
    const history = toModelMessages(groupRowsToMessages(stored), { pendingApprovals: 'keep' });
    const approvalId = (approval as { approval: { id: string } }).approval.id;
    const turn2 = streamText({
      model,
      messages: [
        ...history,
        { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] },
      ],
      tools,
      experimental_toolApprovalSecret: secret,
    });
    await turn2.consumeStream();
    expect(ran).toEqual(['tmp/']);
    expect(JSON.stringify(model.doStreamCalls[1]?.prompt)).toContain('removed tmp/');
  });
});

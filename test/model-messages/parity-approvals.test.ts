// Parity with the AI SDK's own loop for approvals and tool metadata (notes/0011 §7, items 3 and
// 4): what streamText sends the model in the next step is the reference. The history rebuilt by
// toModelMessages from the folded, stored chunks must make the model receive the same prompt.
import type { LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { jsonSchema, type ModelMessage, stepCountIs, streamText, type ToolSet, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import {
  type Chunk,
  type ChunkRow,
  explodeTurn,
  foldStream,
  groupRowsToMessages,
  toModelMessages,
} from '../../src/index.js';
import { partStream } from './support/mock-stream.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const finish = (unified: 'tool-calls' | 'stop'): LanguageModelV4StreamPart => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage,
});
const answer: LanguageModelV4StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'done' },
  { type: 'text-end', id: 't' },
  finish('stop'),
];
const call = (id: string, name: string, input: unknown, itemId: string) =>
  ({
    type: 'tool-call',
    toolCallId: id,
    toolName: name,
    input: JSON.stringify(input),
    providerMetadata: { mock: { itemId } },
  }) as const;

/** A web search the provider runs itself (same item id on call and result, as OpenAI sends). */
const webSearch: LanguageModelV4StreamPart[] = [
  { ...call('ws1', 'web_search', { q: 'x' }, 'ws_1'), providerExecuted: true },
  {
    type: 'tool-result',
    toolCallId: 'ws1',
    toolName: 'web_search',
    result: { hits: 1 },
    providerMetadata: { mock: { itemId: 'ws_1' } },
  },
];

const object = jsonSchema<Record<string, unknown>>({ type: 'object' });
const tools = {
  web_search: tool({ inputSchema: object }),
  mcp_tool: tool({ inputSchema: object }),
  read: tool({ inputSchema: object, execute: async () => 'A' }),
  rm: tool({ inputSchema: object, execute: async () => 'removed' }),
  list: tool({
    inputSchema: object,
    execute: async (): Promise<string> => {
      throw new Error('nope');
    },
  }),
} satisfies ToolSet;

function model(steps: LanguageModelV4StreamPart[][]): MockLanguageModelV4 {
  let n = 0;
  return new MockLanguageModelV4({
    doStream: async () => ({ stream: partStream(steps[n++] ?? answer) }),
  });
}

/** JSON-normalised, as the request would be serialised. */
const normal = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/** Rows as a store gives them back (with seqs, through JSON), grouped. */
function stored(turns: Array<{ turnId: string; user: Chunk[]; assistant: readonly Chunk[] }>) {
  const drafts = turns.flatMap((t) => [
    ...explodeTurn(t.turnId, t.user, { role: 'user' }),
    ...explodeTurn(t.turnId, t.assistant, { role: 'assistant' }),
  ]);
  const rows = drafts.map((d, i) => ({ ...d, threadId: 'th', seq: i + 1 }) as ChunkRow);
  return groupRowsToMessages(normal(rows) as ChunkRow[]);
}

/** The prompt the model receives for `messages`. */
async function promptFor(messages: ModelMessage[]): Promise<LanguageModelV4CallOptions['prompt']> {
  const replay = model([answer]);
  await streamText({ model: replay, messages, tools }).consumeStream();
  return replay.doStreamCalls[0]?.prompt ?? [];
}

const user: Chunk[] = [{ type: 'text', step: 0, text: 'hi' }];

describe('parity with the AI SDK loop: approvals and tool metadata', () => {
  it('answers approvals (a provider-executed one included) and puts call metadata on local results', async () => {
    const run = model([
      [
        { type: 'stream-start', warnings: [] },
        ...webSearch,
        call('r1', 'read', { path: 'a' }, 'fc_r'),
        call('d1', 'rm', { path: 'b' }, 'fc_d'),
        call('l1', 'list', {}, 'fc_l'),
        finish('tool-calls'),
      ],
      answer,
    ]);
    const result = streamText({
      model: run,
      messages: [{ role: 'user', content: 'hi' }],
      tools,
      toolApproval: { web_search: 'approved', read: 'approved', rm: 'denied' },
      stopWhen: stepCountIs(5),
    });
    const { chunks } = await foldStream(result.stream);
    expect(run.doStreamCalls).toHaveLength(2);

    // The prompt of step 1: the approval of the provider's tool reaches the provider, and each
    // local result carries its call's provider metadata, as the AI SDK's loop sends them.
    const history = toModelMessages(
      stored([{ turnId: 't1', user, assistant: chunks.filter((c) => c.step === 0) }]),
    );
    const theirs = normal(run.doStreamCalls[1]?.prompt);
    expect(normal(await promptFor(history))).toStrictEqual(theirs);
    expect(JSON.stringify(theirs)).toContain('"type":"tool-approval-response"');
    expect(JSON.stringify(theirs)).toContain(
      '"toolCallId":"r1","toolName":"read","output":{"type":"text","value":"A"},"providerOptions":{"mock":{"itemId":"fc_r"}}',
    );

    // The whole turn: the AI SDK's own response messages, part for part.
    const whole = toModelMessages(stored([{ turnId: 't1', user, assistant: chunks }]));
    expect(normal(whole)).toStrictEqual(
      normal([
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        ...(await result.responseMessages),
      ]),
    );
  });

  it("sends a provider-executed call and its result each with its own metadata, as the AI SDK's loop does", async () => {
    const run = model([
      [
        { type: 'stream-start', warnings: [] },
        { ...call('ws2', 'web_search', { q: 'y' }, 'ws_call'), providerExecuted: true },
        {
          type: 'tool-result',
          toolCallId: 'ws2',
          toolName: 'web_search',
          result: { hits: 2 },
          providerMetadata: { mock: { itemId: 'ws_result', status: 'completed' } },
        },
        call('r1', 'read', { path: 'a' }, 'fc_r'),
        finish('tool-calls'),
      ],
      answer,
    ]);
    const result = streamText({
      model: run,
      messages: [{ role: 'user', content: 'hi' }],
      tools,
      stopWhen: stepCountIs(5),
    });
    const { chunks } = await foldStream(result.stream);
    expect(run.doStreamCalls).toHaveLength(2);

    const history = toModelMessages(
      stored([{ turnId: 't1', user, assistant: chunks.filter((c) => c.step === 0) }]),
    );
    const theirs = normal(run.doStreamCalls[1]?.prompt);
    expect(normal(await promptFor(history))).toStrictEqual(theirs);
    // Each part carries its own item id: neither overwrote the other.
    const assistant = (theirs as Array<{ role: string; content: unknown[] }>)[1];
    expect(assistant?.content.slice(0, 2)).toMatchObject([
      { type: 'tool-call', toolCallId: 'ws2', providerOptions: { mock: { itemId: 'ws_call' } } },
      {
        type: 'tool-result',
        toolCallId: 'ws2',
        providerOptions: { mock: { itemId: 'ws_result', status: 'completed' } },
      },
    ]);

    const whole = toModelMessages(stored([{ turnId: 't1', user, assistant: chunks }]));
    expect(normal(whole)).toStrictEqual(
      normal([
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        ...(await result.responseMessages),
      ]),
    );
  });

  it('answers the denial of a provider-executed call in the tool message, as the AI SDK does', async () => {
    const run = model([
      [{ type: 'stream-start', warnings: [] }, ...webSearch, finish('tool-calls')],
    ]);
    const result = streamText({
      model: run,
      messages: [{ role: 'user', content: 'hi' }],
      tools,
      toolApproval: { web_search: 'denied' },
    });
    const { chunks } = await foldStream(result.stream);
    const whole = toModelMessages(stored([{ turnId: 't1', user, assistant: chunks }]));
    expect(normal(whole)).toStrictEqual(
      normal([
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        ...(await result.responseMessages),
      ]),
    );
    expect(whole.at(-1)).toMatchObject({
      role: 'tool',
      content: [
        { type: 'tool-approval-response', approved: false, providerExecuted: true },
        { type: 'tool-result', toolCallId: 'ws1', output: { type: 'execution-denied' } },
      ],
    });
  });

  it('sends a result that came in a later run (an approved call) without the call metadata', async () => {
    const needsApproval = {
      rm: tool({ inputSchema: object, needsApproval: true, execute: async () => 'removed' }),
    };
    const run = model([
      [
        { type: 'stream-start', warnings: [] },
        call('d1', 'rm', { path: 'b' }, 'fc_d'),
        finish('tool-calls'),
      ],
      answer,
    ]);
    const first = streamText({
      model: run,
      messages: [{ role: 'user', content: 'hi' }],
      tools: needsApproval,
    });
    const turn1 = (await foldStream(first.stream)).chunks;
    const kept = toModelMessages(stored([{ turnId: 't1', user, assistant: turn1 }]), {
      pendingApprovals: 'keep',
    });
    const approvalId = (turn1[0] as Extract<Chunk, { type: 'tool-batch' }>).calls[0]?.approval?.id;
    // The app approves from the stored history; the AI SDK runs the call, then asks the model.
    const second = streamText({
      model: run,
      messages: [
        ...kept,
        {
          role: 'tool',
          content: [
            { type: 'tool-approval-response', approvalId: approvalId ?? '', approved: true },
          ],
        },
      ],
      tools: needsApproval,
    });
    const turn2 = (await foldStream(second.stream)).chunks;
    const resultOnly = turn2.filter((c) => c.type === 'tool-batch');
    const history = toModelMessages(
      stored([
        { turnId: 't1', user, assistant: turn1 },
        { turnId: 't2', user: [], assistant: resultOnly },
      ]),
    );
    expect(normal(await promptFor(history))).toStrictEqual(normal(run.doStreamCalls[1]?.prompt));
    expect(history.at(-1)).toStrictEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'd1',
          toolName: 'rm',
          output: { type: 'text', value: 'removed' },
        },
      ],
    });
  });

  it("keeps a provider's pending approval at the end with 'keep', so the app can answer it", async () => {
    const run = model([
      [
        { type: 'stream-start', warnings: [] },
        { ...call('m1', 'mcp_tool', { q: 1 }, 'mcp_1'), providerExecuted: true },
        { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'm1' },
        finish('stop'),
      ],
    ]);
    const first = streamText({
      model: run,
      messages: [{ role: 'user', content: 'hi' }],
      tools,
    });
    const turn1 = (await foldStream(first.stream)).chunks;
    const history = stored([{ turnId: 't1', user, assistant: turn1 }]);
    const answer: ModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-approval-response',
          approvalId: 'ap1',
          approved: true,
          providerExecuted: true,
        },
      ],
    };
    // What the provider receives when the app answers from the AI SDK's own messages…
    const theirs = model([]);
    await streamText({
      model: theirs,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        ...(await first.responseMessages),
        answer,
      ],
      tools,
    }).consumeStream();
    // …and from the history chunklog stored.
    const ours = model([]);
    await streamText({
      model: ours,
      messages: [...toModelMessages(history, { pendingApprovals: 'keep' }), answer],
      tools,
    }).consumeStream();
    expect(normal(ours.doStreamCalls[0]?.prompt)).toStrictEqual(
      normal(theirs.doStreamCalls[0]?.prompt),
    );
    expect(JSON.stringify(ours.doStreamCalls[0]?.prompt)).toContain(
      '"type":"tool-approval-response"',
    );
    // By default the pending provider call is left out: there is no result to send for it.
    expect(JSON.stringify(toModelMessages(history))).not.toContain('mcp_tool');
  });
});

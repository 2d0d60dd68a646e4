import { createAnthropic } from '@ai-sdk/anthropic';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import { describeError, type ErrorInfo, errorNextStep } from '../../src/schema/index.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';
import { listFiles, readFile } from './fixtures.js';
import {
  block,
  gate,
  openSqliteStore,
  plainRows,
  recordEvents,
  sequentialIds,
  toolCall,
} from './support.js';

const cache = { anthropic: { cacheControl: { type: 'ephemeral' } } };

describe('provider errors', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it('an error in the middle of the stream becomes an error chunk with its status code', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(
      [
        {
          parts: [
            { type: 'reasoning', text: 'Hmm.', signature: 'sig-1' },
            { type: 'text', text: 'Partial answer' },
            { type: 'error', statusCode: 500, message: 'Internal boom' },
          ],
        },
        { parts: [{ type: 'text', text: 'Recovered.' }] },
      ],
      { modelId: 'm' },
    );
    const session = createAgentSession({
      store,
      threadId: 'e1',
      model,
      maxRetries: 0,
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const turn = session.send('go');
    const rows = await turn.rows;
    expect(recorded.ofTurn('t1')).toEqual([
      { type: 'turn-start', turnId: 't1', userText: 'go' },
      { type: 'step-start', step: 0 },
      ...block('reasoning', '0-0', ['Hmm.'], 'sig-1'),
      ...block('text', '0-1', ['Partial ', 'answer']),
      {
        type: 'error',
        message: 'Internal boom',
        statusCode: 500,
        kind: 'server',
        retryable: true,
        provider: 'scripted',
        modelId: 'm',
      },
      { type: 'step-finish', finishReason: 'error', modelId: 'm', step: 0 },
      { type: 'turn-end', finishReason: 'error' },
    ] satisfies ChunkEvent[]);
    expect(plainRows(rows)).toEqual([
      {
        threadId: 'e1',
        seq: 1,
        turnId: 't1',
        step: 0,
        role: 'user',
        type: 'text',
        data: { text: 'go' },
      },
      {
        threadId: 'e1',
        seq: 2,
        turnId: 't1',
        step: 0,
        role: 'assistant',
        type: 'thinking',
        data: {
          text: 'Hmm.',
          id: '0-0',
          providerMetadata: { anthropic: { signature: 'sig-1' } },
          modelId: 'm',
        },
      },
      {
        threadId: 'e1',
        seq: 3,
        turnId: 't1',
        step: 0,
        role: 'assistant',
        type: 'text',
        data: { text: 'Partial answer', id: '0-1' },
      },
      {
        threadId: 'e1',
        seq: 4,
        turnId: 't1',
        step: 0,
        role: 'assistant',
        type: 'error',
        data: {
          message: 'Internal boom',
          statusCode: 500,
          kind: 'server',
          retryable: true,
          provider: 'scripted',
          modelId: 'm',
        },
      },
    ]);
    expect((await turn.result).outcome).toBe('failed');
    // The error chunk never reaches the model.
    const expectedNext = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'Hmm.',
            providerOptions: { anthropic: { signature: 'sig-1' } },
          },
          { type: 'text', text: 'Partial answer' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'retry' }] },
    ];
    expect(await session.modelMessages('retry')).toEqual(expectedNext);
    await session.send('retry').rows;
    expect(model.prompts[1]).toEqual(expectedNext);
  });

  it('a call that fails before streaming (429 without fallbacks) becomes an error chunk', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(parseScript('fail 429'));
    const session = createAgentSession({
      store,
      threadId: 'e2',
      model,
      maxRetries: 0,
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const rows = await session.send('go').rows;
    expect(recorded.ofTurn('t1')).toEqual([
      { type: 'turn-start', turnId: 't1', userText: 'go' },
      {
        type: 'error',
        message: 'Rate limit exceeded',
        statusCode: 429,
        kind: 'rate-limit',
        retryable: true,
        provider: 'scripted',
        modelId: 'scripted-model',
      },
      { type: 'turn-end', finishReason: 'error' },
    ]);
    expect(rows.map((r) => [r.role, r.type, r.step, r.data])).toEqual([
      ['user', 'text', 0, { text: 'go' }],
      [
        'assistant',
        'error',
        0,
        {
          message: 'Rate limit exceeded',
          statusCode: 429,
          kind: 'rate-limit',
          retryable: true,
          provider: 'scripted',
          modelId: 'scripted-model',
        },
      ],
    ]);
    expect(await session.modelMessages()).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
    ]);
  });

  it('a stream that breaks becomes an error chunk too', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(parseScript('text half\nthrow 502'));
    const session = createAgentSession({
      store,
      threadId: 'e3',
      model,
      maxRetries: 0,
      idGenerator: sequentialIds(),
    });
    const turn = session.send('go');
    const rows = await turn.rows;
    expect(rows.map((r) => [r.type, r.data])).toEqual([
      ['text', { text: 'go' }],
      ['text', { text: 'half', id: '0-0' }],
      [
        'error',
        {
          message: 'Bad gateway',
          statusCode: 502,
          kind: 'server',
          retryable: true,
          provider: 'scripted',
          modelId: 'scripted-model',
        },
      ],
    ]);
    expect((await turn.result).finishReason).toBe('error');
  });

  it('a bad key: the error chunk names the model, the status and that a retry will not help', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const model = createScriptedModel(
      [{ fail: { statusCode: 401, message: 'invalid x-api-key' } }],
      {
        provider: 'anthropic.messages',
        modelId: 'claude-x',
      },
    );
    const session = createAgentSession({
      store,
      threadId: 'e4',
      model,
      maxRetries: 0,
      idGenerator: sequentialIds(),
    });
    const rows = await session.send('go').rows;
    const error = rows.at(-1);
    expect(error?.type).toBe('error');
    expect(error?.data).toStrictEqual({
      message: 'invalid x-api-key',
      statusCode: 401,
      kind: 'auth',
      retryable: false,
      provider: 'anthropic.messages',
      modelId: 'claude-x',
    });
    // Read back from the store as written.
    const page = await store.getChunks('e4', { limit: 10 });
    expect(page.chunks.at(-1)?.data).toStrictEqual(error?.data);
    expect(describeError(error?.data as ErrorInfo)).toBe(
      'Error from anthropic claude-x (HTTP 401): invalid x-api-key — check the API key, then send again',
    );
  });

  it('no network: a real provider whose fetch fails stores a network error of that model', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const fetch = async () => {
      const cause = Object.assign(new Error('getaddrinfo ENOTFOUND api.anthropic.com'), {
        code: 'ENOTFOUND',
      });
      throw new TypeError('fetch failed', { cause });
    };
    const session = createAgentSession({
      store,
      threadId: 'e5',
      model: createAnthropic({ apiKey: 'k', fetch })('claude-x'),
      maxRetries: 0,
      idGenerator: sequentialIds(),
    });
    const rows = await session.send('go').rows;
    expect(rows.at(-1)?.data).toStrictEqual({
      message: 'Cannot connect to API: getaddrinfo ENOTFOUND api.anthropic.com',
      kind: 'network',
      retryable: true,
      provider: 'anthropic.messages',
      modelId: 'claude-x',
    });
    expect(errorNextStep(rows.at(-1)?.data as ErrorInfo)).toBe(
      'check the network connection, then send again',
    );
  });
});

describe('fallback models', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  it("a rate limit mid-stream moves to the next model: the plan's example turn", async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const primary = createScriptedModel(
      [
        {
          parts: [
            { type: 'reasoning', text: 'I should...', signature: 'sig-opus' },
            { type: 'text', text: "Sure, here's the gist..." },
            { type: 'error', statusCode: 429 },
          ],
        },
        { parts: [{ type: 'text', text: 'Back on opus.' }] },
      ],
      { provider: 'anthropic.messages', modelId: 'claude-opus' },
    );
    const backup = createScriptedModel(
      [
        {
          parts: [
            {
              type: 'reasoning',
              text: 'Now I need to look at...',
              signature: 'sig-sonnet',
              id: 's-0',
            },
            {
              type: 'tool-call',
              toolName: 'read_file',
              input: { path: 'x.ts' },
              toolCallId: 'read-1',
            },
            {
              type: 'tool-call',
              toolName: 'list_files',
              input: { dir: '.' },
              toolCallId: 'list-1',
            },
          ],
        },
        {
          parts: [
            { type: 'text', text: 'Looking at the file...', id: 's-1' },
            { type: 'error', statusCode: 503, message: 'Network error' },
          ],
        },
      ],
      { provider: 'anthropic.messages', modelId: 'claude-sonnet-4' },
    );
    const session = createAgentSession({
      store,
      threadId: 'f1',
      model: primary,
      fallbackModels: [backup],
      tools: { read_file: readFile, list_files: listFiles },
      maxRetries: 0,
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const rows = await session.send('explain X').rows;
    const switched = 'Switched from claude-opus to claude-sonnet-4 (rate limit, HTTP 429)';
    const usage = { inputTokens: 34, outputTokens: 13, totalTokens: 47, reasoningTokens: 6 };
    expect(recorded.ofTurn('t1')).toEqual([
      { type: 'turn-start', turnId: 't1', userText: 'explain X' },
      { type: 'step-start', step: 0 },
      ...block('reasoning', '0-0', ['I ', 'should...'], 'sig-opus'),
      ...block('text', '0-1', ['Sure, ', "here's ", 'the ', 'gist...']),
      { type: 'system', kind: 'model-changed', text: switched },
      ...block('reasoning', 's-0', ['Now ', 'I ', 'need ', 'to ', 'look ', 'at...'], 'sig-sonnet'),
      ...toolCall('read-1', 'read_file', { path: 'x.ts' }),
      ...toolCall('list-1', 'list_files', { dir: '.' }),
      {
        type: 'tool-result',
        toolCallId: 'read-1',
        toolName: 'read_file',
        output: '// x.ts\nexport function f() {}',
      },
      {
        type: 'tool-result',
        toolCallId: 'list-1',
        toolName: 'list_files',
        output: ['a.ts', 'b.ts'],
      },
      {
        type: 'step-finish',
        finishReason: 'tool-calls',
        usage,
        modelId: 'claude-sonnet-4',
        step: 0,
      },
      { type: 'step-start', step: 1 },
      ...block('text', 's-1', ['Looking ', 'at ', 'the ', 'file...']),
      {
        type: 'error',
        message: 'Network error',
        statusCode: 503,
        kind: 'overloaded',
        retryable: true,
        provider: 'anthropic.messages',
        modelId: 'claude-sonnet-4',
      },
      { type: 'step-finish', finishReason: 'error', modelId: 'claude-sonnet-4', step: 1 },
      { type: 'turn-end', finishReason: 'error', usage },
    ] satisfies ChunkEvent[]);
    // The chunks of the plan's example turn, in order.
    expect(
      rows.map((r) => `${r.seq} ${r.role} ${r.type} ${r.step} ${JSON.stringify(r.data)}`),
    ).toEqual([
      '1 user text 0 {"text":"explain X"}',
      '2 assistant thinking 0 {"text":"I should...","id":"0-0","providerMetadata":{"anthropic":{"signature":"sig-opus"}},"modelId":"claude-sonnet-4"}',
      `3 assistant text 0 {"text":"Sure, here's the gist...","id":"0-1"}`,
      `4 assistant system 0 {"kind":"model-changed","text":"${switched}"}`,
      '5 assistant thinking 0 {"text":"Now I need to look at...","id":"s-0","providerMetadata":{"anthropic":{"signature":"sig-sonnet"}},"modelId":"claude-sonnet-4"}',
      '6 assistant tool_call 0 {"id":"read-1","name":"read_file","index":0,"input":{"path":"x.ts"}}',
      '7 assistant tool_call 0 {"id":"list-1","name":"list_files","index":1,"input":{"dir":"."}}',
      '8 tool tool_result 0 {"callId":"read-1","name":"read_file","result":"// x.ts\\nexport function f() {}"}',
      '9 tool tool_result 0 {"callId":"list-1","name":"list_files","result":["a.ts","b.ts"]}',
      '10 assistant text 1 {"text":"Looking at the file...","id":"s-1"}',
      '11 assistant error 1 {"message":"Network error","statusCode":503,"kind":"overloaded","retryable":true,"provider":"anthropic.messages","modelId":"claude-sonnet-4"}',
    ]);
    // The failed model got the prompt once; the step went on with the same prompt on the backup.
    expect(primary.calls).toHaveLength(1);
    expect(backup.prompts[0]).toEqual(primary.prompts[0]);
    // Next turn: back on the primary model; opus's reasoning before the switch is left out.
    const expectedNext = [
      { role: 'user', content: [{ type: 'text', text: 'explain X' }], providerOptions: cache },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: "Sure, here's the gist..." },
          {
            type: 'reasoning',
            text: 'Now I need to look at...',
            providerOptions: { anthropic: { signature: 'sig-sonnet' } },
          },
          {
            type: 'tool-call',
            toolCallId: 'read-1',
            toolName: 'read_file',
            input: { path: 'x.ts' },
          },
          { type: 'tool-call', toolCallId: 'list-1', toolName: 'list_files', input: { dir: '.' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'read-1',
            toolName: 'read_file',
            output: { type: 'text', value: '// x.ts\nexport function f() {}' },
          },
          {
            type: 'tool-result',
            toolCallId: 'list-1',
            toolName: 'list_files',
            output: { type: 'json', value: ['a.ts', 'b.ts'] },
            providerOptions: cache,
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Looking at the file...' }] },
      { role: 'user', content: [{ type: 'text', text: 'go on' }], providerOptions: cache },
    ];
    expect(await session.modelMessages('go on')).toEqual(expectedNext);
    await session.send('go on').rows;
    expect(primary.prompts[1]).toEqual(expectedNext);
  });

  it('a call that fails before streaming moves on, recording each switch, until one answers', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const a = createScriptedModel(parseScript('fail 529'), { modelId: 'a' });
    const b = createScriptedModel(parseScript('fail 503'), { modelId: 'b' });
    const c = createScriptedModel(parseScript('text from c'), { modelId: 'c' });
    const session = createAgentSession({
      store,
      threadId: 'f2',
      model: a,
      fallbackModels: [b, c],
      maxRetries: 0,
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    await session.send('go').rows;
    expect(recorded.ofTurn('t1').slice(0, 4)).toEqual([
      { type: 'turn-start', turnId: 't1', userText: 'go' },
      { type: 'step-start', step: 0 },
      {
        type: 'system',
        kind: 'model-changed',
        text: 'Switched from a to b (overloaded, HTTP 529)',
      },
      {
        type: 'system',
        kind: 'model-changed',
        text: 'Switched from b to c (overloaded, HTTP 503)',
      },
    ]);
    expect(recorded.ofTurn('t1').filter((e) => e.type === 'text-delta')).toEqual([
      { type: 'text-delta', id: '0-0', text: 'from ' },
      { type: 'text-delta', id: '0-0', text: 'c' },
    ]);
  });

  it('an error that is not a rate limit, an overload or a 5xx stays an error', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const a = createScriptedModel(parseScript('text x\nerror 400 Bad request'), { modelId: 'a' });
    const b = createScriptedModel([{}], { modelId: 'b' });
    const session = createAgentSession({
      store,
      threadId: 'f3',
      model: a,
      fallbackModels: [b],
      maxRetries: 0,
      idGenerator: sequentialIds(),
    });
    const rows = await session.send('go').rows;
    expect(rows.map((r) => r.type)).toEqual(['text', 'text', 'error']);
    expect(rows.at(-1)?.data).toEqual({
      message: 'Bad request',
      statusCode: 400,
      kind: 'request',
      retryable: false,
      provider: 'scripted',
      modelId: 'a',
    });
    expect(b.calls).toHaveLength(0);
  });

  it('a fallback that fails before streaming too: the switch is recorded when it happens, then the error', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const a = createScriptedModel(parseScript('fail 429'), { modelId: 'a' });
    const b = createScriptedModel(parseScript('fail 503'), { modelId: 'b' });
    const calledB = gate();
    const release = gate();
    // The fallback answers slowly: the switch must be out before it answers.
    const slowB = {
      ...b,
      doStream: async (options: Parameters<typeof b.doStream>[0]) => {
        calledB.open();
        await release.promise;
        return b.doStream(options);
      },
    };
    const session = createAgentSession({
      store,
      threadId: 'f5',
      model: a,
      fallbackModels: [slowB],
      maxRetries: 0,
      idGenerator: sequentialIds(),
    });
    const recorded = recordEvents(session);
    const turn = session.send('go');
    await calledB.promise;
    await vi.waitFor(() =>
      expect(recorded.ofTurn('t1').at(-1)).toEqual({
        type: 'system',
        kind: 'model-changed',
        text: 'Switched from a to b (rate limit, HTTP 429)',
      }),
    );
    release.open();
    const rows = await turn.rows;
    expect(recorded.ofTurn('t1').map((e) => e.type)).toEqual([
      'turn-start',
      'step-start',
      'system',
      'error',
      'step-finish',
      'turn-end',
    ]);
    expect(rows.map((r) => [r.role, r.type, r.data])).toEqual([
      ['user', 'text', { text: 'go' }],
      [
        'assistant',
        'system',
        { kind: 'model-changed', text: 'Switched from a to b (rate limit, HTTP 429)' },
      ],
      [
        'assistant',
        'error',
        {
          message: 'Service unavailable',
          statusCode: 503,
          kind: 'overloaded',
          retryable: true,
          provider: 'scripted',
          modelId: 'b',
        },
      ],
    ]);
    expect((await turn.result).outcome).toBe('failed');
    expect(await session.modelMessages()).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
    ]);
  });

  it('retries each model `maxRetries` times before moving on; the AI SDK does not call the chain again', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    // The servers ask for a 1 ms wait, so the test does not sit out the 2 s and 4 s backoff.
    const failure = (statusCode: number) => ({
      fail: {
        statusCode,
        message: `HTTP ${statusCode}`,
        responseHeaders: { 'retry-after-ms': '1' },
      },
    });
    const a = createScriptedModel([failure(529), failure(529), failure(529)], { modelId: 'a' });
    const b = createScriptedModel([failure(503), failure(503), failure(503), failure(503)], {
      modelId: 'b',
    });
    const session = createAgentSession({
      store,
      threadId: 'f6',
      model: a,
      fallbackModels: [b],
      idGenerator: sequentialIds(),
    }); // maxRetries: the default, 2
    const recorded = recordEvents(session);
    const rows = await session.send('go').rows;
    expect([a.callCount, b.callCount]).toEqual([3, 3]);
    expect(recorded.ofTurn('t1').filter((e) => e.type === 'system' || e.type === 'error')).toEqual([
      {
        type: 'system',
        kind: 'model-changed',
        text: 'Switched from a to b (overloaded, HTTP 529)',
      },
      {
        type: 'error',
        message: 'Failed after 3 attempts. Last error: HTTP 503',
        statusCode: 503,
        kind: 'overloaded',
        retryable: true,
        attempts: 3,
        provider: 'scripted',
        modelId: 'b',
      },
    ]);
    expect(rows.map((r) => r.type)).toEqual(['text', 'system', 'error']);
    // With `maxRetries: 0`, the chain moves on at the first failure.
    const c = createScriptedModel([failure(529)], { modelId: 'c' });
    const d = createScriptedModel(parseScript('text fine'), { modelId: 'd' });
    const quick = createAgentSession({
      store,
      threadId: 'f7',
      model: c,
      fallbackModels: [d],
      maxRetries: 0,
    });
    await quick.send('go').rows;
    expect([c.callCount, d.callCount]).toEqual([1, 1]);
  });

  it('when every model fails, the last error stands', async () => {
    const { store, dispose } = await openSqliteStore();
    disposers.push(dispose);
    const a = createScriptedModel(parseScript('fail 429'), { modelId: 'a' });
    const b = createScriptedModel(parseScript('text x\nerror 500'), { modelId: 'b' });
    const session = createAgentSession({
      store,
      threadId: 'f4',
      model: a,
      fallbackModels: [b],
      maxRetries: 0,
      idGenerator: sequentialIds(),
    });
    const rows = await session.send('go').rows;
    expect(rows.map((r) => [r.type, r.data])).toEqual([
      ['text', { text: 'go' }],
      ['system', { kind: 'model-changed', text: 'Switched from a to b (rate limit, HTTP 429)' }],
      ['text', { text: 'x', id: '0-0' }],
      [
        'error',
        {
          message: 'Internal server error',
          statusCode: 500,
          kind: 'server',
          retryable: true,
          provider: 'scripted',
          modelId: 'b',
        },
      ],
    ]);
  });
});

import {
  APICallError,
  generateText,
  stepCountIs,
  streamText,
  type TextStreamPart,
  type ToolSet,
  tool,
} from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChunklogError } from '../../src/errors/index.js';
import { createScriptedModel, parseScript, type ScriptedModel } from '../../src/testing/index.js';

type Part = TextStreamPart<ToolSet>;

async function collect(
  model: ScriptedModel,
  options: Partial<Parameters<typeof streamText>[0]> = {},
): Promise<{ parts: Part[]; thrown: unknown }> {
  const result = streamText({
    model,
    prompt: 'explain X',
    maxRetries: 0,
    onError: () => {},
    ...options,
  } as Parameters<typeof streamText>[0]);
  const parts: Part[] = [];
  let thrown: unknown;
  try {
    for await (const part of result.stream) parts.push(part);
  } catch (error) {
    thrown = error;
  }
  return { parts, thrown };
}

/** A compact trace of the stream: type, plus the text of deltas and the name of tools. */
function trace(parts: readonly Part[]): string[] {
  return parts.map((part) => {
    switch (part.type) {
      case 'text-delta':
      case 'reasoning-delta':
        return `${part.type}:${part.text}${part.providerMetadata ? ` ${JSON.stringify(part.providerMetadata)}` : ''}`;
      case 'reasoning-start':
        return `${part.type}${part.providerMetadata ? ` ${JSON.stringify(part.providerMetadata)}` : ''}`;
      case 'tool-input-start':
        return `${part.type}:${part.id}:${part.toolName}`;
      case 'tool-input-delta':
        return `${part.type}:${part.delta}`;
      case 'tool-call':
        return `tool-call:${part.toolCallId}:${part.toolName}:${JSON.stringify(part.input)}`;
      case 'tool-result':
        return `tool-result:${part.toolCallId}:${JSON.stringify(part.output)}`;
      case 'error':
        return `error:${APICallError.isInstance(part.error) ? part.error.statusCode : String(part.error)}`;
      case 'finish-step':
      case 'finish':
        return `${part.type}:${part.finishReason}`;
      default:
        return part.type;
    }
  });
}

const tools = {
  read_file: tool({
    inputSchema: z.object({ path: z.string() }),
    execute: async ({ path }) => `contents of ${path}`,
  }),
  list_files: tool({
    inputSchema: z.object({ dir: z.string() }),
    execute: async () => ['a.ts', 'b.ts'],
  }),
};

describe('createScriptedModel', () => {
  it('is a v4 language model with configurable ids', () => {
    const model = createScriptedModel([{}], {
      provider: 'anthropic.messages',
      modelId: 'claude-x',
    });
    expect(model.specificationVersion).toBe('v4');
    expect(model.provider).toBe('anthropic.messages');
    expect(model.modelId).toBe('claude-x');
    const plain = createScriptedModel([{}]);
    expect([plain.provider, plain.modelId]).toEqual(['scripted', 'scripted-model']);
  });

  it('streams signed reasoning, redacted thinking, text and parallel tool calls across steps', async () => {
    const model = createScriptedModel([
      {
        parts: [
          { type: 'reasoning', text: 'I should read.', signature: 'sig-a' },
          { type: 'redacted-reasoning', data: 'ENCRYPTED' },
          { type: 'text', text: ['Sure, ', 'here'] },
          { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' }, streamInput: 8 },
          { type: 'tool-call', toolName: 'list_files', input: { dir: '.' }, streamInput: false },
        ],
      },
      { parts: [{ type: 'text', text: 'Done.' }] },
    ]);
    const { parts, thrown } = await collect(model, { tools, stopWhen: stepCountIs(5) });
    expect(thrown).toBeUndefined();
    expect(trace(parts)).toEqual([
      'start',
      'start-step',
      'reasoning-start',
      'reasoning-delta:I ',
      'reasoning-delta:should ',
      'reasoning-delta:read.',
      'reasoning-delta: {"anthropic":{"signature":"sig-a"}}',
      'reasoning-end',
      'reasoning-start {"anthropic":{"redactedData":"ENCRYPTED"}}',
      'reasoning-end',
      'text-start',
      'text-delta:Sure, ',
      'text-delta:here',
      'text-end',
      'tool-input-start:call-0-0:read_file',
      'tool-input-delta:{"path":',
      'tool-input-delta:"a.ts"}',
      'tool-input-end',
      'tool-call:call-0-0:read_file:{"path":"a.ts"}',
      'tool-call:call-0-1:list_files:{"dir":"."}',
      'tool-result:call-0-0:"contents of a.ts"',
      'tool-result:call-0-1:["a.ts","b.ts"]',
      'finish-step:tool-calls',
      'start-step',
      'text-start',
      'text-delta:Done.',
      'text-end',
      'finish-step:stop',
      'finish:stop',
    ]);
    expect(model.calls).toHaveLength(2);
    expect(model.remaining).toBe(0);
    expect(model.prompts[0]).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'explain X' }] },
    ]);
    expect(model.prompts[1]).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'explain X' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            text: 'I should read.',
            providerOptions: { anthropic: { signature: 'sig-a' } },
          },
          {
            type: 'reasoning',
            text: '',
            providerOptions: { anthropic: { redactedData: 'ENCRYPTED' } },
          },
          { type: 'text', text: 'Sure, here' },
          {
            type: 'tool-call',
            toolCallId: 'call-0-0',
            toolName: 'read_file',
            input: { path: 'a.ts' },
          },
          {
            type: 'tool-call',
            toolCallId: 'call-0-1',
            toolName: 'list_files',
            input: { dir: '.' },
          },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call-0-0',
            toolName: 'read_file',
            output: { type: 'text', value: 'contents of a.ts' },
          },
          {
            type: 'tool-result',
            toolCallId: 'call-0-1',
            toolName: 'list_files',
            output: { type: 'json', value: ['a.ts', 'b.ts'] },
          },
        ],
      },
    ]);
    expect(model.calls[1]?.streamed).toBe(true);
    expect(model.calls[1]?.options.tools?.map((t) => t.name)).toEqual(['read_file', 'list_files']);
  });

  it('reports usage and finish reasons as scripted', async () => {
    const model = createScriptedModel([
      {
        parts: [{ type: 'text', text: 'cut' }],
        finishReason: 'length',
        usage: { input: 100, output: 7, cacheRead: 60, cacheWrite: 10 },
        responseModelId: 'served-by-x',
      },
    ]);
    const result = streamText({ model, prompt: 'p', onError: () => {} });
    await result.consumeStream();
    expect(await result.finishReason).toBe('length');
    const usage = await result.usage;
    expect([usage.inputTokens, usage.outputTokens]).toEqual([100, 7]);
    expect(usage.inputTokenDetails).toEqual({
      noCacheTokens: 30,
      cacheReadTokens: 60,
      cacheWriteTokens: 10,
    });
    expect((await result.response).modelId).toBe('served-by-x');
  });

  it('fails before streaming with an APICallError carrying the status code', async () => {
    const model = createScriptedModel([{ fail: { statusCode: 429 } }]);
    const { parts } = await collect(model);
    const error = parts.find((p) => p.type === 'error');
    expect(error?.type === 'error' && APICallError.isInstance(error.error)).toBe(true);
    const apiError = (error as { error: APICallError }).error;
    expect([apiError.statusCode, apiError.isRetryable, apiError.message]).toEqual([
      429,
      true,
      'Rate limit exceeded',
    ]);
  });

  it('honours isRetryable and messages of a failure', async () => {
    const model = createScriptedModel([
      { fail: { statusCode: 503, message: 'down for maintenance', isRetryable: false } },
    ]);
    await expect(model.doStream({ prompt: [] })).rejects.toMatchObject({
      statusCode: 503,
      isRetryable: false,
      message: 'down for maintenance',
    });
  });

  it('sends an error part in the middle of the stream', async () => {
    const model = createScriptedModel(parseScript('text Sure, here\nerror 529'));
    const { parts } = await collect(model);
    expect(trace(parts)).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-delta:Sure, ',
      'text-delta:here',
      'text-end',
      'error:529',
      'finish-step:error',
      'finish:error',
    ]);
  });

  it('breaks the stream with a thrown APICallError', async () => {
    const model = createScriptedModel(parseScript('text partial\nthrow 502'));
    const { parts, thrown } = await collect(model);
    expect(trace(parts)).toContain('text-delta:partial');
    expect(APICallError.isInstance(thrown) && thrown.statusCode).toBe(502);
  });

  it('waits between parts and stops at once when aborted', async () => {
    const controller = new AbortController();
    const model = createScriptedModel(parseScript('text one two three four five six'), {
      delayMs: 5,
    });
    const result = streamText({
      model,
      prompt: 'p',
      abortSignal: controller.signal,
      onError: () => {},
    });
    const parts: Part[] = [];
    for await (const part of result.stream) {
      parts.push(part);
      if (part.type === 'text-delta' && part.text === 'two ') controller.abort();
    }
    expect(
      parts.filter((p) => p.type === 'text-delta').map((p) => p.type === 'text-delta' && p.text),
    ).toEqual(['one ', 'two ']);
    expect(parts.at(-1)?.type).toBe('abort');
  });

  it('rejects at once when called with an aborted signal', async () => {
    const model = createScriptedModel(parseScript('text never'));
    await expect(
      model.doStream({ prompt: [], abortSignal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(model.calls).toHaveLength(0);
  });

  it('waits on a promise part, so a test can act at an exact point of the stream', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = createScriptedModel([
      {
        parts: [
          { type: 'text', text: 'before' },
          { type: 'wait', until: gate },
          { type: 'text', text: 'after' },
        ],
      },
    ]);
    const seen: string[] = [];
    const result = streamText({ model, prompt: 'p', onError: () => {} });
    const reading = (async () => {
      for await (const part of result.stream) {
        if (part.type === 'text-delta') {
          seen.push(part.text);
          if (part.text === 'before') setTimeout(release, 10);
        }
      }
    })();
    await reading;
    expect(seen).toEqual(['before', 'after']);
  });

  it('answers with a function of the call', async () => {
    const model = createScriptedModel([
      (call) => ({ parts: [{ type: 'text', text: `messages: ${call.prompt.length}` }] }),
    ]);
    const result = streamText({ model, prompt: 'p', system: 'be brief', onError: () => {} });
    expect(await result.text).toBe('messages: 2');
  });

  it('fails clearly when the script runs out', async () => {
    const model = createScriptedModel([{ parts: [{ type: 'text', text: 'one' }] }]);
    await model.doStream({ prompt: [] });
    const second = model.doStream({ prompt: [] });
    await expect(second).rejects.toSatisfy(
      (e: unknown) =>
        ChunklogError.hasCode(e, 'invalid-option') && /called 2 times/.test((e as Error).message),
    );
  });

  it('repeats a list script with `repeat`, and answers every call with a function script', async () => {
    const textOf = async (model: ScriptedModel) => {
      const { content } = await model.doGenerate({ prompt: [] });
      return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    };
    const cycling = createScriptedModel(parseScript('text one\n---\ntext two\n---\ntext three'), {
      repeat: true,
    });
    const answers: string[] = [];
    for (let i = 0; i < 7; i++) answers.push(await textOf(cycling));
    expect(answers).toEqual(['one', 'two', 'three', 'one', 'two', 'three', 'one']);
    expect(cycling.remaining).toBe(Number.POSITIVE_INFINITY);
    expect(cycling.calls.map((call) => call.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);

    const endless = createScriptedModel((_call, index) => ({
      parts: [{ type: 'text', text: `call ${index}` }],
    }));
    for (let i = 0; i < 250; i++) await textOf(endless);
    expect(await textOf(endless)).toBe('call 250');
    expect(endless.remaining).toBe(Number.POSITIVE_INFINITY);
    // Without `repeat`, a list is used once.
    const once = createScriptedModel(parseScript('text one'));
    await textOf(once);
    expect(once.remaining).toBe(0);
    await expect(textOf(once)).rejects.toSatisfy((e: unknown) =>
      ChunklogError.hasCode(e, 'invalid-option'),
    );
  });

  it('keeps only the latest `keepCalls` calls (100 by default), and counts them all', async () => {
    const endless = createScriptedModel(() => ({ parts: [{ type: 'text', text: 'x' }] }));
    for (let i = 0; i < 1234; i++) await endless.doGenerate({ prompt: [] });
    expect(endless.callCount).toBe(1234);
    expect(endless.calls).toHaveLength(100);
    expect(endless.calls.map((call) => call.index)).toEqual(
      Array.from({ length: 100 }, (_, i) => 1134 + i),
    );
    expect(endless.prompts).toHaveLength(100);

    const three = createScriptedModel(() => ({ parts: [] }), { keepCalls: 3 });
    for (let i = 0; i < 10; i++) {
      await three.doGenerate({
        prompt: [{ role: 'user', content: [{ type: 'text', text: String(i) }] }],
      });
    }
    expect(three.calls.map((call) => call.index)).toEqual([7, 8, 9]);
    expect(three.prompts.map((prompt) => JSON.stringify(prompt))).toEqual(
      ['7', '8', '9'].map((i) =>
        JSON.stringify([{ role: 'user', content: [{ type: 'text', text: i }] }]),
      ),
    );
    const all = createScriptedModel(() => ({ parts: [] }), { keepCalls: Number.POSITIVE_INFINITY });
    for (let i = 0; i < 150; i++) await all.doGenerate({ prompt: [] });
    expect(all.calls).toHaveLength(150);
  });

  it('works with generateText', async () => {
    const model = createScriptedModel(parseScript('think hmm\ntext Hello world'));
    const result = await generateText({ model, prompt: 'hi' });
    expect(result.text).toBe('Hello world');
    expect(result.reasoningText).toBe('hmm');
    expect(model.calls[0]?.streamed).toBe(false);
  });

  it('rejects a negative delay', () => {
    expect(() => createScriptedModel([], { delayMs: -1 })).toThrow(ChunklogError);
  });
});

describe('parseScript', () => {
  it('reads one line per part and --- between steps', () => {
    expect(
      parseScript(`
        # the first call
        think I should read.
        redacted abc
        text "Sure,  here\\n"
        tool read_file {"path":"a.ts"}
        tool list_files#c2 {"dir":"."}
        ---
        delay 5
        text Looking
        error 503 Network error
        ---
        fail 429
        ---
        text cut
        throw 500
        ---
        text short
        finish length
      `),
    ).toEqual([
      {
        parts: [
          { type: 'reasoning', text: 'I should read.' },
          { type: 'redacted-reasoning', data: 'abc' },
          { type: 'text', text: 'Sure,  here\n' },
          { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } },
          { type: 'tool-call', toolName: 'list_files', input: { dir: '.' }, toolCallId: 'c2' },
        ],
      },
      {
        parts: [
          { type: 'delay', ms: 5 },
          { type: 'text', text: 'Looking' },
          { type: 'error', statusCode: 503, message: 'Network error' },
        ],
      },
      { parts: [], fail: { statusCode: 429 } },
      {
        parts: [
          { type: 'text', text: 'cut' },
          { type: 'throw', statusCode: 500 },
        ],
      },
      { parts: [{ type: 'text', text: 'short' }], finishReason: 'length' },
    ]);
  });

  it('gives no steps for an empty description', () => {
    expect(parseScript('\n  # nothing\n')).toEqual([]);
  });

  it.each([
    ['bogus line', 'line 1: unknown keyword "bogus"'],
    ['text ok\ntool read_file {nope', 'line 2: the input of tool read_file is not JSON'],
    ['error abc', 'line 1: expected an HTTP status code'],
    ['finish maybe', 'line 1: unknown finish reason "maybe"'],
    ['text "unterminated', 'line 1: expected a JSON string'],
    ['delay -3', 'line 1: expected milliseconds'],
  ])('names the offending line of %j', (description, message) => {
    expect(() => parseScript(description)).toThrow(message);
  });
});

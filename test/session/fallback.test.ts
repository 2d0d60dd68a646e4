import { RetryError, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { statusCodeOf } from '../../src/events/errors.js';
import {
  describeModelSwitch,
  FallbackChain,
  fallbackReason,
  readModelSwitch,
} from '../../src/session/fallback.js';
import { createScriptedModel, parseScript } from '../../src/testing/index.js';

describe('fallbackReason', () => {
  it.each([
    [{ statusCode: 429 }, 'rate-limit'],
    [{ statusCode: 529 }, 'overloaded'],
    [{ statusCode: 503 }, 'overloaded'],
    [{ statusCode: 500 }, 'server-error'],
    [{ statusCode: 599 }, 'server-error'],
    [{ statusCode: 400 }, undefined],
    [{ statusCode: 401 }, undefined],
    [new Error('network'), undefined],
    [{ lastError: { statusCode: 429 } }, 'rate-limit'],
    [{ cause: { status: 502 } }, 'server-error'],
  ])('%j → %j', (error, reason) => {
    expect(fallbackReason(error)).toBe(reason);
  });

  it('reads status codes a few levels deep only', () => {
    expect(statusCodeOf({ cause: { cause: { cause: { statusCode: 500 } } } })).toBe(500);
    expect(statusCodeOf({ cause: { cause: { cause: { cause: { statusCode: 500 } } } } })).toBe(
      undefined,
    );
  });
});

describe('FallbackChain', () => {
  async function parts(chain: FallbackChain) {
    const result = streamText({
      model: chain,
      prompt: 'p',
      maxRetries: 0,
      include: { rawChunks: true },
      onError: () => {},
    });
    const out: string[] = [];
    for await (const part of result.stream) {
      if (part.type === 'raw') {
        const change = readModelSwitch(part.rawValue);
        out.push(change ? `switch:${describeModelSwitch(change)}` : 'raw');
      } else if (part.type === 'text-delta') out.push(`text:${part.text}`);
      else if (part.type === 'error') out.push(`error:${statusCodeOf(part.error)}`);
      else out.push(part.type);
    }
    return out;
  }

  it('moves on when a call fails before streaming, and stays on the new model', async () => {
    const a = createScriptedModel(parseScript('fail 429'), { modelId: 'a' });
    const b = createScriptedModel(parseScript('text one\n---\ntext two'), { modelId: 'b' });
    const chain = new FallbackChain([a, b], { maxRetries: 0 });
    expect(await parts(chain)).toEqual([
      'start',
      'start-step',
      'switch:Switched from a to b (rate limit, HTTP 429)',
      'text-start',
      'text:one',
      'text-end',
      'finish-step',
      'finish',
    ]);
    expect(chain.modelId).toBe('b');
    expect(await parts(chain)).toContain('text:two');
    expect(a.calls).toHaveLength(1);
  });

  it('continues mid-stream on the next model, closing the blocks the failed one left open', async () => {
    const a = createScriptedModel(
      [
        {
          parts: [
            { type: 'text', text: ['half ', 'way'] },
            { type: 'part', part: { type: 'error', error: { statusCode: 529 } } },
          ],
        },
      ],
      { modelId: 'a' },
    );
    // The failed model's text block never ended: the chain closes it.
    const open = createScriptedModel(
      [
        {
          parts: [
            { type: 'part', part: { type: 'text-start', id: 'x' } },
            { type: 'part', part: { type: 'text-delta', id: 'x', delta: 'dangling' } },
            { type: 'error', statusCode: 500 },
          ],
        },
      ],
      { modelId: 'open' },
    );
    const b = createScriptedModel(parseScript('text rest'), { modelId: 'b' });
    expect(await parts(new FallbackChain([a, b], { maxRetries: 0 }))).toEqual([
      'start',
      'start-step',
      'text-start',
      'text:half ',
      'text:way',
      'text-end',
      'switch:Switched from a to b (overloaded, HTTP 529)',
      'text-start',
      'text:rest',
      'text-end',
      'finish-step',
      'finish',
    ]);
    const c = createScriptedModel(parseScript('text rest'), { modelId: 'c' });
    expect(await parts(new FallbackChain([open, c], { maxRetries: 0 }))).toEqual([
      'start',
      'start-step',
      'text-start',
      'text:dangling',
      'text-end',
      'switch:Switched from open to c (server error, HTTP 500)',
      'text-start',
      'text:rest',
      'text-end',
      'finish-step',
      'finish',
    ]);
  });

  it('recovers when the stream itself breaks', async () => {
    const a = createScriptedModel(parseScript('text x\nthrow 502'), { modelId: 'a' });
    const b = createScriptedModel(parseScript('text y'), { modelId: 'b' });
    expect(await parts(new FallbackChain([a, b], { maxRetries: 0 }))).toContain(
      'switch:Switched from a to b (server error, HTTP 502)',
    );
  });

  it('lets other errors, and the last model’s errors, stand — after the switch that led to it', async () => {
    const a = createScriptedModel(parseScript('error 400'), { modelId: 'a' });
    const b = createScriptedModel([{}], { modelId: 'b' });
    expect(await parts(new FallbackChain([a, b], { maxRetries: 0 }))).toContain('error:400');
    expect(b.calls).toHaveLength(0);
    const c = createScriptedModel(parseScript('fail 429'), { modelId: 'c' });
    const d = createScriptedModel(parseScript('fail 503'), { modelId: 'd' });
    const out = await parts(new FallbackChain([c, d], { maxRetries: 0 }));
    expect(out).toEqual([
      'start',
      'start-step',
      'switch:Switched from c to d (rate limit, HTTP 429)',
      'error:503',
      'finish-step',
      'finish',
    ]);
  });

  it('reports a switch before it calls the next model', async () => {
    const a = createScriptedModel(parseScript('fail 529'), { modelId: 'a' });
    const b = createScriptedModel(parseScript('text late'), { modelId: 'b' });
    let release!: () => void;
    const opened = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = {
      ...b,
      doStream: async (options: Parameters<typeof b.doStream>[0]) => {
        await opened;
        return b.doStream(options);
      },
    };
    const result = streamText({
      model: new FallbackChain([a, slow], { maxRetries: 0 }),
      prompt: 'p',
      maxRetries: 0,
      include: { rawChunks: true },
      onError: () => {},
    });
    const seen: string[] = [];
    for await (const part of result.stream) {
      if (part.type === 'raw') {
        seen.push(`switch to ${readModelSwitch(part.rawValue)?.to.modelId}`);
        // The next model has not been called yet.
        expect(b.calls).toHaveLength(0);
        release();
      } else if (part.type === 'text-delta') seen.push(part.text);
    }
    expect(seen).toEqual(['switch to b', 'late']);
  });

  it('retries each model (maxRetries) before moving on, with the server’s retry-after', async () => {
    const soon = { 'retry-after-ms': '5' };
    const a = createScriptedModel(
      [
        { fail: { statusCode: 529, responseHeaders: soon } },
        { fail: { statusCode: 529, responseHeaders: soon } },
        { fail: { statusCode: 529, responseHeaders: soon } },
      ],
      { modelId: 'a' },
    );
    const b = createScriptedModel(
      [{ fail: { statusCode: 503, responseHeaders: soon } }, ...parseScript('text second try')],
      { modelId: 'b' },
    );
    const started = Date.now();
    const out = await parts(new FallbackChain([a, b], { maxRetries: 2, initialDelayMs: 60_000 }));
    expect(Date.now() - started).toBeLessThan(5000); // the headers' 5 ms, not the 60 s backoff
    expect([a.calls.length, b.calls.length]).toEqual([3, 2]);
    expect(out).toEqual([
      'start',
      'start-step',
      'switch:Switched from a to b (overloaded, HTTP 529)',
      'text-start',
      'text:second ',
      'text:try',
      'text-end',
      'finish-step',
      'finish',
    ]);
    // A failure that is not retryable moves on at once; the last model's retries end in the
    // AI SDK's own retry error.
    const c = createScriptedModel([{ fail: { statusCode: 500, isRetryable: false } }], {
      modelId: 'c',
    });
    const d = createScriptedModel(
      [
        { fail: { statusCode: 503, responseHeaders: soon, message: 'down' } },
        { fail: { statusCode: 503, responseHeaders: soon, message: 'down' } },
      ],
      { modelId: 'd' },
    );
    const errors: unknown[] = [];
    const result = streamText({
      model: new FallbackChain([c, d], { maxRetries: 1 }),
      prompt: 'p',
      maxRetries: 0,
      include: { rawChunks: true },
      onError: ({ error }) => void errors.push(error),
    });
    await result.consumeStream();
    expect([c.calls.length, d.calls.length]).toEqual([1, 2]);
    expect(errors).toHaveLength(1);
    expect(RetryError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as Error).message).toBe('Failed after 2 attempts. Last error: down');
    expect(statusCodeOf(errors[0])).toBe(503);
  });

  it('stops retrying when the call is aborted', async () => {
    const a = createScriptedModel(parseScript('fail 529'), { modelId: 'a' });
    const b = createScriptedModel([{}], { modelId: 'b' });
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('stop')), 20);
    const started = Date.now();
    await expect(
      new FallbackChain([a, b], { maxRetries: 2, initialDelayMs: 60_000 }).doStream({
        prompt: [],
        abortSignal: abort.signal,
      }),
    ).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(b.calls).toHaveLength(0);
  });

  it('falls back in doGenerate too, with retries per model', async () => {
    const a = createScriptedModel(parseScript('fail 500'), { modelId: 'a' });
    const b = createScriptedModel(parseScript('text generated'), { modelId: 'b' });
    const result = await new FallbackChain([a, b], { maxRetries: 0 }).doGenerate({ prompt: [] });
    expect(result.content).toEqual([{ type: 'text', text: 'generated' }]);
    const c = createScriptedModel(
      [
        { fail: { statusCode: 429, responseHeaders: { 'retry-after': '0' } } },
        ...parseScript('text again'),
      ],
      { modelId: 'c' },
    );
    const d = createScriptedModel([{}], { modelId: 'd' });
    const retried = await new FallbackChain([c, d], { maxRetries: 1 }).doGenerate({ prompt: [] });
    expect(retried.content).toEqual([{ type: 'text', text: 'again' }]);
    expect(d.calls).toHaveLength(0);
  });
});

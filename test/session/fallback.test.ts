import { streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  describeModelSwitch,
  FallbackChain,
  fallbackReason,
  readModelSwitch,
  statusCodeOf,
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
    const chain = new FallbackChain([a, b]);
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
    expect(await parts(new FallbackChain([a, b]))).toEqual([
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
    expect(await parts(new FallbackChain([open, c]))).toEqual([
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
    expect(await parts(new FallbackChain([a, b]))).toContain(
      'switch:Switched from a to b (server error, HTTP 502)',
    );
  });

  it('lets other errors, and the last model’s errors, stand', async () => {
    const a = createScriptedModel(parseScript('error 400'), { modelId: 'a' });
    const b = createScriptedModel([], { modelId: 'b' });
    expect(await parts(new FallbackChain([a, b]))).toContain('error:400');
    expect(b.calls).toHaveLength(0);
    const c = createScriptedModel(parseScript('fail 429'), { modelId: 'c' });
    const d = createScriptedModel(parseScript('fail 503'), { modelId: 'd' });
    const out = await parts(new FallbackChain([c, d]));
    expect(out).toEqual(['start', 'error:503']);
  });

  it('falls back in doGenerate too', async () => {
    const a = createScriptedModel(parseScript('fail 500'), { modelId: 'a' });
    const b = createScriptedModel(parseScript('text generated'), { modelId: 'b' });
    const result = await new FallbackChain([a, b]).doGenerate({ prompt: [] });
    expect(result.content).toEqual([{ type: 'text', text: 'generated' }]);
  });
});

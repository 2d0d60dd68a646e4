// The testing helpers check scripts and options when they are given, naming the entry and field,
// instead of failing later inside a model call.
import { streamText } from 'ai';
import * as vitest from 'vitest';
import { describe, expect, it } from 'vitest';
import {
  createScriptedModel,
  describeChunkStore,
  parseScript,
  textDrafts,
} from '../../src/testing/index.js';
import { thrown } from '../support/chunklog-error.js';

describe('testing trust boundaries', () => {
  it('createScriptedModel names the malformed entry and field', () => {
    for (const [script, path] of [
      [
        [{ parts: [{ type: 'text', text: 'ok' }] }, { parts: [{ type: 'txt', text: 'x' }] }],
        [1, 'parts', 0, 'type'],
      ],
      [[{ parts: [{ type: 'reasoning', text: 'x', signatur: 's' }] }], [0, 'parts', 0]],
      [[{ parts: [{ type: 'delay', ms: -1 }] }], [0, 'parts', 0, 'ms']],
      [[{ fail: { statusCode: 42 } }], [0, 'fail', 'statusCode']],
      [[{ finishReason: 'done' }], [0, 'finishReason']],
      [[{ parts: [{ type: 'tool-call', toolName: 'read' }] }], [0, 'parts', 0, 'input']],
      [[null], [0]],
      ['text hi', []],
    ] as const) {
      const error = thrown(() => createScriptedModel(script as never));
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe('script');
      expect(error.path).toEqual(path);
    }
    for (const [options, option] of [
      [{ provider: 5 }, 'provider'],
      [{ modelId: '' }, 'modelId'],
      [{ delay: 5 }, 'delay'],
      [{ delayMs: Number.NaN }, 'delayMs'],
      [{ repeat: 'yes' }, 'repeat'],
      [{ keepCalls: -1 }, 'keepCalls'],
      [{ keepCalls: 1.5 }, 'keepCalls'],
    ] as const) {
      expect(thrown(() => createScriptedModel([], options as never)).option).toBe(option);
    }
    // A model with nothing to answer is refused when it is made, repeating or not.
    expect(thrown(() => createScriptedModel([], { repeat: true })).option).toBe('script');
    const empty = thrown(() => createScriptedModel([]));
    expect(empty.option).toBe('script');
    expect(empty.message).toMatch(/at least one entry/);
  });

  it("a function entry's step is checked when it is called", async () => {
    const model = createScriptedModel([() => ({ parts: [{ type: 'txt' }] }) as never]);
    const errors: unknown[] = [];
    const result = streamText({
      model,
      prompt: 'hi',
      onError: ({ error }) => void errors.push(error),
    });
    await result.consumeStream();
    expect(errors).toEqual([
      expect.objectContaining({ code: 'invalid-option', path: [0, 'parts', 0, 'type'] }),
    ]);
  });

  it('parseScript, describeChunkStore and textDrafts check their arguments', () => {
    expect(thrown(() => parseScript(5 as never)).option).toBe('description');
    const factory = () => {
      throw new Error('never opened');
    };
    for (const [run, option] of [
      [() => describeChunkStore(5 as never, factory, { api: vitest }), 'name'],
      [() => describeChunkStore('x', 'factory' as never, { api: vitest }), 'factory'],
      [() => describeChunkStore('x', factory, { api: vitest, writers: 0 }), 'writers'],
      [() => describeChunkStore('x', factory, { api: vitest, skipped: true } as never), 'skipped'],
      [() => describeChunkStore('x', factory, { api: { describe: () => {} } as never }), 'api'],
      [() => textDrafts('t', -1), 'n'],
    ] as const) {
      const error = thrown(run);
      expect(error.code).toBe('invalid-option');
      expect(error.option).toBe(option);
    }
  });
});

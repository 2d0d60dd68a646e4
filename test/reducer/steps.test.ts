// Steps and the turn: numbering, summaries, model ids, ids, the end of a turn.
import { describe, expect, it } from 'vitest';
import { createTurnState, foldTurn, reduceTurn } from '../../src/reducer/index.js';
import { e, ev } from '../support/chunk-events.js';

describe('steps', () => {
  it('numbers steps itself: 0 for the first step-start, then one more each', () => {
    const state = foldTurn([e.stepStart(), e.text('a'), e.stepStart(), e.call('c'), e.stepStart()]);
    expect(state.step).toBe(2);
    expect(state.chunks.map((c) => c.step)).toEqual([0, 1]);
  });

  it('honours an explicit step number but never goes back', () => {
    expect(foldTurn([e.stepStart(3)]).step).toBe(3);
    expect(foldTurn([e.stepStart(3), e.stepStart(1)]).step).toBe(3);
    expect(foldTurn([e.stepStart(3), e.stepStart()]).step).toBe(4);
  });

  it('a step-start closes open blocks and bare chunks', () => {
    const state = foldTurn([e.thinkStart('r'), e.think('x', 'r'), e.text('y'), e.stepStart()]);
    expect(state.openIndex).toBeNull();
    expect(foldTurn([e.think('z', 'r'), e.text('w')], state).chunks).toHaveLength(4);
  });

  it('records a summary per step-finish', () => {
    const state = foldTurn([
      e.stepStart(),
      ev('step-finish', {
        finishReason: 'tool-calls',
        usage: { inputTokens: 10, outputTokens: 5 },
        modelId: 'm1',
        providerMetadata: { anthropic: { stopSequence: null } },
      }),
      e.stepStart(),
      ev('step-finish', { step: 1, finishReason: 'stop' }),
    ]);
    expect(state.steps).toStrictEqual([
      {
        step: 0,
        finishReason: 'tool-calls',
        usage: { inputTokens: 10, outputTokens: 5 },
        modelId: 'm1',
        providerMetadata: { anthropic: { stopSequence: null } },
      },
      { step: 1, finishReason: 'stop' },
    ]);
  });

  it('stamps the answering model on the step’s thinking chunks that lack one', () => {
    const state = foldTurn([
      e.stepStart(),
      e.think('a'),
      e.text('b'),
      e.stepFinish('tool-calls', 'model-a'),
      e.stepStart(1, 'model-b'),
      e.think('c'),
      e.stepFinish('stop', 'model-b-2025'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'thinking', step: 0, text: 'a', modelId: 'model-a' },
      { type: 'text', step: 0, text: 'b' },
      { type: 'thinking', step: 1, text: 'c', modelId: 'model-b' },
    ]);
  });

  it('a fallback marker switches the model of the thinking that follows it', () => {
    const state = foldTurn([
      e.stepStart(),
      e.think('first', '0'),
      ev('custom', {
        kind: 'anthropic.fallback',
        providerMetadata: {
          anthropic: { type: 'fallback', from: { model: 'big' }, to: { model: 'small' } },
        },
      }),
      e.think('second', '2'),
      e.stepFinish('stop', 'big'),
    ]);
    expect(state.chunks.filter((c) => c.type === 'thinking')).toMatchObject([
      { text: 'first', modelId: 'big' },
      { text: 'second', modelId: 'small' },
    ]);
  });

  it('a steering message takes the step the AI SDK gave it', () => {
    const state = foldTurn([
      e.stepStart(),
      e.call('c'),
      ev('steering-message', { id: 's1', text: 'also check b', step: 1 }),
      e.stepStart(),
      e.text('ok'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'tool-batch', step: 0, calls: [{ id: 'c', name: 'tool', input: {} }] },
      { type: 'steering', step: 1, id: 's1', text: 'also check b' },
      { type: 'text', step: 1, text: 'ok' },
    ]);
  });
});

describe('the turn', () => {
  it('takes its ids from createTurnState or turn-start', () => {
    expect(createTurnState({ turnId: 't0', assistantId: 'a0' })).toMatchObject({
      turnId: 't0',
      assistantId: 'a0',
      chunkCount: 0,
      openIndex: null,
      evicted: 0,
      step: 0,
      ended: false,
      finishReason: undefined,
      usage: undefined,
      steps: [],
    });
    expect(reduceTurn(createTurnState(), e.turnStart('t1', 'a1'))).toMatchObject({
      turnId: 't1',
      assistantId: 'a1',
    });
  });

  it('turn-end closes everything and records the finish reason and usage', () => {
    const state = foldTurn([
      e.text('x'),
      ev('tool-input-start', { toolCallId: 'c', toolName: 't' }),
      ev('turn-end', { finishReason: 'stop', usage: { totalTokens: 9 } }),
    ]);
    expect(state).toMatchObject({
      ended: true,
      finishReason: 'stop',
      usage: { totalTokens: 9 },
      openIndex: null,
    });
  });

  it('error, system, custom, source, file and steering are each their own chunk', () => {
    const source = { sourceType: 'url', id: 's', url: 'https://example.com' } as const;
    const state = foldTurn([
      e.error('a'),
      e.error('b', 429),
      ev('custom', { kind: 'anthropic.message_start' }),
      ev('custom', { kind: 'anthropic.message_start' }),
      ev('source', { source }),
      ev('source', { source }),
      ev('file', { mediaType: 'image/png', data: 'AA==' }),
      ev('file', { mediaType: 'text/plain', url: 'https://x', reasoning: true }),
      ev('steering-message', { id: 's1', text: 'a', step: 0 }),
      ev('steering-message', { id: 's2', text: 'b', step: 0 }),
      e.system('x', 'cancelled'),
    ]);
    expect(state.chunks).toStrictEqual([
      { type: 'error', step: 0, message: 'a' },
      { type: 'error', step: 0, message: 'b', statusCode: 429 },
      { type: 'custom', step: 0, kind: 'anthropic.message_start' },
      { type: 'custom', step: 0, kind: 'anthropic.message_start' },
      { type: 'source', step: 0, source },
      { type: 'source', step: 0, source },
      { type: 'file', step: 0, mediaType: 'image/png', data: 'AA==' },
      { type: 'file', step: 0, mediaType: 'text/plain', url: 'https://x', reasoning: true },
      { type: 'steering', step: 0, id: 's1', text: 'a' },
      { type: 'steering', step: 0, id: 's2', text: 'b' },
      { type: 'system', step: 0, kind: 'cancelled', text: 'x' },
    ]);
  });
});

import type { ModelMessage, streamText } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import {
  anthropicCachedSystem,
  applyAnthropicCaching,
  type ToModelMessagesOptions,
  toModelMessages,
} from '../../src/index.js';

type StreamTextOptions = Parameters<typeof streamText>[0];

describe('model-messages types', () => {
  it('toModelMessages and applyAnthropicCaching give the AI SDK ModelMessage[]', () => {
    expectTypeOf(toModelMessages([])).toEqualTypeOf<ModelMessage[]>();
    expectTypeOf(applyAnthropicCaching(toModelMessages([]))).toEqualTypeOf<ModelMessage[]>();
    expectTypeOf(toModelMessages([])).toExtend<NonNullable<StreamTextOptions['messages']>>();
    expectTypeOf(anthropicCachedSystem('s')).toExtend<NonNullable<StreamTextOptions['system']>>();
  });

  it('options are typed', () => {
    expectTypeOf<{
      foreignReasoning: 'strip';
      targetModelId: 'm';
    }>().toExtend<ToModelMessagesOptions>();
    // @ts-expect-error foreignReasoning is 'omit' or 'strip'
    toModelMessages([], { foreignReasoning: 'drop' });
    // @ts-expect-error maxBreakpoints is a number
    applyAnthropicCaching([], { maxBreakpoints: '4' });
  });
});

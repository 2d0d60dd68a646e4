// The reducer's public types: what other code (the window, the session) relies on.
import type { streamText } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createTurnState,
  evictLeadingChunks,
  foldStream,
  foldTurn,
  reduceTurn,
  type StepSummary,
  type TurnState,
} from '../../src/reducer/index.js';
import type { Chunk, ChunkEvent, FinishReason, TokenUsage } from '../../src/schema/index.js';

describe('reducer types', () => {
  it('TurnState has the agreed readonly fields', () => {
    expectTypeOf<TurnState['chunks']>().toEqualTypeOf<readonly Chunk[]>();
    expectTypeOf<TurnState['chunkCount']>().toEqualTypeOf<number>();
    expectTypeOf<TurnState['chunkAt']>().toEqualTypeOf<(index: number) => Chunk | undefined>();
    expectTypeOf<TurnState['openIndex']>().toEqualTypeOf<number | null>();
    expectTypeOf<TurnState['evicted']>().toEqualTypeOf<number>();
    expectTypeOf<TurnState['turnId']>().toEqualTypeOf<string | null>();
    expectTypeOf<TurnState['assistantId']>().toEqualTypeOf<string | null>();
    expectTypeOf<TurnState['step']>().toEqualTypeOf<number>();
    expectTypeOf<TurnState['ended']>().toEqualTypeOf<boolean>();
    expectTypeOf<TurnState['finishReason']>().toEqualTypeOf<FinishReason | undefined>();
    expectTypeOf<TurnState['usage']>().toEqualTypeOf<TokenUsage | undefined>();
    expectTypeOf<TurnState['steps']>().toEqualTypeOf<readonly StepSummary[]>();
    // @ts-expect-error the state is readonly
    createTurnState().step = 1;
  });

  it('the functions have the agreed signatures', () => {
    expectTypeOf(createTurnState).toBeCallableWith();
    expectTypeOf(createTurnState).toBeCallableWith({ turnId: 't1', assistantId: 'a1' });
    expectTypeOf(createTurnState).returns.toEqualTypeOf<TurnState>();
    expectTypeOf(reduceTurn).toEqualTypeOf<(state: TurnState, event: ChunkEvent) => TurnState>();
    expectTypeOf(evictLeadingChunks).toEqualTypeOf<
      (state: TurnState, count: number) => TurnState
    >();
    expectTypeOf(foldTurn).toEqualTypeOf<
      (events: Iterable<ChunkEvent>, initial?: TurnState) => TurnState
    >();
    expectTypeOf(foldStream).returns.toEqualTypeOf<Promise<TurnState>>();
  });

  it('foldStream takes streamText().stream and the deprecated fullStream', () => {
    const result = {} as ReturnType<typeof streamText>;
    expectTypeOf(foldStream).toBeCallableWith(result.stream);
    expectTypeOf(foldStream).toBeCallableWith(result.fullStream);
    expectTypeOf(foldStream).toBeCallableWith(result.stream, createTurnState());
  });
});

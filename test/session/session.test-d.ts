import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { LanguageModel } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AgentSession,
  AgentSessionOptions,
  ChunkHandlers,
  PageStore,
  SendOptions,
  SessionStore,
  SteerOutcome,
  TurnHandle,
} from '../../src/entries/session.js';
import type { ChunkEvent } from '../../src/schema/chunk-event.js';
import type { ChunkRow } from '../../src/schema/chunk-row.js';
import type { ChunkStore } from '../../src/store/index.js';
import type { ScriptedModel } from '../../src/testing/index.js';

describe('session types', () => {
  it('takes any ChunkStore as its store and as the handlers’ store', () => {
    expectTypeOf<ChunkStore>().toExtend<SessionStore>();
    expectTypeOf<ChunkStore>().toExtend<PageStore>();
  });

  it('gives a turn handle that iterates events and promises rows', () => {
    expectTypeOf<TurnHandle>().toExtend<AsyncIterable<ChunkEvent>>();
    expectTypeOf<TurnHandle['rows']>().toEqualTypeOf<Promise<readonly ChunkRow[]>>();
    expectTypeOf<AgentSession['send']>().returns.toEqualTypeOf<TurnHandle>();
    expectTypeOf<AgentSession['regenerate']>().returns.toEqualTypeOf<TurnHandle>();
    expectTypeOf<AgentSession['edit']>().returns.toEqualTypeOf<TurnHandle>();
    expectTypeOf<AgentSession['edit']>().parameters.toEqualTypeOf<
      [turnId: string, text: string, options?: SendOptions]
    >();
    expectTypeOf<
      Awaited<ReturnType<AgentSession['steer']>['outcome']>
    >().toEqualTypeOf<SteerOutcome>();
  });

  it('has web-standard handlers', () => {
    expectTypeOf<ChunkHandlers['fetch']>().toEqualTypeOf<(request: Request) => Promise<Response>>();
  });

  it('makes a scripted model that is an AI SDK language model', () => {
    expectTypeOf<ScriptedModel>().toExtend<LanguageModel>();
  });

  it('takes only v4 model objects as fallbacks: a v3 one (a provider made for an older ai) is a type error', () => {
    type Fallbacks = NonNullable<AgentSessionOptions['fallbackModels']>;
    expectTypeOf<ScriptedModel[]>().toExtend<Fallbacks>();
    expectTypeOf<LanguageModelV3[]>().not.toExtend<Fallbacks>();
    expectTypeOf<string[]>().not.toExtend<Fallbacks>();
  });
});

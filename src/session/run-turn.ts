import type { LanguageModelV4 } from '@ai-sdk/provider';
import {
  type Instructions,
  type LanguageModel,
  type ModelMessage,
  type StopCondition,
  streamText,
  type ToolSet,
} from 'ai';
import type { ChatMessage } from '../schema/chat-message.js';
import type { Chunk } from '../schema/chunk.js';
import type { ChunkEvent } from '../schema/chunk-event.js';
import type { JSONValue } from '../schema/json.js';
import type { FinishReason, TokenUsage } from '../schema/usage.js';
import type { StepUsage } from '../store/usage-types.js';
import { budgetedTurnInput, type ContextConfig } from './context-input.js';
import { FallbackChain } from './fallback.js';
import type { KeptHistory } from './kept-history.js';
import type { LiveTurn } from './live-turn.js';
import { buildModelMessages, userMessage } from './model-input.js';
import { PartEvents } from './part-events.js';
import { anthropicCachedSystem } from './pipeline.js';
import type { ResumePlan } from './resume-turn.js';
import { inTurnCutEvent, stepInputPreparer } from './step-input.js';
import { StepUsageLog } from './step-usage.js';
import type { SessionStore } from './store.js';
import { withToolModelOutputs } from './tool-model-output.js';
import { trackTools } from './tool-progress.js';
import type { TurnWriter } from './turn-writer.js';

/** Everything a turn needs from the session's options, validated. */
export interface TurnConfig {
  /** The thread the turn reads and writes: the conversation's active path when the turn runs. */
  readonly threadId: string;
  readonly store: SessionStore;
  readonly model: LanguageModel;
  /** The fallbacks, in order (empty: no fallback chain). */
  readonly fallbackModels: readonly LanguageModelV4[];
  readonly tools: ToolSet | undefined;
  readonly instructions: Instructions | undefined;
  readonly stopWhen: readonly StopCondition<ToolSet>[];
  readonly maxRetries: number | undefined;
  readonly maxOutputTokens: number | undefined;
  readonly temperature: number | undefined;
  readonly providerOptions: Readonly<Record<string, Record<string, JSONValue>>> | undefined;
  readonly caching: boolean;
  /** The session's clock (step durations). */
  readonly now: () => number;
  /** The token budget and compaction, when the session has a budget. */
  readonly context?: ContextConfig | undefined;
}

/** What a turn produced, ready to be stored. */
export interface TurnOutcome {
  readonly outcome: 'completed' | 'failed' | 'cancelled';
  /** The user's message chunks (none for a continued turn). */
  readonly userChunks: readonly Chunk[];
  /** The assistant's chunks (for a continued turn: those of the steps it took now). */
  readonly chunks: readonly Chunk[];
  readonly finishReason: FinishReason | undefined;
  readonly usage: TokenUsage | undefined;
  /** Each finished step's usage, model id, finish reason and duration. */
  readonly steps: readonly StepUsage[];
}

/** Which turn runs: a new one, with the user's text, or one continued by recovery. */
export type TurnStart =
  | { readonly kind: 'fresh'; readonly text: string }
  | { readonly kind: 'continued'; readonly plan: ResumePlan };

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The system prompt; a plain string gets the system breakpoint when caching is on. */
function instructionsOf(config: TurnConfig): Instructions | undefined {
  const system = config.instructions;
  return config.caching && typeof system === 'string' ? anthropicCachedSystem(system) : system;
}

async function streamSteps(
  live: LiveTurn,
  config: TurnConfig,
  messages: ModelMessage[],
  events: PartEvents,
  observe: (event: ChunkEvent) => void,
): Promise<void> {
  const steering = live.startSteering();
  // With fallbacks, the chain retries each model itself before moving on: the AI SDK's retries
  // would call the chain again (the last model, silently, after the switches it reported).
  const chained = config.fallbackModels.length > 0;
  const model = chained
    ? new FallbackChain([config.model as LanguageModelV4, ...config.fallbackModels], {
        maxRetries: config.maxRetries,
      })
    : config.model;
  events.model = model;
  // A cut made for a step's input is recorded just before that step's events.
  const cuts: ChunkEvent[] = [];
  const prepareStep = stepInputPreparer(
    { caching: config.caching, budget: config.context?.budget },
    (cut) => cuts.push(inTurnCutEvent(cut)),
  );
  const result = streamText({
    model,
    messages,
    abortSignal: live.controller.signal,
    stopWhen: [...config.stopWhen],
    experimental_steering: steering,
    // Errors arrive as stream parts and become error chunks; this only silences the SDK's
    // default of logging them.
    onError: () => {},
    ...optional('tools', config.tools === undefined ? undefined : trackTools(config.tools, live)),
    ...optional('instructions', instructionsOf(config)),
    ...optional('maxRetries', chained ? 0 : config.maxRetries),
    ...optional('maxOutputTokens', config.maxOutputTokens),
    ...optional('temperature', config.temperature),
    ...optional(
      'providerOptions',
      config.providerOptions as Record<string, Record<string, JSONValue>> | undefined,
    ),
    ...optional('prepareStep', prepareStep),
    // Fallback switches travel in band as raw parts; the models themselves are not asked for any.
    ...(chained ? { include: { rawChunks: true } } : {}),
  });
  for await (const part of result.stream) {
    const mapped = events.map(part);
    for (let i = 0; i < mapped.length; i++) {
      const event = mapped[i] as (typeof mapped)[number];
      if (event.type === 'step-start' && cuts.length > 0) {
        for (const cut of cuts.splice(0)) {
          observe(cut);
          live.emit(cut);
        }
      }
      observe(event);
      live.emit(event);
    }
  }
}

/**
 * Runs one turn from `turn-start` to `turn-end`, fresh or continued by recovery: stores its
 * start (by the writer's mode), reads the thread's history, streams the model's steps (tools,
 * steering, fallbacks, caching, the token budget), writes each ended step (by the writer's mode),
 * and folds every part into the turn. A provider error ends the turn with an `error` chunk; a
 * cancel accepted before the turn ended ends it `cancelled`, with a `cancelled` system chunk.
 * Storing the end of the turn is the caller's job (`writer.finish`).
 *
 * @param live - the turn
 * @param config - the session's configuration
 * @param history - the session's kept history (read for `config.threadId`, the turn's path)
 * @param writer - the turn's writer
 * @param start - a new turn's text, or a continued turn's plan
 * @returns what the turn produced
 */
export async function runTurn(
  live: LiveTurn,
  config: TurnConfig,
  history: KeptHistory,
  writer: TurnWriter,
  start: TurnStart,
): Promise<TurnOutcome> {
  // The user's text goes out with the start, so that a client that did not send it shows it.
  const userText = start.kind === 'fresh' ? live.userText(start.text) : undefined;
  const user = userText === undefined ? undefined : userMessage(live.turnId, userText);
  live.emit({
    type: 'turn-start',
    turnId: live.turnId,
    ...optional('userText', userText),
  });
  const events = new PartEvents();
  if (start.kind === 'continued') {
    for (const event of start.plan.events) live.announce(event);
    events.step = start.plan.lastStep;
  }
  const usageLog = new StepUsageLog(config.now);
  // A step's rows are written when the next step starts (at once: the AI SDK starts it as soon
  // as the step's tools returned), and the last step's with the turn's end.
  let stepEnded = false;
  const observe = (event: ChunkEvent) => {
    usageLog.observe(event);
    if (event.type === 'step-finish') stepEnded = true;
    else if (event.type === 'step-start' && stepEnded) {
      stepEnded = false;
      writer.stepEnded(live.state.chunks);
    }
  };
  try {
    if (user !== undefined) {
      const begun = await writer.begin(user.chunks);
      if (begun.stored) throw new Error(`Turn ${live.turnId} is stored already.`);
    }
    if (!live.controller.signal.aborted) {
      const messages = await modelInput(live, config, history, user);
      if (!live.controller.signal.aborted)
        await streamSteps(live, config, messages, events, observe);
    }
  } catch (error) {
    // The stream broke (or the history could not be read); an abort is reported below.
    if (!live.controller.signal.aborted) {
      for (const event of events.thrown(error)) live.emit(event);
    }
  }
  live.endSteering();
  // A cancel accepted before the turn ended ends it cancelled, whatever the model did since: the
  // caller was told so (a 202 to a cancel request), and the status says the same.
  // The steering the cancel dropped is recorded with it, so that the user's text is not lost.
  const cancelled = live.cancelReason !== undefined;
  if (cancelled) {
    const dropped = live.undeliveredSteering;
    live.emit({
      type: 'system',
      kind: 'cancelled',
      text: live.cancelReason as string,
      ...(dropped.length === 0 ? {} : { dropped }),
    });
  }
  const finishReason = cancelled
    ? undefined
    : (events.finishReason ?? (events.failed ? 'error' : undefined));
  const usage = events.usage ?? events.stepUsage;
  live.emit({
    type: 'turn-end',
    ...optional('finishReason', finishReason),
    ...optional('usage', usage),
  });
  return {
    outcome: cancelled ? 'cancelled' : events.failed ? 'failed' : 'completed',
    userChunks: user?.chunks ?? [],
    chunks: live.state.chunks,
    finishReason,
    usage,
    steps: usageLog.steps,
  };
}

/**
 * The model input of the turn's first step. The turn's own stored rows (its user message, stored
 * at its start) are not history for a new turn; a continued turn's input is the stored thread as
 * it is, up to its last stored step (no token budget: its input was budgeted when it started).
 */
async function modelInput(
  live: LiveTurn,
  config: TurnConfig,
  history: KeptHistory,
  user: ChatMessage | undefined,
): Promise<ModelMessage[]> {
  const loaded = await history.messages(config.threadId);
  const previous =
    user !== undefined && loaded.some((message) => message.turnId === live.turnId)
      ? loaded.filter((message) => message.turnId !== live.turnId)
      : loaded;
  if (config.context === undefined || user === undefined) {
    return withToolModelOutputs(buildModelMessages(previous, user, config.caching), config.tools);
  }
  return budgetedTurnInput(
    { ...config, context: config.context },
    previous,
    user,
    (event) => live.emit(event),
    live.controller.signal,
  );
}

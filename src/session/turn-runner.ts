import type { LanguageModelV4 } from '@ai-sdk/provider';
import {
  type Instructions,
  type LanguageModel,
  type ModelMessage,
  type StopCondition,
  streamText,
  type ToolSet,
} from 'ai';
import type { Chunk } from '../schema/chunk.js';
import type { JSONValue } from '../schema/json.js';
import type { FinishReason, TokenUsage } from '../schema/usage.js';
import type { StepUsage } from '../store/usage-types.js';
import { budgetedTurnInput, type ContextConfig } from './context-input.js';
import { FallbackChain } from './fallback.js';
import { buildModelMessages, cachingPrepareStep, loadHistory, userMessage } from './history.js';
import type { LiveTurn } from './live-turn.js';
import { PartEvents } from './part-events.js';
import { anthropicCachedSystem, toChunkEvents } from './pipeline.js';
import { StepUsageLog } from './step-usage.js';
import { trackTools } from './tool-progress.js';
import type { SessionStore } from './types.js';

/** Everything a turn needs from the session's options, validated. */
export interface TurnConfig {
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
  readonly now?: (() => number) | undefined;
  /** The token budget and compaction, when the session has a budget. */
  readonly context?: ContextConfig | undefined;
}

/** What a turn produced, ready to be sealed. */
export interface TurnOutcome {
  readonly outcome: 'completed' | 'failed' | 'cancelled';
  /** The user's message chunks. */
  readonly userChunks: readonly Chunk[];
  /** The assistant's chunks. */
  readonly chunks: readonly Chunk[];
  readonly finishReason: FinishReason | undefined;
  readonly usage: TokenUsage | undefined;
  /** Each finished step's usage, model id, finish reason and duration. */
  readonly steps: readonly StepUsage[];
}

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
  usageLog: StepUsageLog,
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
    ...(config.caching ? { prepareStep: cachingPrepareStep() } : {}),
    // Fallback switches travel in band as raw parts; the models themselves are not asked for any.
    ...(chained ? { include: { rawChunks: true } } : {}),
  });
  for await (const part of result.stream) {
    const mapped = events.map(part);
    for (let i = 0; i < mapped.length; i++) {
      const event = mapped[i] as (typeof mapped)[number];
      usageLog.observe(event);
      live.emit(event);
    }
  }
}

/**
 * Runs one turn from `turn-start` to `turn-end`: reads the history from the store, streams the
 * model's steps (tools, steering, fallbacks, caching), and folds every part into the turn. A
 * provider error ends the turn with an `error` chunk; a cancel ends it with a `cancelled`
 * system chunk. Storing the result is the caller's job.
 *
 * @param live - the turn
 * @param config - the session's configuration
 * @param ready - resolves when the writes before this turn landed (its history is complete)
 * @param resume - a turn continued by the `continue` recovery policy: its stored rows (user
 *   message first) are the end of the history, the model's steps number on from `lastStep`, and
 *   `announce` sends out the events of the rows recovery stored, after `turn-start`
 * @returns what the turn produced
 */
export async function runTurn(
  live: LiveTurn,
  config: TurnConfig,
  ready: () => Promise<unknown>,
  resume?: { readonly lastStep: number; readonly announce: () => void },
): Promise<TurnOutcome> {
  live.emit({ type: 'turn-start', turnId: live.turnId });
  resume?.announce();
  const user = resume === undefined ? userMessage(live.turnId, live.handle.text) : undefined;
  const events = new PartEvents();
  if (resume !== undefined) events.step = resume.lastStep;
  const usageLog = new StepUsageLog(config.now ?? Date.now);
  try {
    await ready();
    if (!live.controller.signal.aborted) {
      // The turn's own stored rows (its user message, with step durability) are not history. The
      // kept history is passed on as it is when it holds none of them (its model messages are kept).
      const loaded = await loadHistory(config.store, config.threadId);
      const history =
        user !== undefined && loaded.some((message) => message.turnId === live.turnId)
          ? loaded.filter((message) => message.turnId !== live.turnId)
          : loaded;
      // A continued turn's input is the stored thread as it is, up to the turn's last stored step
      // (no token budget: the turn's own input was budgeted when it started).
      const messages =
        config.context === undefined || user === undefined
          ? buildModelMessages(history, user, config.caching)
          : await budgetedTurnInput(
              { ...config, context: config.context },
              history,
              user,
              (event) => live.emit(event),
              live.controller.signal,
            );
      if (!live.controller.signal.aborted)
        await streamSteps(live, config, messages, events, usageLog);
    }
  } catch (error) {
    // The stream broke (or the history could not be read); an abort is reported below.
    if (!live.controller.signal.aborted) {
      for (const event of toChunkEvents({ type: 'error', error })) {
        if (event.type === 'error') events.failed = true;
        live.emit(event);
      }
    }
  }
  live.endSteering();
  const cancelled =
    live.cancelReason !== undefined && (events.aborted || events.finishReason === undefined);
  if (cancelled)
    live.emit({ type: 'system', kind: 'cancelled', text: live.cancelReason as string });
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

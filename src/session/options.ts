import type { LanguageModelV4 } from '@ai-sdk/provider';
import { type LanguageModel, type StopCondition, stepCountIs, type ToolSet } from 'ai';
import { ChunklogError } from '../errors/index.js';
import { readOptions, requireMethods } from '../errors/invalid-option.js';
import { checkRelay } from '../live/check-relay.js';
import type { Relay } from '../live/relay.js';
import { type ContextBudget, planModelInput } from '../model-messages/context-budget.js';
import type { CorruptRowPolicy } from '../store/types.js';
import { threadIdProblem } from '../store/validate.js';
import { checkRedactor, type Redactor } from '../transforms/redactor.js';
import { type ContextConfig, DEFAULT_COMPACTION_INSTRUCTIONS } from './context-input.js';
import { createTimeOrderedIds } from './ids.js';
import { checkLeaseOption, type LeaseConfig } from './lease.js';
import { whyNotV4Model } from './model-version.js';
import { checkRecoveryOption, type RecoveryConfig } from './resume-turn.js';
import type { TurnConfig } from './run-turn.js';
import { SESSION_STORE_METHODS, type SessionStore } from './store.js';
import type { SessionDurability } from './turn-writer.js';
import type { AgentSessionOptions, ExistingTurnPolicy, SessionErrorContext } from './types.js';

/** The session's options, checked and with their defaults. */
export interface SessionConfig {
  readonly turn: TurnConfig;
  readonly idGenerator: () => string;
  readonly now: () => number;
  readonly replayLimit: number;
  readonly onError: (error: unknown, context: SessionErrorContext) => void;
  /** The relay given, or undefined for the session's own in-process one. */
  readonly relay: Relay | undefined;
  /** The session's corrupt-row policy for its reads, or undefined for the store's. */
  readonly onCorruptRow: CorruptRowPolicy | undefined;
  /** When turns are stored (`durability`). */
  readonly durability: SessionDurability;
  /** The thread lease (`lease`), or undefined for none. */
  readonly lease: LeaseConfig | undefined;
  /** What `send` does with a turn id stored already (`onExistingTurn`). */
  readonly onExistingTurn: ExistingTurnPolicy;
  /** What is done with a turn a dead holder left `running` (`recovery`). */
  readonly recovery: RecoveryConfig;
  /** Redaction at write (`redact`), or undefined for none. */
  readonly redact: Redactor | undefined;
}

/** The default most steps of a turn. */
export const DEFAULT_MAX_STEPS = 20;
/** The default number of live events kept for SSE resumption. */
export const DEFAULT_REPLAY_LIMIT = 10_000;

/**
 * Every option of `createAgentSession`: any other key is refused (a misspelt option fails at
 * creation instead of being ignored). A new option must be added here and checked below.
 */
export const SESSION_OPTIONS: readonly (keyof AgentSessionOptions)[] = [
  'store',
  'threadId',
  'model',
  'tools',
  'system',
  'fallbackModels',
  'caching',
  'maxSteps',
  'stopWhen',
  'maxRetries',
  'maxOutputTokens',
  'temperature',
  'providerOptions',
  'idGenerator',
  'now',
  'replayLimit',
  'onError',
  'onCorruptRow',
  'contextBudget',
  'compaction',
  'relay',
  'durability',
  'lease',
  'onExistingTurn',
  'recovery',
  'redact',
];

/** The session's context settings; the budget itself is checked by `planModelInput` on use. */
function contextConfig(
  budget: unknown,
  compaction: unknown,
  model: LanguageModel,
): ContextConfig | undefined {
  if (budget === undefined) {
    if (compaction !== undefined && compaction !== false) {
      invalid('compaction', '`compaction` needs a `contextBudget`', compaction);
    }
    return undefined;
  }
  // Refuse a bad budget now rather than at the first turn.
  planModelInput([], { build: () => [], budget: budget as ContextBudget });
  if (compaction === undefined || compaction === false) {
    return { budget: budget as ContextBudget, compaction: undefined };
  }
  if (compaction !== true && !isObject(compaction)) {
    invalid(
      'compaction',
      '`compaction` must be true, false or { model?, instructions? }',
      compaction,
    );
  }
  const c =
    compaction === true
      ? {}
      : readOptions(compaction, 'createAgentSession', ['model', 'instructions'], 'compaction');
  if (c.model !== undefined && !isModel(c.model)) {
    invalid('compaction.model', '`compaction.model` must be a language model', c.model);
  }
  if (c.instructions !== undefined && typeof c.instructions !== 'string') {
    invalid(
      'compaction.instructions',
      '`compaction.instructions` must be a string',
      c.instructions,
    );
  }
  return {
    budget: budget as ContextBudget,
    compaction: {
      model: (c.model as LanguageModel | undefined) ?? model,
      instructions: (c.instructions as string | undefined) ?? DEFAULT_COMPACTION_INSTRUCTIONS,
    },
  };
}

function invalid(option: string, message: string, value: unknown): never {
  throw new ChunklogError('invalid-option', `createAgentSession: ${message}`, { option, value });
}

/**
 * Checks `tools`: an object of AI SDK tools by name, each an object with an `inputSchema` (or a
 * provider's tool, `type: 'provider'`) and, when it has one, an `execute` function. A tool the
 * model calls that is no tool would be stored as a call without a result.
 */
function checkTools(tools: unknown): void {
  if (!isObject(tools) || Array.isArray(tools)) {
    invalid(
      'tools',
      '`tools` must be an object of tools by name (`{ weather: tool({ … }) }`)',
      tools,
    );
  }
  for (const [name, tool] of Object.entries(tools)) {
    const problem =
      !isObject(tool) || Array.isArray(tool)
        ? 'is not a tool (`tool({ inputSchema, execute })` from `ai`)'
        : tool.execute !== undefined && typeof tool.execute !== 'function'
          ? 'has an `execute` that is not a function'
          : tool.type !== 'provider' && tool.inputSchema === undefined
            ? 'has no `inputSchema`'
            : undefined;
    if (problem !== undefined) invalid('tools', `the tool \`${name}\` ${problem}`, tool);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isV4Model(value: unknown): value is LanguageModelV4 {
  return (
    isObject(value) &&
    value.specificationVersion === 'v4' &&
    typeof value.doStream === 'function' &&
    typeof value.provider === 'string' &&
    typeof value.modelId === 'string'
  );
}

function isModel(value: unknown): value is LanguageModel {
  return (
    (typeof value === 'string' && value.length > 0) ||
    (isObject(value) && typeof value.doStream === 'function')
  );
}

function positiveInteger(option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    invalid(option, `\`${option}\` must be a positive integer`, value);
  }
  return value;
}

function finite(option: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    invalid(option, `\`${option}\` must be a number ≥ ${min}`, value);
  }
  return value;
}

function fn<T>(option: string, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') invalid(option, `\`${option}\` must be a function`, value);
  return value as T;
}

/**
 * The provider id of a model: its `provider`, or the part of a gateway id before the slash.
 *
 * @param model - the model
 * @returns the provider id
 */
export function providerOf(model: LanguageModel): string {
  if (typeof model === 'string') return model.split('/')[0] ?? model;
  return model.provider;
}

/**
 * Checks the options of {@link createAgentSession} and fills in the defaults.
 *
 * @param options - the caller's options
 * @returns the configuration
 * @throws {ChunklogError} `invalid-option`, naming the option
 */
export function validateOptions<TOOLS extends ToolSet>(
  options: AgentSessionOptions<TOOLS>,
): SessionConfig {
  if (!isObject(options) || Array.isArray(options)) {
    invalid('options', 'options are required', options);
  }
  readOptions(options, 'createAgentSession', SESSION_OPTIONS as readonly string[]);
  const { store, threadId, model } = options;
  requireMethods(
    'createAgentSession',
    'store',
    store,
    SESSION_STORE_METHODS,
    'a ChunkStore (createChunkStore)',
  );
  const problem = threadIdProblem(threadId);
  if (problem !== undefined) invalid('threadId', `\`threadId\` ${problem}`, threadId);
  if (!isModel(model)) invalid('model', '`model` must be a language model or a model id', model);
  const fallbacks = options.fallbackModels ?? [];
  if (!Array.isArray(fallbacks))
    invalid('fallbackModels', '`fallbackModels` must be an array', fallbacks);
  if (fallbacks.length > 0) {
    if (!isV4Model(model)) {
      invalid(
        'model',
        `with \`fallbackModels\`, \`model\` must be a v4 language model object${whyNotV4Model(model)}`,
        model,
      );
    }
    fallbacks.forEach((fallback, i) => {
      if (!isV4Model(fallback)) {
        invalid(
          `fallbackModels[${i}]`,
          `every fallback must be a v4 language model object${whyNotV4Model(fallback)}`,
          fallback,
        );
      }
    });
  }
  if (options.tools !== undefined) checkTools(options.tools);
  const system = options.system;
  if (system !== undefined && typeof system !== 'string' && !isObject(system)) {
    invalid('system', '`system` must be a string or system messages', system);
  }
  const caching = options.caching;
  if (caching !== undefined && caching !== 'anthropic' && caching !== 'none') {
    invalid('caching', "`caching` must be 'anthropic' or 'none'", caching);
  }
  const maxSteps = positiveInteger('maxSteps', options.maxSteps);
  const userStops = options.stopWhen === undefined ? [] : [options.stopWhen].flat();
  userStops.forEach((stop, i) => {
    if (typeof stop !== 'function')
      invalid(`stopWhen[${i}]`, 'a stop condition must be a function', stop);
  });
  const stopWhen: StopCondition<ToolSet>[] = [
    ...(maxSteps !== undefined || userStops.length === 0
      ? [stepCountIs(maxSteps ?? DEFAULT_MAX_STEPS)]
      : []),
    ...(userStops as StopCondition<ToolSet>[]),
  ];
  const maxRetries = finite('maxRetries', options.maxRetries, 0);
  if (maxRetries !== undefined && !Number.isInteger(maxRetries)) {
    invalid('maxRetries', '`maxRetries` must be an integer ≥ 0', maxRetries);
  }
  const maxOutputTokens = positiveInteger('maxOutputTokens', options.maxOutputTokens);
  const temperature = finite('temperature', options.temperature, 0);
  if (options.providerOptions !== undefined && !isObject(options.providerOptions)) {
    invalid('providerOptions', '`providerOptions` must be an object', options.providerOptions);
  }
  const now = fn<() => number>('now', options.now) ?? Date.now;
  const idGenerator =
    fn<() => string>('idGenerator', options.idGenerator) ?? createTimeOrderedIds(now);
  const onError = fn<SessionConfig['onError']>('onError', options.onError) ?? (() => {});
  const replayLimit = positiveInteger('replayLimit', options.replayLimit) ?? DEFAULT_REPLAY_LIMIT;
  const onCorruptRow = options.onCorruptRow;
  if (onCorruptRow !== undefined && onCorruptRow !== 'throw' && onCorruptRow !== 'skip') {
    invalid('onCorruptRow', "`onCorruptRow` must be 'throw' or 'skip'", onCorruptRow);
  }
  const durability = options.durability ?? 'turn';
  if (durability !== 'turn' && durability !== 'step') {
    invalid('durability', "`durability` must be 'turn' or 'step'", durability);
  }
  const relay = checkRelay(options.relay);
  const lease = checkLeaseOption(options.lease ?? leaseByDefault(store as SessionStore, relay));
  const onExistingTurn = options.onExistingTurn ?? 'return';
  if (onExistingTurn !== 'return' && onExistingTurn !== 'error') {
    invalid('onExistingTurn', "`onExistingTurn` must be 'return' or 'error'", onExistingTurn);
  }
  const recovery = checkRecoveryOption(options.recovery);
  const redact = checkRedactor('createAgentSession', options.redact);
  return {
    redact,
    onExistingTurn,
    recovery,
    durability,
    lease,
    turn: {
      threadId: threadId as string,
      store: store as SessionStore,
      model,
      fallbackModels: fallbacks as LanguageModelV4[],
      tools: options.tools,
      instructions: system,
      stopWhen,
      maxRetries,
      maxOutputTokens,
      temperature,
      providerOptions: options.providerOptions,
      caching:
        (caching ?? (providerOf(model).startsWith('anthropic') ? 'anthropic' : 'none')) ===
        'anthropic',
      now,
      context: contextConfig(options.contextBudget, options.compaction, model),
    },
    idGenerator,
    now,
    replayLimit,
    onError,
    relay,
    onCorruptRow,
  };
}

/**
 * Whether a session holds the thread's lease when its `lease` option is not given: where more
 * than one process can write the thread — a relay that reaches other processes, or a store on a
 * database server. A SQLite store without such a relay is one process's (`lease: true` for
 * several processes on one file).
 */
function leaseByDefault(store: SessionStore, relay: Relay | undefined): boolean {
  const remoteRelay = relay !== undefined && !isInProcess(relay);
  return remoteRelay || (store.dialect !== undefined && store.dialect !== 'sqlite');
}

/** Whether a relay serves one process only (an in-process relay has a synchronous `replay`). */
function isInProcess(relay: Relay): boolean {
  return typeof (relay as { replay?: unknown }).replay === 'function';
}

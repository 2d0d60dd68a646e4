import { generateText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import {
  type ContextBudget,
  describeCut,
  planModelInput,
  SUMMARY_HEADING,
} from '../model-messages/context-budget.js';
import type { ChatMessage } from '../schema/chat-message.js';
import type { ContextTruncation } from '../schema/context-truncation.js';
import { modelInputOf } from './model-input.js';
import { applyAnthropicCaching, modelMessagesOf } from './pipeline.js';
import type { SessionStore } from './store.js';
import {
  type MappedToolOutputs,
  toolModelOutputs,
  withMappedOutputs,
} from './tool-model-output.js';

/** The default request a compaction sends after the turns it summarises. */
export const DEFAULT_COMPACTION_INSTRUCTIONS =
  'Summarise the conversation above for your own later use: the facts, decisions, open questions and tool results that still matter. Be concise; write only the summary.';

/** The session's context settings, validated. */
export interface ContextConfig {
  readonly budget: ContextBudget;
  /** Compaction: the model and request, or undefined for none. */
  readonly compaction: { readonly model: LanguageModel; readonly instructions: string } | undefined;
}

/** What {@link budgetedInput} reads: the session's store and settings for the thread. */
export interface BudgetConfig {
  readonly store: SessionStore;
  readonly threadId: string;
  readonly context: ContextConfig;
  readonly tools: ToolSet | undefined;
}

/** What the budget decided for a turn. */
export interface BudgetedInput {
  /** Model input, before caching. */
  readonly messages: ModelMessage[];
  /** The new cut, to record in the turn as a `context-truncated` system event. */
  readonly cut: ContextTruncation | undefined;
}

/** The stored size of the input through the newest stored turn: its last step's input and output. */
async function knownSize(
  store: SessionStore,
  threadId: string,
  history: readonly ChatMessage[],
): Promise<{ turnId: string; tokens: number } | undefined> {
  const last = history[history.length - 1];
  if (last === undefined) return undefined;
  const usage = await store.getTurnUsage(threadId, last.turnId);
  const step = usage?.steps[usage.steps.length - 1];
  const input = step?.usage.inputTokens;
  if (step === undefined || input === undefined) return undefined;
  return { turnId: last.turnId, tokens: input + (step.usage.outputTokens ?? 0) };
}

async function firstSeqOf(
  store: SessionStore,
  threadId: string,
  turnId: string,
): Promise<number | undefined> {
  const rows = await store.getTurn(threadId, turnId).catch(() => null);
  return rows?.[0]?.seq;
}

async function summarise(
  compaction: NonNullable<ContextConfig['compaction']>,
  leftOut: readonly ChatMessage[],
  mapped: MappedToolOutputs | undefined,
  previous: string | undefined,
  abortSignal: AbortSignal,
): Promise<string> {
  const earlier: ModelMessage[] =
    previous === undefined
      ? []
      : [{ role: 'user', content: [{ type: 'text', text: SUMMARY_HEADING + previous }] }];
  const { text } = await generateText({
    model: compaction.model,
    messages: [
      ...earlier,
      ...withMappedOutputs(modelMessagesOf(leftOut), mapped),
      { role: 'user', content: [{ type: 'text', text: compaction.instructions }] },
    ],
    abortSignal,
  });
  return text;
}

/**
 * A turn's model input under the session's token budget: the plan of `planModelInput` over the
 * stored history and the new user message, corrected by the previous turn's stored usage; a
 * new cut gets its first seq from the store and, with compaction, a summary of what it leaves
 * out (model input then starts with the summary).
 *
 * @param config - the session's store, the thread, the budget and compaction settings, the tools
 *   (whose `toModelOutput` maps the stored results the budget counts and the model is sent)
 * @param history - the stored messages
 * @param user - the new user message, if any
 * @param abortSignal - the turn's signal (for the compaction call)
 * @returns the input, and the cut to record if one was made
 */
export async function budgetedInput(
  config: BudgetConfig,
  history: readonly ChatMessage[],
  user: ChatMessage | undefined,
  abortSignal: AbortSignal,
): Promise<BudgetedInput> {
  const { store, threadId, context } = config;
  const messages = user === undefined ? history : [...history, user];
  const known = await knownSize(store, threadId, history);
  // The budget counts each tool result as the model is sent it (its tool's toModelOutput).
  const mapped = await toolModelOutputs(() => modelInputOf(messages), config.tools);
  const plan = planModelInput(messages, {
    build: (kept) => withMappedOutputs(modelInputOf(kept), mapped),
    budget: context.budget,
    known,
  });
  if (plan.cut === undefined) return { messages: plan.messages, cut: undefined };
  const firstKeptSeq = await firstSeqOf(store, threadId, plan.cut.firstKeptTurnId);
  let cut: ContextTruncation =
    firstKeptSeq === undefined ? plan.cut : { ...plan.cut, firstKeptSeq };
  if (context.compaction === undefined) return { messages: plan.messages, cut };
  const firstKept = messages.findIndex((m) => m.turnId === cut.firstKeptTurnId);
  const previous = previousCut(messages.slice(0, firstKept));
  const from =
    previous === undefined ? 0 : messages.findIndex((m) => m.turnId === previous.firstKeptTurnId);
  const summary = await summarise(
    context.compaction,
    messages.slice(Math.max(from, 0), firstKept),
    mapped,
    previous?.summary,
    abortSignal,
  );
  cut = { ...cut, summary };
  return {
    messages: [
      { role: 'user', content: [{ type: 'text', text: SUMMARY_HEADING + summary }] },
      ...plan.messages,
    ],
    cut,
  };
}

/** The latest cut recorded in these messages. */
function previousCut(messages: readonly ChatMessage[]): ContextTruncation | undefined {
  for (let m = messages.length - 1; m >= 0; m--) {
    const chunks = (messages[m] as ChatMessage).chunks;
    for (let c = chunks.length - 1; c >= 0; c--) {
      const chunk = chunks[c];
      if (chunk?.type === 'system' && chunk.kind === 'context-truncated' && chunk.truncation) {
        return chunk.truncation;
      }
    }
  }
  return undefined;
}

/** The `context-truncated` system event recording a cut. */
export function cutEvent(cut: ContextTruncation): {
  type: 'system';
  kind: 'context-truncated';
  text: string;
  truncation: ContextTruncation;
} {
  return { type: 'system', kind: 'context-truncated', text: describeCut(cut), truncation: cut };
}

/**
 * A turn's first model input under the budget, with caching applied; a new cut is emitted into
 * the turn (before its first step) as a `context-truncated` system event, so it is stored with
 * the turn's rows where it happened.
 *
 * @param config - the store, thread, context settings, tools and caching of the session
 * @param history - the stored messages
 * @param user - the new user message
 * @param emit - emits an event into the running turn
 * @param abortSignal - the turn's signal
 * @returns the messages for the turn's first step
 */
export async function budgetedTurnInput(
  config: BudgetConfig & { readonly caching: boolean },
  history: readonly ChatMessage[],
  user: ChatMessage | undefined,
  emit: (event: ReturnType<typeof cutEvent>) => void,
  abortSignal: AbortSignal,
): Promise<ModelMessage[]> {
  const input = await budgetedInput(config, history, user, abortSignal);
  if (input.cut !== undefined) emit(cutEvent(input.cut));
  return config.caching ? applyAnthropicCaching(input.messages) : input.messages;
}

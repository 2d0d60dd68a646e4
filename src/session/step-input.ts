import type { ModelMessage, PrepareStepFunction, ToolSet } from 'ai';
import { capToolResults } from '../model-messages/cap-tool-results.js';
import type { ContextBudget } from '../model-messages/context-budget.js';
import { estimateTokens } from '../model-messages/token-estimate.js';
import { applyAnthropicCaching } from './pipeline.js';

/** The smallest size a tool result of the running turn is cut to when the budget runs out. */
export const MIN_IN_TURN_RESULT_CHARS = 200;

/** A cut made inside a turn: this turn's tool results sent shorter to fit the token budget. */
export interface InTurnCut {
  /** The step whose input was cut (0-based). */
  readonly step: number;
  /** The most characters each of this turn's tool results kept. */
  readonly maxChars: number;
  /** The counter's size of the input sent. */
  readonly tokens: number;
  /** The budget. */
  readonly maxTokens: number;
}

/** The `context-truncated` system event recording a cut made inside a turn. */
export function inTurnCutEvent(cut: InTurnCut): {
  type: 'system';
  kind: 'context-truncated';
  text: string;
} {
  return {
    type: 'system',
    kind: 'context-truncated',
    text: `Context cut in step ${cut.step}: this turn's tool results sent cut to ${cut.maxChars} characters each, about ${cut.tokens} of a ${cut.maxTokens}-token budget; the full results are stored.`,
  };
}

/** What every step's input gets besides what the AI SDK appends. */
export interface StepInputConfig {
  /** Anthropic cache breakpoints. */
  readonly caching: boolean;
  /** The session's token budget and tool result cap, when it has one. */
  readonly budget: ContextBudget | undefined;
}

/**
 * A `prepareStep` that gives every step of a turn, in-loop ones included, what the first step's
 * input got: tool results cut to `maxToolResultChars`, the token budget, and Anthropic cache
 * breakpoints. It works from the plain messages (the previous step's input without what this
 * function added, plus what the AI SDK appended since: the response, tool results, steering), so
 * caps and breakpoints never pile up and the prefix stays byte-stable from step to step. When a
 * step's input would pass `maxTokens`, the tool results of the running turn are cut shorter
 * (halving, down to {@link MIN_IN_TURN_RESULT_CHARS}) and `onCut` is told: earlier turns were
 * budgeted when the turn started.
 *
 * @param config - caching and the budget
 * @param onCut - told about each cut made inside the turn, before the step it applies to
 * @returns the function to pass as `prepareStep`, or undefined when there is nothing to do
 */
export function stepInputPreparer<TOOLS extends ToolSet>(
  config: StepInputConfig,
  onCut: (cut: InTurnCut) => void,
): PrepareStepFunction<TOOLS> | undefined {
  const { caching, budget } = config;
  if (!caching && budget === undefined) return undefined;
  const countTokens = budget?.countTokens ?? estimateTokens;
  let plain: ModelMessage[] | undefined;
  /** How many messages the turn's first step had: the ones after it are this turn's. */
  let turnStart = 0;
  let sent = 0;
  /** The cap of this turn's results once the budget forced one (it only ever shrinks). */
  let inTurnCap: number | undefined;
  return ({ messages, stepNumber }) => {
    if (plain === undefined) {
      plain = [...messages];
      turnStart = plain.length;
    } else {
      plain = [...plain, ...messages.slice(sent)];
    }
    let input = plain;
    if (budget !== undefined) {
      // The turn's first input (history and user message) was capped and budgeted already.
      const history = plain.slice(0, turnStart);
      const own = plain.slice(turnStart);
      const withCap = (cap: number | undefined) =>
        cap === undefined ? (plain as ModelMessage[]) : [...history, ...capToolResults(own, cap)];
      const longest = Math.min(longestResult(own), budget.maxToolResultChars ?? Infinity);
      let cap = inTurnCap ?? budget.maxToolResultChars;
      input = withCap(cap);
      let tokens = countTokens(input);
      let shorter = cap ?? longest;
      while (tokens > budget.maxTokens && shorter > MIN_IN_TURN_RESULT_CHARS) {
        shorter = Math.max(MIN_IN_TURN_RESULT_CHARS, Math.floor(shorter / 2));
        if (shorter >= longest) continue;
        cap = shorter;
        input = withCap(cap);
        tokens = countTokens(input);
      }
      if (cap !== undefined && cap < longest && cap !== (inTurnCap ?? budget.maxToolResultChars)) {
        inTurnCap = cap;
        onCut({ step: stepNumber, maxChars: cap, tokens, maxTokens: budget.maxTokens });
      }
    }
    const out = caching ? applyAnthropicCaching(input) : input;
    sent = out.length;
    return { messages: out };
  };
}

/** The length of the longest tool result text (JSON as its text) in these messages. */
function longestResult(messages: readonly ModelMessage[]): number {
  let longest = 0;
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output;
      const length =
        output.type === 'text' || output.type === 'error-text'
          ? output.value.length
          : output.type === 'json' || output.type === 'error-json'
            ? (JSON.stringify(output.value) ?? '').length
            : 0;
      longest = Math.max(longest, length);
    }
  }
  return longest;
}

import type { ModelMessage } from 'ai';
import { ChunklogError } from '../errors/chunklog-error.js';
import { readOptions } from '../errors/invalid-option.js';
import type { ChatMessage } from '../schema/chat-message.js';
import type { Chunk } from '../schema/chunk.js';
import type { ContextTruncation } from '../schema/context-truncation.js';
import { listingEvery } from '../schema/listing-every.js';
import { capToolResults } from './cap-tool-results.js';
import { estimateTokens, type TokenCounter } from './token-estimate.js';

/** The default share of the budget a cut brings model input down to. */
export const DEFAULT_CUT_TO = 0.5;
/** The default number of newest turns never left out. */
export const DEFAULT_KEEP_TURNS = 2;
/** The text the summary of left-out turns is sent under, as a user message. */
export const SUMMARY_HEADING = '[Summary of the earlier conversation, left out of this context]\n';

/**
 * A token budget for model input. When the input would exceed `maxTokens`, whole oldest turns
 * are left out, down to `cutTo × maxTokens`, so that the next cuts (and the changes to a cached
 * prefix they make) come rarely.
 *
 * @example
 * ```ts
 * const budget: ContextBudget = { maxTokens: 150_000, keepTurns: 4, maxToolResultChars: 20_000 };
 * ```
 */
export interface ContextBudget {
  /** The most tokens model input may hold, by `countTokens`. */
  readonly maxTokens: number;
  /** The newest turns never left out (the turn being sent counts). Default 2. */
  readonly keepTurns?: number | undefined;
  /** A cut brings the input down to this share of `maxTokens` (0 < cutTo ≤ 1). Default 0.5. */
  readonly cutTo?: number | undefined;
  /** The token counter. Default {@link estimateTokens} (conservative). */
  readonly countTokens?: TokenCounter | undefined;
  /** Each tool result keeps at most this many characters in model input (the cut is marked). */
  readonly maxToolResultChars?: number | undefined;
}

/**
 * The exact size of earlier model input, from stored usage: the last step of turn `turnId`
 * sent `inputTokens` and got `outputTokens` back, so the history through that turn is about
 * their sum (its system prompt and tools included).
 */
export interface KnownInputSize {
  readonly turnId: string;
  readonly tokens: number;
}

/** Options of {@link planModelInput}. */
export interface PlanModelInputOptions {
  /** Builds model input from messages (`toModelMessages` with the caller's options). */
  readonly build: (messages: readonly ChatMessage[]) => ModelMessage[];
  /** The budget. */
  readonly budget: ContextBudget;
  /** The stored size of the input through a turn, which replaces the estimate of that part. */
  readonly known?: KnownInputSize | undefined;
}

/** What {@link planModelInput} decided. */
export interface PlannedModelInput {
  /** Model input: the summary (if any) and the kept turns. */
  readonly messages: ModelMessage[];
  /** Its size by the counter (corrected by `known` when that applied). */
  readonly tokens: number;
  /** The first turn sent, when turns are left out. */
  readonly firstKeptTurnId: string | undefined;
  /**
   * A new cut made by this call, to record in the log as a `context-truncated` system chunk
   * (`firstKeptSeq` is left for the store to fill in); undefined when the cut in force held.
   */
  readonly cut: ContextTruncation | undefined;
  /** True when even the turns that must be kept exceed the budget. */
  readonly overBudget: boolean;
}

interface Turn {
  readonly turnId: string;
  readonly messages: ChatMessage[];
}

interface CheckedBudget {
  readonly maxTokens: number;
  readonly keepTurns: number;
  readonly cutTo: number;
  readonly countTokens: TokenCounter;
  readonly maxToolResultChars: number | undefined;
}

const BUDGET_FIELDS: readonly (keyof ContextBudget)[] = listingEvery<keyof ContextBudget>()([
  'maxTokens',
  'keepTurns',
  'cutTo',
  'countTokens',
  'maxToolResultChars',
]);

function checkBudget(budget: ContextBudget): CheckedBudget {
  const bad = (option: string, message: string, value: unknown): never => {
    throw new ChunklogError('invalid-option', `contextBudget: ${message}`, { option, value });
  };
  if (budget === null || typeof budget !== 'object' || Array.isArray(budget))
    bad('contextBudget', 'must be an object', budget);
  // A misspelt field is named (`max_tokens` → `maxTokens`), not read as a missing one.
  readOptions(budget, 'contextBudget', BUDGET_FIELDS, 'contextBudget');
  const { maxTokens, keepTurns, cutTo, countTokens, maxToolResultChars } = budget;
  if (!Number.isSafeInteger(maxTokens) || maxTokens < 1) {
    bad('contextBudget.maxTokens', '`maxTokens` must be a positive integer', maxTokens);
  }
  if (keepTurns !== undefined && (!Number.isSafeInteger(keepTurns) || keepTurns < 1)) {
    bad('contextBudget.keepTurns', '`keepTurns` must be a positive integer', keepTurns);
  }
  if (cutTo !== undefined && !(typeof cutTo === 'number' && cutTo > 0 && cutTo <= 1)) {
    bad('contextBudget.cutTo', '`cutTo` must be a number above 0 and at most 1', cutTo);
  }
  if (countTokens !== undefined && typeof countTokens !== 'function') {
    bad('contextBudget.countTokens', '`countTokens` must be a function', countTokens);
  }
  if (
    maxToolResultChars !== undefined &&
    (!Number.isSafeInteger(maxToolResultChars) || maxToolResultChars < 1)
  ) {
    bad(
      'contextBudget.maxToolResultChars',
      '`maxToolResultChars` must be a positive integer',
      maxToolResultChars,
    );
  }
  return {
    maxTokens,
    keepTurns: keepTurns ?? DEFAULT_KEEP_TURNS,
    cutTo: cutTo ?? DEFAULT_CUT_TO,
    countTokens: countTokens ?? estimateTokens,
    maxToolResultChars,
  };
}

/** Consecutive messages of one turn id form a turn. */
function turnsOf(messages: readonly ChatMessage[]): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | undefined;
  for (const message of messages) {
    if (current === undefined || current.turnId !== message.turnId) {
      current = { turnId: message.turnId, messages: [] };
      turns.push(current);
    }
    current.messages.push(message);
  }
  return turns;
}

/**
 * The cut in force: the latest `context-truncated` chunk whose first kept turn is present, and
 * the index of that turn's first message. Scans from the end: a thread under a cut is read only
 * back to its first kept turn.
 */
function cutInForce(
  messages: readonly ChatMessage[],
): { index: number; truncation: ContextTruncation } | undefined {
  for (let m = messages.length - 1; m >= 0; m--) {
    const chunks = (messages[m] as ChatMessage).chunks;
    for (let c = chunks.length - 1; c >= 0; c--) {
      const chunk = chunks[c] as Chunk;
      if (chunk.type !== 'system' || chunk.kind !== 'context-truncated') continue;
      const truncation = chunk.truncation;
      if (truncation === undefined) continue;
      // The first kept turn is this one or an earlier one; its messages are consecutive.
      let index = -1;
      for (let k = m; k >= 0; k--) {
        const turnId = (messages[k] as ChatMessage).turnId;
        if (turnId === truncation.firstKeptTurnId) index = k;
        else if (index !== -1) break;
      }
      if (index !== -1) return { index, truncation };
    }
  }
  return undefined;
}

/** Whether a turn sends anything to the model (a system turn does not). */
function sendsAnything(turn: Turn): boolean {
  return turn.messages.some((m) => m.role !== 'system');
}

/** Characters of a turn, for sharing a token count out among turns. */
function turnWeight(turn: Turn): number {
  let chars = 1;
  for (const message of turn.messages) {
    if (message.role === 'system') continue;
    for (const chunk of message.chunks) {
      if (chunk.type === 'text' || chunk.type === 'thinking' || chunk.type === 'steering') {
        chars += chunk.text.length;
      } else if (chunk.type === 'tool-batch') {
        for (const call of chunk.calls) {
          chars += (JSON.stringify(call.input) ?? '').length + 20;
          chars += (JSON.stringify(call.result) ?? '').length;
        }
      }
    }
  }
  return chars;
}

/** Tool call ids a turn calls, and the ids of deferred results it holds. */
function toolIds(turn: Turn): { calls: Set<string>; deferred: Set<string> } {
  const calls = new Set<string>();
  const deferred = new Set<string>();
  for (const message of turn.messages) {
    for (const chunk of message.chunks) {
      if (chunk.type !== 'tool-batch') continue;
      for (const call of chunk.calls) {
        if ((call as { deferred?: boolean }).deferred === true) deferred.add(call.id);
        else calls.add(call.id);
      }
    }
  }
  return { calls, deferred };
}

/**
 * Whether model input may start at turn `k`: no deferred result in turn `k` or later belongs to
 * a call made before it (a tool call is never sent apart from its result).
 */
function cutPoints(turns: readonly Turn[], from: number): boolean[] {
  const ids = turns.map(toolIds);
  const valid = turns.map(() => true);
  const pendingDeferred = new Set<string>();
  for (let k = turns.length - 1; k >= from; k--) {
    for (const id of (ids[k] as { deferred: Set<string> }).deferred) pendingDeferred.add(id);
    for (const id of (ids[k] as { calls: Set<string> }).calls) pendingDeferred.delete(id);
    // Starting at k leaves out the calls before k: any deferred result still pending needs one.
    valid[k] = pendingDeferred.size === 0;
  }
  return valid;
}

function summaryMessage(summary: string): ModelMessage {
  return { role: 'user', content: [{ type: 'text', text: SUMMARY_HEADING + summary }] };
}

/**
 * Plans model input under a token budget, from a thread's messages (the stored history and the
 * turn being sent). The cut in force is the latest `context-truncated` system chunk in the
 * messages; when the input under it exceeds the budget, a new cut leaves out whole oldest turns
 * until the input is at most `cutTo × maxTokens` (keeping the `keepTurns` newest turns, and never
 * starting between a tool call and a deferred result of it), and is returned to be recorded.
 * Pure: the caller records the cut.
 *
 * @param messages - the thread's messages, oldest first
 * @param options - the builder, the budget and a known input size
 * @returns the input, its size, and the new cut if one was made
 * @throws {ChunklogError} `invalid-option` naming a bad budget field
 *
 * @example
 * ```ts
 * const plan = planModelInput(history, {
 *   build: (kept) => toModelMessages(kept),
 *   budget: { maxTokens: 100_000 },
 * });
 * if (plan.cut) recordSentinel(plan.cut);
 * ```
 */
export function planModelInput(
  messages: readonly ChatMessage[],
  options: PlanModelInputOptions,
): PlannedModelInput {
  const budget = checkBudget(options.budget);
  const { countTokens, maxTokens } = budget;
  // Only the turns under the cut in force are grouped: a long thread's left-out part is skipped.
  const inForce = cutInForce(messages);
  const offset = inForce?.index ?? 0;
  const underCut = offset === 0 ? messages : messages.slice(offset);
  // The turns are split out only when needed (a known count to find, or a new cut to make): a
  // thread within its budget is built and counted, nothing more.
  let split: Turn[] | undefined;
  const turns = (): Turn[] => {
    split ??= turnsOf(underCut);
    return split;
  };
  const summary = inForce?.truncation.summary;
  const build = (from: number, withSummary: string | undefined): ModelMessage[] => {
    const kept =
      from === 0
        ? underCut
        : turns()
            .slice(from)
            .flatMap((t) => t.messages);
    let input = options.build(kept);
    if (budget.maxToolResultChars !== undefined) {
      input = capToolResults(input, budget.maxToolResultChars);
    }
    return withSummary === undefined ? input : [summaryMessage(withSummary), ...input];
  };

  const current = build(0, summary);
  const knownAt =
    options.known === undefined
      ? -1
      : turns().findIndex((turn) => turn.turnId === options.known?.turnId);
  let tokens: number;
  if (options.known !== undefined && knownAt >= 0) {
    // The stored size of the input through the known turn, plus the estimate of what followed.
    const after = turns()
      .slice(knownAt + 1)
      .flatMap((turn) => turn.messages);
    tokens = options.known.tokens + (after.length === 0 ? 0 : countTokens(options.build(after)));
  } else {
    tokens = countTokens(current);
  }
  const firstKeptTurnId = inForce === undefined ? undefined : underCut[0]?.turnId;
  if (tokens <= maxTokens) {
    return { messages: current, tokens, firstKeptTurnId, cut: undefined, overBudget: false };
  }

  // A new cut. Share the count out by the turns' sizes, and leave out oldest turns to the target.
  const underCutTurns = turns();
  let mustKeep = budget.keepTurns;
  let lastDroppable = underCutTurns.length;
  for (let t = underCutTurns.length - 1; t >= 0 && mustKeep > 0; t--) {
    if (sendsAnything(underCutTurns[t] as Turn)) mustKeep -= 1;
    lastDroppable = t;
  }
  const valid = cutPoints(underCutTurns, 0);
  const weights = underCutTurns.map(turnWeight);
  const suffix: number[] = new Array(underCutTurns.length + 1).fill(0);
  for (let t = underCutTurns.length - 1; t >= 0; t--) {
    suffix[t] = (suffix[t + 1] as number) + (weights[t] as number);
  }
  const target = budget.cutTo * maxTokens;
  // The first valid cut after `from` whose share of the count is within the target.
  const byWeight = (from: number, perWeight: number): number => {
    let best = from;
    for (let k = from + 1; k <= lastDroppable; k++) {
      if (!valid[k]) continue;
      best = k;
      if ((suffix[k] as number) * perWeight <= target) break;
    }
    return best;
  };
  const nextValid = (from: number): number => {
    for (let k = from + 1; k <= lastDroppable; k++) if (valid[k]) return k;
    return from;
  };
  let cutAt = byWeight(0, tokens / (suffix[0] as number));
  let input = current;
  let size = tokens;
  if (cutAt > 0) {
    input = build(cutAt, undefined);
    size = countTokens(input);
  }
  // The shares are estimates: while the counter still says it is over, share again by what it
  // said (a few times), then leave out one more turn at a time.
  for (let round = 0; size > target && cutAt < lastDroppable; round++) {
    let next = round < 3 ? byWeight(cutAt, size / (suffix[cutAt] as number)) : nextValid(cutAt);
    if (next === cutAt) next = nextValid(cutAt);
    if (next === cutAt) break;
    cutAt = next;
    input = build(cutAt, undefined);
    size = countTokens(input);
  }
  if (cutAt === 0) {
    return { messages: current, tokens, firstKeptTurnId, cut: undefined, overBudget: true };
  }
  const before = turnsOf(messages.slice(0, offset)).filter(sendsAnything).length;
  const leftOutTurns = before + underCutTurns.slice(0, cutAt).filter(sendsAnything).length;
  const firstKept = underCutTurns[cutAt] as Turn;
  return {
    messages: input,
    tokens: size,
    firstKeptTurnId: firstKept.turnId,
    cut: { firstKeptTurnId: firstKept.turnId, leftOutTurns, maxTokens, keptTokens: size },
    overBudget: size > maxTokens,
  };
}

/**
 * The text of a `context-truncated` system chunk for a cut.
 *
 * @param cut - the cut
 * @returns a sentence a person can read in the log
 *
 * @example
 * ```ts
 * describeCut({ firstKeptTurnId: 't40', firstKeptSeq: 301, leftOutTurns: 39, maxTokens: 8000, keptTokens: 3900 });
 * // 'Context cut: 39 earlier turns left out of model input; it starts at turn t40 (from seq 301), …'
 * ```
 */
export function describeCut(cut: ContextTruncation): string {
  const turns = cut.leftOutTurns === 1 ? '1 earlier turn' : `${cut.leftOutTurns} earlier turns`;
  const where = cut.firstKeptSeq === undefined ? '' : ` (from seq ${cut.firstKeptSeq})`;
  const summary = cut.summary === undefined ? '' : ', sent as a summary';
  return `Context cut: ${turns} left out of model input${summary}; it starts at turn ${cut.firstKeptTurnId}${where}, about ${cut.keptTokens} of a ${cut.maxTokens}-token budget.`;
}

import type { ModelMessage } from 'ai';
import type { ChatMessage } from '../schema/chat-message.js';
import { checkChatMessages } from '../schema/check-list.js';
import type { Chunk, ToolBatchChunk, ToolCallEntry } from '../schema/chunk.js';
import type { AssistantPart, ToolPart, UserPart } from './ai-types.js';
import { assistantFilePart, customPart, textPart, userFilePart } from './content-parts.js';
import { planModelInput } from './context-budget.js';
import { cutShortSteps, type DeferredResults, deferredResults } from './deferred-results.js';
import { lateOutcomes, withLateOutcome } from './late-outcomes.js';
import { type ResolvedOptions, resolveOptions, type ToModelMessagesOptions } from './options.js';
import { type ChunkPosition, lastModelChange, reasoningPart } from './reasoning-replay.js';
import {
  approvalRequestPart,
  approvalResponsePart,
  awaitsApproval,
  deniedOutput,
  hasOutcome,
  outcomeOutput,
  toolCallPart,
  toolResultPart,
} from './tool-parts.js';

/**
 * Leaves out the reasoning that ends a step cut short (cancelled or interrupted): a thought the
 * model never acted on, which no provider takes back alone. It has no signature when it was cut
 * in the middle, so Anthropic drops it and then refuses the empty assistant message; OpenAI
 * refuses a reasoning item that no message or call follows. The AI SDK itself never sends a step
 * cut short back.
 */
function dropTrailingReasoning(parts: AssistantPart[]): void {
  while (parts.length > 0 && parts[parts.length - 1]?.type === 'reasoning') parts.pop();
}

/** Builds the ModelMessage list; one instance per call of {@link toModelMessages}. */
class Builder {
  readonly out: ModelMessage[] = [];
  private assistant: AssistantPart[] = [];
  /** The step's approval answers, in call order: the tool message starts with them. */
  private responses: ToolPart[] = [];
  /** The step's tool results, in call order, after the answers. */
  private results: ToolPart[] = [];
  /** Error results made up for calls awaiting approval (removable with `pendingApprovals: 'keep'`). */
  readonly pendingParts = new Set<ToolPart>();
  /**
   * The call and approval request of provider-executed calls awaiting approval, kept with
   * `pendingApprovals: 'keep'` only where they end the history (the provider asked, an MCP call).
   */
  private readonly pendingProviderParts = new Set<AssistantPart>();
  private readonly late: Map<string, ToolCallEntry>;
  /** Calls whose result is a deferred result, and where that result goes. */
  private readonly deferred: DeferredResults;
  /** The calls sent so far, by id: a deferred result goes back only after its call. */
  private readonly sent = new Map<string, ToolCallEntry>();
  /** The steps of the current assistant message that were cut short. */
  private cutShort: Set<number> = new Set();
  /** The step of the assistant message being built. */
  private step: number | undefined;
  private readonly change: ChunkPosition | undefined;

  constructor(
    messages: readonly ChatMessage[],
    private readonly options: ResolvedOptions,
  ) {
    this.late = lateOutcomes(messages);
    this.deferred = deferredResults(messages);
    this.change = lastModelChange(messages);
  }

  user(message: ChatMessage): void {
    const content: UserPart[] = [];
    for (const chunk of message.chunks) {
      if ((chunk.type === 'text' || chunk.type === 'steering') && chunk.text !== '') {
        content.push(chunk.type === 'text' ? textPart(chunk) : { type: 'text', text: chunk.text });
      } else if (chunk.type === 'file') {
        content.push(userFilePart(chunk));
      }
    }
    if (content.length > 0) this.out.push({ role: 'user', content });
  }

  assistantTurn(message: ChatMessage, index: number): void {
    const chunks = message.chunks;
    this.cutShort = cutShortSteps(chunks);
    this.step = undefined;
    for (let c = 0; c < chunks.length; c++) {
      const chunk = chunks[c] as Chunk;
      if (this.step !== undefined && chunk.step !== this.step) this.flushStep();
      this.step = chunk.step;
      this.assistantChunk(chunk, index, c);
    }
    this.flushStep();
  }

  /** Pending calls at the very end keep no result when `pendingApprovals` is `'keep'`. */
  finish(): ModelMessage[] {
    const last = this.out[this.out.length - 1];
    if (this.options.pendingApprovals === 'keep' && last?.role === 'tool') {
      const kept = last.content.filter((part) => !this.pendingParts.has(part));
      if (kept.length === 0) this.out.pop();
      else last.content = kept;
    }
    if (this.pendingProviderParts.size > 0) {
      // A pending provider-executed call stays only in the message that ends the history.
      const end = this.out[this.out.length - 1];
      for (let m = this.out.length - 1; m >= 0; m--) {
        const message = this.out[m] as ModelMessage;
        if (message === end || message.role !== 'assistant' || typeof message.content === 'string')
          continue;
        const kept = message.content.filter((part) => !this.pendingProviderParts.has(part));
        if (kept.length === 0) this.out.splice(m, 1);
        else message.content = kept;
      }
    }
    return this.out;
  }

  private assistantChunk(chunk: Chunk, message: number, at: number): void {
    switch (chunk.type) {
      case 'text':
        if (chunk.text !== '' || chunk.providerMetadata !== undefined)
          this.assistant.push(textPart(chunk));
        return;
      case 'thinking': {
        const part = reasoningPart(chunk, [message, at], this.change, this.options);
        if (part !== undefined) this.assistant.push(part);
        return;
      }
      case 'custom':
        this.assistant.push(customPart(chunk));
        return;
      case 'file':
        this.assistant.push(assistantFilePart(chunk));
        return;
      case 'tool-batch':
        this.batch(chunk);
        return;
      case 'steering':
        // The AI SDK appends a steering message after the previous step's messages, before the
        // model call of the step that received it.
        this.flushStep();
        this.out.push({ role: 'user', content: chunk.text });
        return;
      case 'source':
      case 'system':
      case 'error':
      case 'data': // an app's UI data part: never sent to the model
        return;
      default: {
        const unknown: never = chunk;
        void unknown;
      }
    }
  }

  /**
   * A batch's calls as the AI SDK's loop puts them in the next step's prompt (`toResponseMessages`):
   * each call (with its approval request, and the call's provider metadata) in the assistant
   * message, a provider-executed call's result there too (with the result's metadata); in the tool
   * message, first every answered approval of the step (a
   * provider-executed call's included: the provider needs it), then the results of local calls in
   * call order, each with its call's provider metadata as `providerOptions` (as `executeToolCall`
   * gives it), except a denial's and a result that came in a later turn (the AI SDK runs an
   * approved call at the start of the next run and sends its result without it).
   */
  private batch(chunk: ToolBatchChunk): void {
    for (const entry of chunk.calls) {
      if (entry.deferred === true) {
        this.deferredResult(entry);
        continue;
      }
      // Orphan placeholders only lend their outcome to their call; a call whose input never
      // finished streaming was never made.
      if (entry.orphan === true || entry.input === undefined) continue;
      let outcome: ToolCallEntry | undefined = hasOutcome(entry) ? entry : undefined;
      let late = false;
      if (outcome === undefined) {
        const found = this.late.get(entry.id);
        if (found !== undefined) {
          this.late.delete(entry.id);
          outcome = withLateOutcome(entry, found);
          late = true;
        }
      }
      if (outcome === undefined) {
        // A local call's result that arrived apart from it goes back with it (with the call's
        // metadata, as `executeToolCall` gives it): a provider wants it right after the call.
        const found = this.deferred.localOutcomes.get(entry);
        if (found !== undefined) outcome = withLateOutcome(entry, found);
      }
      if (outcome === undefined && this.deferred.providerCalls.has(entry)) {
        // Its result arrived later, apart from it: the call goes alone, the result where it came.
        this.call(entry);
        continue;
      }
      const response = approvalResponsePart(outcome ?? entry);
      if (entry.providerExecuted === true) {
        // The provider's own tool: its call and result stay in the assistant message. A call
        // with no result is sent alone, as the AI SDK's loop sends it (the provider keeps it
        // pending: a deferred tool search, a code execution calling client tools), except in a
        // step that was cut short, and except when it awaits an approval the provider asked
        // for: then it is kept only with `pendingApprovals: 'keep'` at the end of the history,
        // so that the app can answer it. An answered approval goes in the tool message, and a
        // denial with it, as the AI SDK does.
        if (outcome === undefined) {
          if (awaitsApproval(entry)) {
            if (this.options.pendingApprovals === 'keep') {
              for (const part of this.call(entry)) this.pendingProviderParts.add(part);
            }
          } else if (!this.cutShort.has(chunk.step)) {
            this.call(entry);
          }
          continue;
        }
        this.call(entry);
        if (outcome.denied !== true || response?.approved !== false) {
          // With the result's own metadata, as the AI SDK's loop sends it (the call part has the
          // call's).
          this.assistant.push(
            toolResultPart(
              outcome,
              outcomeOutput(outcome, this.options),
              outcome.resultProviderMetadata,
            ),
          );
        }
        if (response !== undefined) {
          this.responses.push(response);
          if (response.approved === false) {
            this.results.push(toolResultPart(entry, deniedOutput(response.reason), undefined));
          }
        }
        continue;
      }
      this.call(entry);
      if (response !== undefined) this.responses.push(response);
      if (outcome !== undefined) {
        const metadata = late || outcome.denied === true ? undefined : entry.providerMetadata;
        this.results.push(toolResultPart(outcome, outcomeOutput(outcome, this.options), metadata));
      } else {
        const part = toolResultPart(
          entry,
          { type: 'error-text', value: this.options.unansweredToolResult },
          undefined,
        );
        if (awaitsApproval(entry)) this.pendingParts.add(part);
        this.results.push(part);
      }
    }
  }

  /**
   * A deferred result, where it arrived: a provider-executed call's in the assistant message
   * (with the result's own metadata). A local call's went back with its call; one whose call was
   * not sent is dropped.
   */
  private deferredResult(entry: ToolCallEntry): void {
    const call = this.sent.get(entry.id);
    // A local call's deferred result went back with its call (see `deferredResults`).
    if (call === undefined || !hasOutcome(entry) || call.providerExecuted !== true) return;
    const outcome = withLateOutcome(call, entry);
    const output = outcomeOutput(outcome, this.options);
    if (call.providerExecuted === true) {
      this.assistant.push(toolResultPart(outcome, output, entry.resultProviderMetadata));
    } else {
      this.results.push(toolResultPart(outcome, output, call.providerMetadata));
    }
  }

  /** A call's `tool-call` part, and its approval request when it needed one; returns them. */
  private call(entry: ToolCallEntry): AssistantPart[] {
    this.sent.set(entry.id, entry);
    const parts: AssistantPart[] = [toolCallPart(entry)];
    const request = approvalRequestPart(entry);
    if (request !== undefined) parts.push(request);
    this.assistant.push(...parts);
    return parts;
  }

  private flushStep(): void {
    if (this.step !== undefined && this.cutShort.has(this.step))
      dropTrailingReasoning(this.assistant);
    if (this.assistant.length > 0) this.out.push({ role: 'assistant', content: this.assistant });
    const tool = [...this.responses, ...this.results];
    if (tool.length > 0) this.out.push({ role: 'tool', content: tool });
    this.assistant = [];
    this.responses = [];
    this.results = [];
  }
}

/**
 * Builds the AI SDK v7 `ModelMessage[]` the next model call needs from a thread's messages
 * (`groupRowsToMessages` of the stored rows, plus the live turn). What goes back and what does
 * not is described in `docs/model-input.md`:
 *
 * - system-role messages, `system`, `error` and `source` chunks never go back;
 * - each step of an assistant turn becomes the assistant message (text, reasoning with its
 *   provider metadata, custom parts in place, files, tool calls, provider-executed results) and
 *   the tool message (local results, in call order) that the AI SDK itself would send;
 * - a `steering` chunk becomes a user message before the step that received it;
 * - a tool call that never got a result gets an `error-text` result
 *   ({@link UNANSWERED_TOOL_CALL_TEXT}), so no provider rejects the request;
 * - reasoning of another model (see `targetModelId`, `foreignReasoning`) loses its signature
 *   metadata or is left out.
 *
 * @param messages - the thread's messages, oldest first
 * @param options - see {@link ToModelMessagesOptions}
 * @returns the messages for `streamText({ messages })`
 * @throws {ChunklogError} `invalid-option`, naming the option; `invalid-message` when `messages`
 *   is not an array of valid chat messages (`path` starts with the index)
 *
 * @example
 * ```ts
 * const history = groupRowsToMessages((await store.getChunks(threadId, { limit: 500 })).chunks);
 * const result = streamText({
 *   model,
 *   messages: [...toModelMessages(history, { targetModelId: 'claude-sonnet-4-5' }), { role: 'user', content: 'next' }],
 * });
 * ```
 */
export function toModelMessages(
  messages: readonly ChatMessage[],
  options?: ToModelMessagesOptions,
): ModelMessage[] {
  const resolved = resolveOptions(options);
  const checked = checkChatMessages(messages, 'toModelMessages');
  const budget = options?.contextBudget;
  if (budget === undefined) return buildModelMessages(checked, resolved);
  return planModelInput(checked, { build: (kept) => buildModelMessages(kept, resolved), budget })
    .messages;
}

/**
 * {@link toModelMessages} without its checks, for messages chunklog grouped itself from rows it
 * validated (the session's history, rebuilt every turn), where checking the whole thread again
 * per turn would cost.
 */
export function modelMessagesOf(
  messages: readonly ChatMessage[],
  options?: ToModelMessagesOptions,
): ModelMessage[] {
  return buildModelMessages(messages, resolveOptions(options));
}

function buildModelMessages(
  messages: readonly ChatMessage[],
  resolved: ResolvedOptions,
): ModelMessage[] {
  const builder = new Builder(messages, resolved);
  for (let m = 0; m < messages.length; m++) {
    const message = messages[m] as ChatMessage;
    if (message.role === 'user') builder.user(message);
    else if (message.role === 'assistant') builder.assistantTurn(message, m);
  }
  return builder.finish();
}

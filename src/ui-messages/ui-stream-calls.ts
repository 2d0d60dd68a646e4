import type { UIMessageChunk } from 'ai';
import type { ToolApproval, ToolCallEntry } from '../schema/index.js';
import { CHUNKLOG_DATA_PARTS } from './data-parts.js';

/** What has been sent of one tool call. */
export interface SentCall {
  /** The call's tool name and whether it is dynamic (as JSON), once the client has a part for it. */
  kind: string | undefined;
  /** The call's title and provider metadata the client has (as JSON). */
  details: string | undefined;
  /** The call's `providerExecuted` the client has. */
  executed: boolean | undefined;
  /** How much of `inputText` was sent (undefined: none, not even an empty delta). */
  inputText: number | undefined;
  /** The input sent with `tool-input-available` (as JSON). */
  input: string | undefined;
  /** The approval request sent (its id, `isAutomatic` and signature, as JSON). */
  request: string | undefined;
  /** The answer sent (`approved` and reason, as JSON). */
  answer: string | undefined;
  /** The JSON of the last preliminary output sent. */
  preliminary: string | undefined;
  result: boolean;
  /** How much progress text was sent (undefined: no progress part yet). */
  progress: number | undefined;
  /** The entry all of the above was sent for: the same entry again needs nothing sent. */
  entry: ToolCallEntry | undefined;
}

/** Nothing sent of a call yet. */
export function unsentCall(): SentCall {
  return {
    kind: undefined,
    details: undefined,
    executed: undefined,
    inputText: undefined,
    input: undefined,
    request: undefined,
    answer: undefined,
    preliminary: undefined,
    result: false,
    progress: undefined,
    entry: undefined,
  };
}

function approvalUpdates(
  toolCallId: string,
  approval: ToolApproval,
  sent: SentCall,
  out: UIMessageChunk[],
): boolean {
  const before = out.length;
  const request = JSON.stringify([approval.id, approval.isAutomatic, approval.signature]);
  if (request !== sent.request) {
    out.push({
      type: 'tool-approval-request',
      approvalId: approval.id,
      toolCallId,
      ...(approval.approved === undefined && approval.reason !== undefined
        ? { reason: approval.reason }
        : {}),
      ...(approval.isAutomatic === undefined ? {} : { isAutomatic: approval.isAutomatic }),
      ...(approval.signature === undefined ? {} : { signature: approval.signature }),
    });
    sent.request = request;
    sent.answer = undefined;
  }
  if (approval.approved === undefined) return out.length > before;
  const answer = JSON.stringify([approval.approved, approval.reason]);
  if (answer === sent.answer) return out.length > before;
  out.push({
    type: 'tool-approval-response',
    approvalId: approval.id,
    approved: approval.approved,
    ...(approval.reason === undefined ? {} : { reason: approval.reason }),
  });
  sent.answer = answer;
  return true;
}

const json = (value: unknown): string | undefined =>
  value === undefined ? undefined : JSON.stringify(value);

/**
 * The stream chunks that bring the client's part of `call` up to date, and records them in `sent`.
 *
 * @param call - the call as the log has it now
 * @param sent - what was sent of it so far (updated)
 * @param out - where the stream chunks go
 * @param canRebuild - whether the call's part is in the client's current step (the caller can
 *   send the step again)
 * @param appendedInput - the input text the last event appended to the call, if known: sent as
 *   it is when the lengths say so, instead of being sliced out of the call's whole input text
 * @returns `'rebuild'` (and nothing sent) when the client's part cannot be updated in place (the
 *   call's name or kind changed: a result came before its call) and `canRebuild` is true
 */
export function callUpdates(
  call: ToolCallEntry,
  sent: SentCall,
  out: UIMessageChunk[],
  canRebuild: boolean,
  appendedInput?: string | undefined,
): 'rebuild' | undefined {
  // Sending is idempotent: an entry that was sent whole has nothing new.
  if (sent.entry === call) return undefined;
  const head = {
    toolCallId: call.id,
    toolName: call.name,
    ...(call.providerExecuted === undefined ? {} : { providerExecuted: call.providerExecuted }),
    ...(call.providerMetadata === undefined ? {} : { providerMetadata: call.providerMetadata }),
    ...(call.dynamic === true ? { dynamic: true } : {}),
    ...(call.title === undefined ? {} : { title: call.title }),
  };
  const kind = JSON.stringify([call.name, call.dynamic === true]);
  const details = JSON.stringify([call.title, call.providerMetadata]);
  const executed = call.providerExecuted;
  if (executed !== sent.executed && !canRebuild && kind === sent.kind && details === sent.details) {
    // Found provider-executed by a result in a later step: the client looks for a part by its
    // input in its current step only (it would add a second part), so the output says it. The
    // call's own output goes again; a deferred one is sent with its call's `providerExecuted`.
    sent.executed = executed;
    if (call.result !== undefined) sent.result = false;
  }
  if (kind !== sent.kind || details !== sent.details || executed !== sent.executed) {
    // The part's type changes with its name or kind (a result came before its call): only a
    // rebuilt step can replace it.
    if (sent.kind !== undefined && kind !== sent.kind && canRebuild) return 'rebuild';
    // A new part, or one whose details changed (a title or the call's metadata that came late):
    // the client (re)builds it from its input, and everything after goes again.
    if (call.input === undefined) out.push({ type: 'tool-input-start', ...head });
    Object.assign(sent, unsentCall(), { kind, details, executed });
  }
  if (
    call.input === undefined &&
    call.inputText !== undefined &&
    call.inputText.length !== sent.inputText
  ) {
    const length = call.inputText.length;
    out.push({
      type: 'tool-input-delta',
      toolCallId: call.id,
      inputTextDelta:
        sent.inputText !== undefined &&
        appendedInput !== undefined &&
        length === sent.inputText + appendedInput.length
          ? appendedInput
          : call.inputText.slice(sent.inputText ?? 0),
    });
    sent.inputText = call.inputText.length;
  }
  const input = json(call.input);
  if (input !== undefined && input !== sent.input) {
    out.push({ type: 'tool-input-available', ...head, input: call.input });
    sent.input = input;
    // The client resets a part's state and output on `tool-input-available`: what the call had
    // before its input (a result that arrived first) goes again.
    Object.assign(sent, {
      request: undefined,
      answer: undefined,
      preliminary: undefined,
      result: false,
    });
  }
  const approval = call.approval;
  if (approval !== undefined && approvalUpdates(call.id, approval, sent, out)) {
    // An approval sets the part's state: an output it already had goes again, after it.
    sent.preliminary = undefined;
    sent.result = false;
  }
  // The result's own provider metadata rides on its output, as the AI SDK streams it (the
  // client keeps it as the part's `resultProviderMetadata`).
  const resultMetadata =
    call.resultProviderMetadata === undefined
      ? {}
      : { providerMetadata: call.resultProviderMetadata };
  if (call.result === undefined && call.preliminary !== undefined) {
    const preliminary = json(call.preliminary);
    if (preliminary !== sent.preliminary) {
      out.push({
        type: 'tool-output-available',
        toolCallId: call.id,
        output: call.preliminary,
        preliminary: true,
        ...resultMetadata,
      });
      sent.preliminary = preliminary;
    }
  }
  resultUpdates(call, sent, out, call);
  if (call.progress !== undefined && call.progress.length !== sent.progress) {
    out.push({
      type: CHUNKLOG_DATA_PARTS.toolProgress,
      id: call.id,
      data: { toolCallId: call.id, text: call.progress },
    });
    sent.progress = call.progress.length;
  }
  sent.entry = call;
  return undefined;
}

/**
 * The stream chunks of a deferred result (`deferred: true`): its output, which the client puts on
 * the call's part, then the `data-chunklog-deferred-result` marker of where it arrived.
 *
 * @param entry - the deferred result as the log has it now
 * @param sent - what was sent of it so far (updated)
 * @param out - where the stream chunks go
 * @param call - its call, when the call was sent in this message: a denial then shows as the
 *   call's denied output (as the stored message has it), and the output says whether the call was
 *   provider-executed
 */
export function deferredResultUpdates(
  entry: ToolCallEntry,
  sent: SentCall,
  out: UIMessageChunk[],
  call: ToolCallEntry | undefined,
): void {
  if (sent.result) return;
  resultUpdates(entry, sent, out, call);
  if (!sent.result) return;
  out.push({
    type: CHUNKLOG_DATA_PARTS.deferredResult,
    id: entry.id,
    data: { toolCallId: entry.id },
  });
}

/**
 * Sends a deferred result's outcome again, after its call's part was reset (an approval or an
 * input sent after the result set the part's state, as the client builds it): the client's part
 * then shows the outcome again, as the stored message does. The marker is not sent again.
 *
 * @param entry - the deferred result, already sent
 * @param sent - what was sent of it (updated)
 * @param out - where the stream chunks go
 * @param call - its call as the log has it now
 */
export function deferredResultAgain(
  entry: ToolCallEntry,
  sent: SentCall,
  out: UIMessageChunk[],
  call: ToolCallEntry,
): void {
  sent.result = false;
  resultUpdates(entry, sent, out, call);
}

/**
 * The stream chunk of an outcome, once.
 *
 * @param call - the entry that holds the outcome (the call, or its deferred result)
 * @param sent - what was sent of it (updated)
 * @param out - where the stream chunks go
 * @param of - the call the outcome belongs to, when sent in this message: its approval and its
 *   `providerExecuted` go with the outcome
 */
function resultUpdates(
  call: ToolCallEntry,
  sent: SentCall,
  out: UIMessageChunk[],
  of: ToolCallEntry | undefined,
): void {
  const resultMetadata =
    call.resultProviderMetadata === undefined
      ? {}
      : { providerMetadata: call.resultProviderMetadata };
  const approval = of?.approval;
  if (call.result !== undefined && !sent.result) {
    const providerExecuted = of?.providerExecuted ?? call.providerExecuted;
    const executed = providerExecuted === undefined ? {} : { providerExecuted };
    if (call.denied === true && approval !== undefined) {
      // A denial answers the approval: stored, the part's approval says `approved: false`
      // (toUIMessages), so the client is told so too when the answer it had was another or none
      // (sent with the output, once: the recorded answer stays the approval's own).
      if (approval.approved !== false) {
        out.push({ type: 'tool-approval-response', approvalId: approval.id, approved: false });
      }
      out.push({ type: 'tool-output-denied', toolCallId: call.id });
    } else if (call.isError === true) {
      out.push({
        type: 'tool-output-error',
        toolCallId: call.id,
        errorText: typeof call.result === 'string' ? call.result : JSON.stringify(call.result),
        ...executed,
        ...resultMetadata,
      });
    } else {
      out.push({
        type: 'tool-output-available',
        toolCallId: call.id,
        output: call.result,
        ...executed,
        ...resultMetadata,
      });
    }
    sent.result = true;
  }
}

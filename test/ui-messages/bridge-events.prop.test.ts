import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldTurn } from '../../src/reducer/index.js';
import {
  CHUNK_EVENT_TYPES,
  type ChatMessage,
  type ChunkEvent,
  type ChunkEventType,
} from '../../src/schema/index.js';
import {
  isChunklogToolProgressPart,
  storedTurnUIMessageChunks,
  toUIMessage,
  toUIMessageStream,
} from '../../src/ui-messages/index.js';
import { chunkEventsArb, NON_TOOL_EVENT_TYPES } from '../support/event-arbitraries.js';
import { asStored } from './support/chat.js';

async function* replay(events: readonly ChunkEvent[]): AsyncGenerator<ChunkEvent> {
  for (const event of events) yield event;
}

async function clientMessage(events: readonly ChunkEvent[]): Promise<UIMessage | undefined> {
  let last: UIMessage | undefined;
  const stream = toUIMessageStream(replay(events), { sendError: false });
  for await (const message of readUIMessageStream({ stream, terminateOnError: true }))
    last = message;
  return last;
}

/**
 * A message without what differs live by design (notes/0011, 5): progress parts (compared apart),
 * `isAutomatic: false` (which useChat drops), a file's name, the split of one steering message's
 * texts, the id a reasoning block without one gets in the stream, an approval an output cannot
 * carry, the request's reason of an answered approval, partial tool input, and a preliminary
 * output a denial came after.
 */
function comparable(message: UIMessage | undefined): UIMessage | undefined {
  if (message === undefined) return undefined;
  const parts: UIMessage['parts'] = [];
  for (const part of asStored(message).parts) {
    // A reasoning block without an id gets one in the stream.
    if (part.type === 'reasoning' && part.id?.startsWith('chunklog-')) delete part.id;
    if (isChunklogToolProgressPart(part)) continue;
    const last = parts.at(-1);
    if (
      part.type === 'steering-message' &&
      last?.type === 'steering-message' &&
      last.id === part.id
    ) {
      last.parts.push(...part.parts);
      continue;
    }
    if ('approval' in part && part.approval?.isAutomatic === false)
      delete part.approval.isAutomatic;
    // An output may only carry a granted approval (the AI SDK's types): toUIMessages leaves any
    // other out, useChat keeps what it was sent (calls whose events came in an impossible order).
    if (
      'approval' in part &&
      (part.state === 'output-available' || part.state === 'output-error') &&
      part.approval?.approved !== true
    ) {
      delete (part as { approval?: unknown }).approval;
    }
    // chunklog keeps one reason per approval: once answered, the answer's, else the request's.
    if ('approval' in part && part.approval?.approved !== undefined) {
      const approval = part.approval as { requestReason?: string; reason?: string };
      if (approval.reason === undefined && approval.requestReason !== undefined) {
        approval.reason = approval.requestReason;
      }
      delete approval.requestReason;
    }
    // Streaming input: the client parses the partial JSON leniently; toUIMessages only whole JSON.
    if ('state' in part && part.state === 'input-streaming') delete part.input;
    // A denial cannot take back a preliminary output the client already holds: the AI SDK's
    // client keeps it on the denied part (no stream chunk removes an output); stored, a denied
    // part has none.
    if ('state' in part && part.state === 'output-denied') {
      delete (part as { output?: unknown }).output;
      delete (part as { preliminary?: unknown }).preliminary;
    }
    // A file streams without its filename.
    if (part.type === 'file') delete part.filename;
    parts.push(part);
  }
  return { ...asStored(message), parts };
}

const progressOf = (message: UIMessage | undefined) =>
  Object.fromEntries(
    (message?.parts ?? []).filter(isChunklogToolProgressPart).map((p) => [p.id, p.data.text]),
  );

const inTurn = (types: readonly ChunkEventType[]) =>
  types.filter((t) => t !== 'turn-start' && t !== 'turn-end');

/**
 * Whether tool events come in the order a model stream and a tool runner make them: a call's
 * input streams (in its step) before the call, approvals, progress and one result come after it,
 * an answer follows its request (and names no other call), and no approval id is requested twice.
 * Events in another order (a page that begins mid-turn) make parts the client cannot move or
 * merge; notes/0011, 5.
 */
function toolEventsInOrder(events: readonly ChunkEvent[]): boolean {
  const phase = new Map<string, { step: number; at: 'streaming' | 'called' | 'answered' }>();
  /** The call each approval id was requested for. */
  const approvals = new Map<string, string>();
  let step = 0;
  for (const event of events) {
    const call =
      'toolCallId' in event && event.toolCallId !== undefined
        ? phase.get(event.toolCallId)
        : undefined;
    switch (event.type) {
      case 'step-start':
        step++;
        break;
      case 'tool-input-start':
        if (call !== undefined) return false;
        phase.set(event.toolCallId, { step, at: 'streaming' });
        break;
      case 'tool-input-delta':
        if (call?.at !== 'streaming' || call.step !== step) return false;
        break;
      case 'tool-call':
        // A call's input completes in the step it started streaming in (the AI SDK ends a step's
        // tool inputs before the step ends).
        if (call !== undefined && (call.at !== 'streaming' || call.step !== step)) return false;
        phase.set(event.toolCallId, { step, at: 'called' });
        break;
      case 'tool-progress':
      case 'tool-approval-request':
        if (call?.at !== 'called') return false;
        if (event.type === 'tool-approval-request') {
          // Approval ids are unique: the AI SDK's client answers the first call requested with an
          // id, its server the last, so one id on two requests has no single meaning.
          if (approvals.has(event.approvalId)) return false;
          approvals.set(event.approvalId, event.toolCallId);
        }
        break;
      case 'tool-result':
        if (call?.at !== 'called') return false;
        call.at = 'answered';
        break;
      case 'tool-approval-response': {
        // The client finds the part to answer by the approval id alone.
        const requested = approvals.get(event.approvalId);
        if (requested === undefined) return false;
        if (event.toolCallId !== undefined && event.toolCallId !== requested) return false;
        break;
      }
      default:
        break;
    }
  }
  return true;
}

/**
 * The events as a session sends them: steps numbered by the reducer, and a steering message just
 * before the step that receives it (it is delivered at a step boundary), with that step's number.
 */
function asDelivered(events: readonly ChunkEvent[]): ChunkEvent[] {
  const out: ChunkEvent[] = [];
  let steps = 0;
  for (const [i, event] of events.entries()) {
    if (event.type === 'step-start') {
      out.push({ type: 'step-start' });
      steps++;
    } else if (event.type === 'step-finish') {
      const { step: _step, ...rest } = event;
      out.push(rest);
    } else if (event.type === 'steering-message') {
      const next = events.slice(i + 1).find((e) => e.type !== 'steering-message');
      if (next === undefined || next.type === 'step-start') out.push({ ...event, step: steps });
    } else {
      out.push(event);
    }
  }
  return out;
}

/** The live message (through the stream) equals the stored one, for a turn of these events. */
async function liveIsStored(raw: readonly ChunkEvent[]): Promise<void> {
  const body = asDelivered(raw);
  fc.pre(toolEventsInOrder(body));
  const events: ChunkEvent[] = [{ type: 'turn-start', turnId: 't' }, ...body, { type: 'turn-end' }];
  const message: ChatMessage = {
    id: 't:assistant',
    turnId: 't',
    role: 'assistant',
    chunks: foldTurn(events).chunks,
  };
  const stored = toUIMessage(message);
  const live = await clientMessage(events);
  // Live, a progress part sits where the first progress arrived; stored, after its batch.
  expect(comparable(live)).toStrictEqual(comparable(stored));
  expect(progressOf(live)).toStrictEqual(progressOf(stored));
  // The stored turn sent whole (a retried request) builds the same message as the live one.
  const whole = storedTurnUIMessageChunks('t', [message], { sendError: false });
  expect(comparable(await streamedMessage(whole))).toStrictEqual(comparable(stored));
  // Sent whole, each block ends before the next starts, as a stream read live would.
  expect(mostOpenBlocks(whole)).toBeLessThanOrEqual(1);
}

/** The most text and reasoning blocks open at once in a stream. */
function mostOpenBlocks(chunks: readonly UIMessageChunk[]): number {
  let open = 0;
  let most = 0;
  for (const chunk of chunks) {
    if (chunk.type === 'text-start' || chunk.type === 'reasoning-start')
      most = Math.max(most, ++open);
    if (chunk.type === 'text-end' || chunk.type === 'reasoning-end') open--;
  }
  return most;
}

/** The message a client builds from these stream chunks. */
async function streamedMessage(chunks: readonly UIMessageChunk[]): Promise<UIMessage | undefined> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, terminateOnError: true }))
    last = message;
  return last;
}

function check(types: readonly ChunkEventType[]) {
  return fc.asyncProperty(chunkEventsArb({ types: inTurn(types), maxLength: 30 }), liveIsStored);
}

describe('a denied result of a call whose approval was never answered', () => {
  // Counterexamples fast-check found (1 in about 5,000 and 11,000 runs): the stored part says
  // `approved: false` in its output-denied state; the stream now tells the client so.
  const call: ChunkEvent = { type: 'tool-call', toolCallId: 'c3', toolName: 'read', input: 0 };
  const request: ChunkEvent = {
    type: 'tool-approval-request',
    toolCallId: 'c3',
    approvalId: 'p1',
  };
  it('in the batch of its call', async () => {
    await liveIsStored([
      call,
      request,
      { type: 'tool-result', toolCallId: 'c3', output: {}, denied: true },
    ]);
  });
  it('deferred (a provider-executed result after other output)', async () => {
    await liveIsStored([
      call,
      request,
      { type: 'source', source: { sourceType: 'url', id: '', url: 'http://a.aa' } },
      { type: 'tool-result', toolCallId: 'c3', output: {}, denied: true, providerExecuted: true },
    ]);
  });
});

describe('any event sequence through toUIMessageStream, and its folded turn sent whole by storedTurnUIMessageChunks (one block open at a time)', () => {
  it('builds toUIMessage of the folded turn (events without tools)', async () => {
    await fc.assert(check(NON_TOOL_EVENT_TYPES), { numRuns: 300 });
  });
  it('builds toUIMessage of the folded turn (all events)', async () => {
    await fc.assert(check(CHUNK_EVENT_TYPES), { numRuns: 300 });
  });
});

describe('an approval answered after its call’s deferred result', () => {
  // A counterexample fast-check found (CI, stop 45): the answer set the client's part back to
  // `approval-responded`; stored, the part shows the result. The result now goes again after it.
  it('leaves the part showing the result, as stored', async () => {
    await liveIsStored([
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'read',
        input: null,
        providerExecuted: true,
      },
      { type: 'tool-approval-request', toolCallId: 'c1', approvalId: 'p2' },
      { type: 'text-end', providerMetadata: { anthropic: {} } },
      { type: 'tool-result', toolCallId: 'c1', output: null },
      { type: 'tool-approval-response', approvalId: 'p2', approved: false },
    ]);
  });
});

describe('a call found provider-executed by its result in a later step', () => {
  // A counterexample fast-check found: the call's part went again in the result's step, where the
  // client added a second part. The output now says the call was provider-executed.
  it('keeps one part, which shows the result', async () => {
    await liveIsStored([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: '' },
      { type: 'step-start' },
      { type: 'step-start' },
      { type: 'error', message: '' },
      { type: 'tool-result', toolCallId: 'c1', output: [], providerExecuted: true },
    ]);
  });
});

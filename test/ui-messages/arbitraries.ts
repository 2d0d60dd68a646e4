// fast-check generators of chunklog chat messages in the domain both chunklog and a `UIMessage`
// can hold (see notes/0011-ui-message-interop.md, "Lossless"). Ids are renumbered after
// generation so that turns, tool calls and steering messages are unique across a thread.
import fc from 'fast-check';
import type {
  ChatMessage,
  Chunk,
  JSONValue,
  ProviderMetadata,
  ToolApproval,
  ToolCallEntry,
} from '../../src/schema/index.js';
import { messageId, SYSTEM_KINDS } from '../../src/schema/index.js';
import { UI_MESSAGE_ENVELOPE } from '../../src/ui-messages/index.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const word = fc.string({
  minLength: 1,
  maxLength: 8,
  unit: fc.constantFrom('a', 'b', 'c', 'x', 'y', '_'),
});
const text = fc.string({ maxLength: 12 });
// As JSON storage gives values back (-0 is stored as 0).
const json: fc.Arbitrary<JSONValue> = fc
  .jsonValue({ maxDepth: 2 })
  .map((value) => JSON.parse(JSON.stringify(value)) as JSONValue);
const metadata: fc.Arbitrary<ProviderMetadata> = fc.dictionary(
  word,
  fc.dictionary(word, json, { maxKeys: 2, noNullPrototype: true }),
  { minKeys: 1, maxKeys: 2, noNullPrototype: true },
);
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Drops the keys whose value is undefined (chunks never hold `undefined` members). */
function clean<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const approval = (approved: fc.Arbitrary<boolean | undefined>): fc.Arbitrary<ToolApproval> =>
  fc
    .record({
      id: word,
      approved,
      reason: opt(text),
      isAutomatic: opt(fc.boolean()),
      signature: opt(word),
    })
    .map(clean);

const toolCall: fc.Arbitrary<ToolCallEntry> = fc
  .record({
    name: word,
    input: json,
    state: fc.constantFrom(
      'input-streaming',
      'input-available',
      'approval-requested',
      'approval-responded',
      'output-available',
      'preliminary',
      'output-error',
      'output-denied',
    ),
    inputText: fc.string({ maxLength: 10 }),
    result: json,
    errorText: text,
    approved: opt(approval(fc.constant(true))),
    requested: approval(fc.constant(undefined)),
    responded: approval(fc.boolean()),
    denied: approval(fc.constant(false)),
    providerExecuted: opt(fc.boolean()),
    providerMetadata: opt(metadata),
    resultProviderMetadata: opt(metadata),
    dynamic: opt(fc.constant(true)),
    title: opt(text),
    progress: opt(text),
  })
  .map((g) => {
    const call: Mutable<ToolCallEntry> = clean({
      id: 'call',
      name: g.name,
      providerExecuted: g.providerExecuted,
      providerMetadata: g.providerMetadata,
      dynamic: g.dynamic,
      title: g.title,
      progress: g.progress,
    });
    switch (g.state) {
      case 'input-streaming':
        call.inputText = g.inputText;
        break;
      case 'input-available':
        call.input = g.input;
        break;
      case 'approval-requested':
        Object.assign(call, { input: g.input, approval: g.requested });
        break;
      case 'approval-responded':
        Object.assign(call, { input: g.input, approval: g.responded });
        break;
      // A result's own metadata: the AI SDK has a place for it on an output only.
      case 'output-available':
        Object.assign(
          call,
          clean({
            input: g.input,
            result: g.result,
            approval: g.approved,
            resultProviderMetadata: g.resultProviderMetadata,
          }),
        );
        break;
      case 'preliminary':
        Object.assign(
          call,
          clean({
            input: g.input,
            preliminary: g.result,
            resultProviderMetadata: g.resultProviderMetadata,
          }),
        );
        break;
      case 'output-error':
        Object.assign(
          call,
          clean({
            input: g.input,
            result: g.errorText,
            isError: true,
            approval: g.approved,
            resultProviderMetadata: g.resultProviderMetadata,
          }),
        );
        break;
      case 'output-denied':
        Object.assign(call, {
          input: g.input,
          result: null,
          isError: true,
          denied: true,
          approval: g.denied,
        });
        break;
    }
    return call;
  });

const source = fc.oneof(
  fc
    .record({
      sourceType: fc.constant('url' as const),
      id: word,
      url: word.map((w) => `https://example.com/${w}`),
      title: opt(text),
      providerMetadata: opt(metadata),
    })
    .map(clean),
  fc
    .record({
      sourceType: fc.constant('document' as const),
      id: word,
      mediaType: fc.constantFrom('application/pdf', 'text/plain'),
      title: text,
      filename: opt(word),
      providerMetadata: opt(metadata),
    })
    .map(clean),
);

const file = (reasoning: boolean): fc.Arbitrary<Omit<Extract<Chunk, { type: 'file' }>, 'step'>> =>
  fc
    .record({
      mediaType: fc.constantFrom('image/png', 'text/plain', 'application/pdf'),
      where: fc.oneof(
        fc.base64String({ maxLength: 12 }).map((data) => ({ data })),
        word.map((w) => ({ url: `https://files.example.com/${w}` })),
      ),
      filename: reasoning ? fc.constant(undefined) : opt(word),
      providerMetadata: opt(metadata),
    })
    .map((g) =>
      clean({
        type: 'file' as const,
        mediaType: g.mediaType,
        ...g.where,
        filename: g.filename,
        providerMetadata: g.providerMetadata,
        reasoning: reasoning ? true : undefined,
      }),
    );

const dataChunk = fc
  .record({ name: word.map((w) => `app-${w}`), id: opt(word), data: json })
  .map((g) => clean({ type: 'data' as const, ...g }));

/** A content chunk of an assistant message, without its step. */
const assistantContent: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ text, providerMetadata: opt(metadata) }).map((g) => clean({ type: 'text', ...g })),
  fc
    .record({
      text,
      citations: opt(
        fc.array(
          fc
            .record({
              source,
              startIndex: opt(fc.nat(9)),
              endIndex: opt(fc.nat(9)),
              citedText: opt(text),
            })
            .map(clean),
          { minLength: 1, maxLength: 2 },
        ),
      ),
    })
    .map((g) => clean({ type: 'text', ...g })),
  fc
    .record({ text, id: opt(word), providerMetadata: opt(metadata) })
    .map((g) => clean({ type: 'thinking', ...g })),
  fc
    .array(toolCall, { minLength: 1, maxLength: 3 })
    .map((calls) => ({ type: 'tool-batch', calls })),
  fc
    .record({ message: text, statusCode: opt(fc.integer({ min: 400, max: 599 })) })
    .map((g) => clean({ type: 'error', ...g })),
  fc
    .record({ kind: fc.constantFrom(...SYSTEM_KINDS), text })
    .map((g) => ({ type: 'system', ...g })),
  fc
    .record({
      text,
      dropped: fc.array(
        fc.record({ id: text, text }).map((d) => ({ ...d })),
        { minLength: 1, maxLength: 2 },
      ),
    })
    .map((g) => ({ type: 'system', kind: 'cancelled', ...g })),
  source.map((s) => ({ type: 'source', source: s })),
  file(false),
  file(true),
  fc
    .record({ kind: word.map((w) => `anthropic.${w}`), providerMetadata: opt(metadata) })
    .map((g) => clean({ type: 'custom', ...g })),
  dataChunk,
);

const userContent: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record({ text }).map((g) => ({ type: 'text', ...g })),
  file(false),
  dataChunk,
);

/** The chunks of an assistant message: steps in order (with gaps), steering before a step's output. */
const assistantChunks: fc.Arbitrary<Chunk[]> = fc
  .array(
    fc.record({
      gap: fc.nat(2),
      steering: fc.array(text, { maxLength: 2 }),
      content: fc.array(assistantContent, { maxLength: 4 }),
    }),
    { maxLength: 3 },
  )
  .map((steps) => {
    const chunks: Chunk[] = [];
    let step = -1;
    for (const group of steps) {
      step += 1 + group.gap;
      for (const t of group.steering) {
        chunks.push({ type: 'steering', step, id: 'steer', text: t });
      }
      for (const content of group.content) {
        const previous = chunks.at(-1);
        // The reducer never leaves two tool-batches side by side in a step.
        if (
          content.type === 'tool-batch' &&
          previous?.type === 'tool-batch' &&
          previous.step === step
        ) {
          (previous.calls as ToolCallEntry[]).push(...(content.calls as ToolCallEntry[]));
        } else {
          chunks.push({ ...content, step } as Chunk);
        }
      }
    }
    return chunks;
  });

const envelope = opt(json).map((metadata) =>
  metadata === undefined
    ? []
    : [{ type: 'data' as const, step: 0, name: UI_MESSAGE_ENVELOPE, data: { metadata } }],
);

interface TurnShape {
  readonly kind: 'exchange' | 'user' | 'assistant' | 'system';
  readonly user: Chunk[];
  readonly assistant: Chunk[];
  readonly system: Chunk[];
  readonly userEnvelope: Chunk[];
  readonly assistantEnvelope: Chunk[];
}

const turn: fc.Arbitrary<TurnShape> = fc.record({
  kind: fc.constantFrom('exchange', 'user', 'assistant', 'system'),
  user: fc
    .array(userContent, { minLength: 1, maxLength: 3 })
    .map((chunks) => chunks.map((c) => ({ ...c, step: 0 }) as Chunk)),
  assistant: assistantChunks,
  system: fc
    .array(fc.record({ kind: fc.constantFrom(...SYSTEM_KINDS), text }), {
      minLength: 1,
      maxLength: 2,
    })
    .map((notices) => notices.map((n) => ({ type: 'system' as const, step: 0, ...n }))),
  userEnvelope: envelope,
  assistantEnvelope: envelope,
});

/** Gives every tool call, approval and steering message of a thread its own id. */
function renumber(messages: ChatMessage[]): ChatMessage[] {
  let calls = 0;
  let steering = 0;
  return messages.map((message) => ({
    ...message,
    chunks: message.chunks.map((chunk) => {
      if (chunk.type === 'tool-batch') {
        return {
          ...chunk,
          calls: chunk.calls.map((call) => {
            const id = `call-${calls++}`;
            return call.approval === undefined
              ? { ...call, id }
              : { ...call, id, approval: { ...call.approval, id: `approval-${id}` } };
          }),
        };
      }
      if (chunk.type === 'steering') return { ...chunk, id: `steer-${steering++}` };
      return chunk;
    }),
  }));
}

/**
 * A thread of chat messages in the domain a `UIMessage` can hold: turns of a user and an
 * assistant message (or either alone), and system messages.
 */
export const chatThread: fc.Arbitrary<ChatMessage[]> = fc
  .array(turn, { maxLength: 5 })
  .map((turns) => {
    const messages: ChatMessage[] = [];
    turns.forEach((t, i) => {
      const turnId = `turn-${i}`;
      const push = (role: ChatMessage['role'], chunks: Chunk[]) =>
        messages.push({ id: messageId(turnId, role), turnId, role, chunks });
      if (t.kind === 'system') push('system', t.system);
      if (t.kind === 'exchange' || t.kind === 'user') push('user', [...t.userEnvelope, ...t.user]);
      if (t.kind === 'exchange' || t.kind === 'assistant') {
        push('assistant', [...t.assistantEnvelope, ...t.assistant]);
      }
    });
    return renumber(messages);
  });

/**
 * An assistant message's chunks as a live turn can produce them and a UI message stream can carry
 * them (notes/0011, 5): reasoning has a block id, no block is empty without metadata, files have
 * no filename, data parts no id, approvals are not marked `isAutomatic: false`, streamed tool
 * input is complete JSON, and there is no envelope.
 */
export const liveAssistantChunks: fc.Arbitrary<Chunk[]> = chatThread
  .filter((messages) => messages.some((m) => m.role === 'assistant' && m.chunks.length > 0))
  .map((messages) => {
    const message = messages.find((m) => m.role === 'assistant' && m.chunks.length > 0);
    return (message?.chunks ?? [])
      .filter((chunk) => !(chunk.type === 'data' && chunk.name === UI_MESSAGE_ENVELOPE))
      .map((chunk, i): Chunk => {
        switch (chunk.type) {
          case 'thinking':
            return {
              ...chunk,
              id: chunk.id ?? `reasoning-${i}`,
              // The reducer drops an empty block without metadata when it closes.
              ...(chunk.text === '' && chunk.providerMetadata === undefined ? { text: '…' } : {}),
            };
          case 'text':
            return chunk.text === '' && chunk.providerMetadata === undefined
              ? { ...chunk, text: '…' }
              : chunk;
          case 'file': {
            const { filename: _f, ...rest } = chunk;
            return rest;
          }
          case 'data': {
            const { id: _id, ...rest } = chunk;
            return rest;
          }
          case 'tool-batch':
            return {
              ...chunk,
              calls: chunk.calls.map((call) => {
                const live: Mutable<ToolCallEntry> = { ...call };
                if (live.inputText !== undefined)
                  live.inputText = JSON.stringify({ q: live.inputText });
                if (live.approval?.isAutomatic === false) {
                  const { isAutomatic: _a, ...approval } = live.approval;
                  live.approval = approval;
                }
                return live;
              }),
            };
          default:
            return chunk;
        }
      });
  });

// The UI interop validates chunklog messages it converts, the options of an import and of a
// stream, and every event a stream folds.
import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChunkEvent } from '../../src/schema/index.js';
import {
  chunkList,
  fromUIMessages,
  toUIMessage,
  toUIMessageStream,
  toUIMessages,
  turnDrafts,
} from '../../src/ui-messages/index.js';
import { rejected, thrown } from '../support/chunklog-error.js';

const message: ChatMessage = {
  id: 't1:user',
  turnId: 't1',
  role: 'user',
  chunks: [{ type: 'text', step: 0, text: 'hi' }],
};
const broken = { ...message, chunks: [{ type: 'text', step: -1, text: 'hi' }] };

async function read(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const out: UIMessageChunk[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<UIMessageChunk>) out.push(chunk);
  return out;
}

describe('UI interop trust boundaries', () => {
  it('toUIMessages, toUIMessage and turnDrafts name the malformed message and field', () => {
    for (const run of [
      () => toUIMessages([message, broken] as never),
      () => turnDrafts([message, broken] as never),
    ]) {
      const error = thrown(run);
      expect(error.code).toBe('invalid-message');
      expect(error.path).toEqual([1, 'chunks', 0, 'step']);
    }
    const one = thrown(() => toUIMessage(broken as never));
    expect(one.code).toBe('invalid-message');
    expect(one.path).toEqual(['chunks', 0, 'step']);
    expect(thrown(() => toUIMessages(null as never)).code).toBe('invalid-message');
  });

  it('chunkList checks its array and open index', () => {
    expect(thrown(() => chunkList(5 as never)).option).toBe('chunks');
    expect(thrown(() => chunkList([], -1)).option).toBe('openIndex');
    expect(chunkList(message.chunks, 0).chunkCount).toBe(1);
  });

  it('fromUIMessages refuses unknown and malformed options', async () => {
    const unknown = await rejected(fromUIMessages([], { keepId: false } as never));
    expect(unknown.code).toBe('invalid-option');
    expect(unknown.option).toBe('keepId');
    const strict = await rejected(fromUIMessages([], { strict: 'no' } as never));
    expect(strict.option).toBe('strict');
    expect((await rejected(fromUIMessages([], 5 as never))).option).toBe('options');
  });

  it('toUIMessageStream checks its arguments at once', () => {
    expect(thrown(() => toUIMessageStream([] as never)).option).toBe('events');
    expect(thrown(() => toUIMessageStream(events([]), { sendError: 'yes' } as never)).option).toBe(
      'sendError',
    );
    expect(thrown(() => toUIMessageStream(events([]), { onError: 'x' } as never)).option).toBe(
      'onError',
    );
    expect(thrown(() => toUIMessageStream(events([]), { messageId: '' })).option).toBe('messageId');
  });

  it('a malformed event ends the stream with the masked error, after what came before it', async () => {
    const seen: unknown[] = [];
    const out = await read(
      toUIMessageStream(
        events([
          { type: 'turn-start', turnId: 't1' },
          { type: 'text-delta', text: 'kept' },
          { type: 'text-delta', text: 42 } as unknown as ChunkEvent,
          { type: 'text-delta', text: 'never read' },
        ]),
        {
          onError: (error) => {
            seen.push(error);
            return 'masked';
          },
        },
      ),
    );
    expect(out.at(-2)).toEqual({ type: 'error', errorText: 'masked' });
    expect(out.at(-1)).toMatchObject({ type: 'finish' });
    expect(JSON.stringify(out)).toContain('kept');
    expect(JSON.stringify(out)).not.toContain('never read');
    expect(seen).toEqual([expect.objectContaining({ code: 'invalid-event', path: ['text'] })]);
  });

  it('fromUIMessages refuses a value nested deeper than MAX_JSON_DEPTH instead of cutting it', async () => {
    const messagesWith = (output: unknown) => [
      { id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      {
        id: 'a',
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Looking.' },
          {
            type: 'dynamic-tool',
            toolName: 'x',
            toolCallId: 'c',
            state: 'output-available',
            input: {},
            output,
          },
        ],
      },
    ];
    let output: unknown = 1;
    for (let i = 0; i < 5000; i++) output = { a: output };
    const error = await rejected(fromUIMessages(messagesWith(output)));
    expect(error.code).toBe('invalid-ui-message');
    expect(error.path?.slice(0, 5)).toStrictEqual([1, 'parts', 1, 'output', 'a']);
    expect(error.message).toContain('UI message 1, part 1 (dynamic-tool) at output.a.a');
    expect(error.message).toContain('nested deeper than 256 arrays and objects');
    // 250 levels (with the list, the message, its parts and the part around them) are kept whole.
    let kept: unknown = 1;
    for (let i = 0; i < 250; i++) kept = [kept];
    const [turn] = await fromUIMessages(messagesWith(kept));
    expect(turn?.drafts.find((d) => d.type === 'tool_result')?.data).toMatchObject({
      result: kept,
    });
  });
});

async function* events(list: readonly ChunkEvent[]): AsyncGenerator<ChunkEvent> {
  for (const event of list) yield event;
}

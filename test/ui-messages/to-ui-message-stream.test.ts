import type { UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import type { ChunkEvent } from '../../src/schema/index.js';
import { toUIMessageStream } from '../../src/ui-messages/index.js';

async function read(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const out: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

async function* events(list: readonly ChunkEvent[], fail?: Error): AsyncGenerator<ChunkEvent> {
  for (const event of list) yield event;
  if (fail !== undefined) throw fail;
}

const turn: ChunkEvent[] = [
  { type: 'turn-start', turnId: 't1' },
  { type: 'step-start', step: 0 },
  { type: 'text-start', id: 'a' },
  { type: 'text-delta', id: 'a', text: 'Hi' },
  { type: 'text-end', id: 'a' },
  { type: 'step-finish', step: 0, finishReason: 'stop' },
  { type: 'turn-end', finishReason: 'stop' },
];

describe('toUIMessageStream', () => {
  it("starts the message with chunklog's id, streams the blocks, and finishes", async () => {
    expect(await read(toUIMessageStream(events(turn)))).toStrictEqual([
      { type: 'start', messageId: 't1:assistant' },
      { type: 'start-step' },
      { type: 'text-start', id: 'a' },
      { type: 'text-delta', id: 'a', delta: 'Hi' },
      { type: 'text-end', id: 'a' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  it('uses the given message id, else the turn’s assistant id', async () => {
    const [start] = await read(toUIMessageStream(events(turn), { messageId: 'm1' }));
    expect(start).toStrictEqual({ type: 'start', messageId: 'm1' });
    const withAssistant: ChunkEvent[] = [{ type: 'turn-start', turnId: 't1', assistantId: 'a1' }];
    const [first] = await read(toUIMessageStream(events(withAssistant)));
    expect(first).toStrictEqual({ type: 'start', messageId: 'a1' });
  });

  it('sends a masked error when the events fail, after closing what is open', async () => {
    const broken = turn.slice(0, 4);
    const chunks = await read(toUIMessageStream(events(broken, new Error('db password wrong'))));
    expect(chunks.slice(-4)).toStrictEqual([
      { type: 'text-end', id: 'a' },
      { type: 'finish-step' },
      { type: 'error', errorText: 'An error occurred.' },
      { type: 'finish', finishReason: 'error' },
    ]);
    const custom = await read(
      toUIMessageStream(events(broken, new Error('x')), { onError: () => 'Try again.' }),
    );
    expect(custom).toContainEqual({ type: 'error', errorText: 'Try again.' });
  });

  it('ends the first message and starts another at a second turn-start', async () => {
    const two = [...turn, { ...turn[0], turnId: 't2' } as ChunkEvent, ...turn.slice(1)];
    const starts = (await read(toUIMessageStream(events(two)))).filter((c) => c.type === 'start');
    expect(starts).toStrictEqual([
      { type: 'start', messageId: 't1:assistant' },
      { type: 'start', messageId: 't2:assistant' },
    ]);
  });

  it('stops reading the events when the stream is cancelled', async () => {
    let finished = false;
    async function* endless(): AsyncGenerator<ChunkEvent> {
      try {
        yield { type: 'turn-start', turnId: 't' };
        for (;;) yield { type: 'text-delta', text: 'x' };
      } finally {
        finished = true;
      }
    }
    const reader = toUIMessageStream(endless()).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(finished).toBe(true);
  });
});

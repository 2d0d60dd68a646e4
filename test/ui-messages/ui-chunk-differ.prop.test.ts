import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../../src/schema/index.js';
import { toUIMessage } from '../../src/ui-messages/index.js';
import { chunkList, UIChunkDiffer } from '../../src/ui-messages/ui-chunk-differ.js';
import { liveAssistantChunks } from './arbitraries.js';
import { asStored } from './support/chat.js';
import { snapshots } from './support/snapshots.js';

function diffStream(final: readonly Chunk[]): UIMessageChunk[] {
  const differ = new UIChunkDiffer();
  const out: UIMessageChunk[] = [{ type: 'start', messageId: 't:assistant' }];
  for (const state of snapshots(final)) {
    // Each chunk is complete before the next one appears: only the last may still be open.
    const last = state.at(-1);
    const open = last?.type === 'text' || last?.type === 'thinking' ? state.length - 1 : null;
    out.push(...differ.update(chunkList(state, open)));
  }
  out.push(...differ.finish(chunkList(final)), { type: 'finish' });
  return out;
}

async function lastMessage(chunks: UIMessageChunk[]): Promise<UIMessage | undefined> {
  let last: UIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const message of readUIMessageStream({ stream, terminateOnError: true }))
    last = message;
  return last;
}

describe('the UI message stream of a turn', () => {
  it('makes the AI SDK client build the message toUIMessage gives for the stored turn', async () => {
    await fc.assert(
      fc.asyncProperty(liveAssistantChunks, async (chunks) => {
        const built = await lastMessage(diffStream(chunks));
        const stored = toUIMessage({ id: 't:assistant', turnId: 't', role: 'assistant', chunks });
        expect(asStored(built)).toStrictEqual(asStored(stored));
      }),
      { numRuns: 300 },
    );
  });
});

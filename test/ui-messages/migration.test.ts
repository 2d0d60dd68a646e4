import { convertToModelMessages, type UIMessage } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { toModelMessages } from '../../src/model-messages/index.js';
import type { ChunkRow } from '../../src/schema/index.js';
import { createChunkStore } from '../../src/store/index.js';
import { groupRowsToMessages } from '../../src/transforms/index.js';
import { fromUIMessages, toUIMessages } from '../../src/ui-messages/index.js';
import { models, persistedThread, tools } from './support/ai-sdk-thread.js';
import { capturePrompt } from './support/capture-prompt.js';

describe('migrating a thread persisted the AI SDK way', () => {
  let thread: UIMessage[];
  beforeAll(async () => {
    thread = await persistedThread();
  });

  it('gives one turn per user message, the user rows first', async () => {
    const turns = await fromUIMessages(thread, { tools });
    expect(turns.map((t) => t.turnId)).toStrictEqual(['user-0', 'user-1', 'user-2', 'user-3']);
    for (const { turnId, drafts } of turns) {
      expect(drafts.every((d) => d.turnId === turnId)).toBe(true);
      expect(drafts.findIndex((d) => d.role !== 'user')).toBeGreaterThan(0);
    }
  });

  it('stores, reads back and renders the same UI messages', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    for (const { drafts } of await fromUIMessages(thread, { tools })) {
      await store.appendTurn('thread', drafts);
    }
    const page = await store.getChunks('thread', { limit: 1000 });
    expect(toUIMessages(groupRowsToMessages(page.chunks))).toStrictEqual(thread);
    await store.close();
  });

  it('rebuilds the model input the AI SDK builds from the UI messages', async () => {
    const turns = await fromUIMessages(thread, { tools });
    const rows: ChunkRow[] = turns
      .flatMap((t) => t.drafts)
      .map((draft, i) => ({ ...draft, threadId: 'thread', seq: i + 1 }));
    const rebuilt = await capturePrompt(toModelMessages(groupRowsToMessages(rows)), tools);
    const original = await capturePrompt(await convertToModelMessages(thread, { tools }), tools);
    // One known difference, on the AI SDK's side: when the user denied call-5, the model was sent
    // `execution-denied` (the live request converts the `approval-responded` part that way), but
    // the stored `output-denied` part converts to `error-text`. chunklog sends what the model saw.
    const denied = (prompt: typeof original) =>
      prompt
        .flatMap((m) => (m.role === 'tool' ? m.content : []))
        .find((p) => p.type === 'tool-result' && p.toolCallId === 'call-5');
    expect(denied(original)).toMatchObject({ output: { type: 'error-text', value: 'no' } });
    const live = models[3]?.doStreamCalls[1]?.prompt ?? [];
    expect(denied(live)).toMatchObject({ output: { type: 'execution-denied', reason: 'no' } });
    expect(denied(rebuilt)).toMatchObject({ output: { type: 'execution-denied', reason: 'no' } });
    Object.assign(denied(original) as object, {
      output: { type: 'execution-denied', reason: 'no' },
    });
    expect(rebuilt).toStrictEqual(original);
  });
});

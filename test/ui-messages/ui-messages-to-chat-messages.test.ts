import type { UIMessage } from 'ai';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChunklogError } from '../../src/errors/index.js';
import { createChunkStore } from '../../src/store/index.js';
import {
  fromUIMessages,
  toUIMessages,
  UI_MESSAGE_ENVELOPE,
  uiMessagesToChatMessages,
} from '../../src/ui-messages/index.js';
import { persistedThread } from './support/ai-sdk-thread.js';

async function rejection(promise: Promise<unknown>): Promise<ChunklogError> {
  try {
    await promise;
  } catch (error) {
    if (ChunklogError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

const user = (id: string, text: string): UIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

describe('uiMessagesToChatMessages', () => {
  let thread: UIMessage[];
  beforeAll(async () => {
    thread = await persistedThread();
  });

  it('imports a thread persisted the AI SDK way and gives it back unchanged', async () => {
    const messages = await uiMessagesToChatMessages(thread);
    expect(messages.map((m) => m.id)).toStrictEqual([
      'user-0:user',
      'user-0:assistant',
      'user-1:user',
      'user-1:assistant',
      'user-2:user',
      'user-2:assistant',
      'user-3:user',
      'user-3:assistant',
    ]);
    expect(toUIMessages(messages)).toStrictEqual(thread);
  });

  it('groups each user message with the assistant answer after it, in steps', async () => {
    const [, answer] = await uiMessagesToChatMessages(thread);
    expect(answer?.chunks.map((c) => [c.type, c.step])).toStrictEqual([
      ['data', 0],
      ['thinking', 0],
      ['text', 0],
      ['tool-batch', 0],
      ['text', 1],
    ]);
    expect(answer?.chunks[0]).toStrictEqual({
      type: 'data',
      step: 0,
      name: UI_MESSAGE_ENVELOPE,
      data: { id: 'assistant-0' },
    });
  });

  it("takes chunklog's ids when asked not to keep the app's", async () => {
    const messages = await uiMessagesToChatMessages(thread, { keepIds: false });
    expect(messages.some((m) => m.chunks.some((c) => c.type === 'data'))).toBe(false);
    expect(toUIMessages(messages).map((m) => m.id)[1]).toBe('user-0:assistant');
  });

  it('keeps message metadata', async () => {
    const withMetadata = [{ ...user('u', 'hi'), metadata: { createdAt: 1, tags: ['a'] } }];
    const messages = await uiMessagesToChatMessages(withMetadata);
    expect(toUIMessages(messages)).toStrictEqual(withMetadata);
  });

  it('imports a system UI message as a notice, never sent to the model', async () => {
    const [system] = await uiMessagesToChatMessages([
      { id: 'sys', role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
    ]);
    expect(system).toMatchObject({ role: 'system', turnId: 'sys' });
    // Notices only: no envelope for the id (a system message holds nothing else).
    expect(system?.chunks).toStrictEqual([
      { type: 'system', step: 0, kind: 'notice', text: 'Be brief.' },
    ]);
  });

  it('imports a system UI message the store accepts with the default options', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    try {
      const turns = await fromUIMessages([
        { id: 's1', role: 'system', parts: [{ type: 'text', text: 'You are a pirate.' }] },
        user('u1', 'Ahoy?'),
      ]);
      for (const { drafts } of turns) await store.appendTurn('imported', drafts);
      expect((await store.getRows('imported')).map((r) => [r.role, r.type])).toEqual([
        ['system', 'system'],
        ['user', 'data'],
        ['user', 'text'],
      ]);
    } finally {
      await store.close();
    }
  });

  it('refuses a system UI message with metadata (strict), and leaves it out with strict: false', async () => {
    const system: UIMessage = {
      id: 's1',
      role: 'system',
      metadata: { at: 1 },
      parts: [{ type: 'text', text: 'Be brief.' }],
    };
    const error = await rejection(uiMessagesToChatMessages([system]));
    expect([error.code, error.path]).toEqual(['invalid-ui-message', [0, 'metadata']]);
    const [kept] = await uiMessagesToChatMessages([system], { strict: false });
    expect(kept?.chunks).toStrictEqual([
      { type: 'system', step: 0, kind: 'notice', text: 'Be brief.' },
    ]);
  });

  it('says what is wrong in a short message that repeats none of the chat', async () => {
    const chat = Array.from({ length: 200 }, (_, i) => user(`u${i}`, `private words ${i}`));
    (chat[150]?.parts[0] as { text: unknown }).text = 42;
    const error = await rejection(uiMessagesToChatMessages(chat));
    expect(error.path).toEqual([150, 'parts', 0, 'text']);
    expect(error.message).toBe(
      'UI message 150, part 0 (text) at text: rejected by validateUIMessages (Invalid input: expected string, received number)',
    );
    expect(error.message).not.toContain('private words');
  });

  it('refuses a message whose id cannot be a turn id, naming it, before anything is written', async () => {
    for (const id of ['bad\nid', 'x'.repeat(256)]) {
      const error = await rejection(uiMessagesToChatMessages([user('u0', 'fine'), user(id, 'x')]));
      expect([error.code, error.path]).toEqual(['invalid-ui-message', [1, 'id']]);
      expect(error.message).toMatch(/^UI message 1 at id: its id is the turn's id, which must/);
    }
  });

  it('accepts an empty list, and refuses what is not a list', async () => {
    await expect(uiMessagesToChatMessages([])).resolves.toStrictEqual([]);
    const error = await rejection(uiMessagesToChatMessages({ id: 'x' }));
    expect(error.code).toBe('invalid-ui-message');
  });

  it('names the message and the part validateUIMessages rejects', async () => {
    const broken = [
      user('u', 'hi'),
      {
        id: 'a',
        role: 'assistant',
        parts: [{ type: 'step-start' }, { type: 'tool-x', toolCallId: 'c', state: 'bogus' }],
      },
    ];
    const error = await rejection(uiMessagesToChatMessages(broken));
    expect(error.code).toBe('invalid-ui-message');
    expect(error.path?.slice(0, 3)).toStrictEqual([1, 'parts', 1]);
    expect(error.message).toContain('UI message 1, part 1 (tool-x)');
  });

  it("checks tool input against the app's tool schemas", async () => {
    const stored = [
      user('u', 'hi'),
      {
        id: 'a',
        role: 'assistant',
        parts: [
          { type: 'tool-weather', toolCallId: 'c', state: 'input-available', input: { city: 3 } },
        ],
      },
    ];
    const error = await rejection(
      uiMessagesToChatMessages(stored, {
        tools: { weather: { inputSchema: z.object({ city: z.string() }) } },
      }),
    );
    expect(error.path).toStrictEqual([1, 'parts', 0, 'input']);
    expect(error.message).toContain('UI message 1, part 0 (tool-weather)');
  });

  it('refuses a field chunklog cannot keep unless told to leave it out', async () => {
    const stored = [
      {
        id: 'a',
        role: 'assistant',
        parts: [
          {
            type: 'tool-weather',
            toolCallId: 'c',
            state: 'input-available',
            input: {},
            toolMetadata: { owner: 'me' },
          },
        ],
      },
    ];
    const error = await rejection(uiMessagesToChatMessages(stored));
    expect(error.path).toStrictEqual([0, 'parts', 0, 'toolMetadata']);
    expect(error.message).toContain('toolMetadata');
    const [lenient] = await uiMessagesToChatMessages(stored, { strict: false });
    expect(lenient?.chunks.at(-1)).toStrictEqual({
      type: 'tool-batch',
      step: 0,
      calls: [{ id: 'c', name: 'weather', input: {} }],
    });
  });

  it('reserves the data-chunklog- prefix and checks chunklog data parts', async () => {
    const reserved = await rejection(
      uiMessagesToChatMessages([
        { id: 'a', role: 'assistant', parts: [{ type: 'data-chunklog-other', data: 1 }] },
      ]),
    );
    expect(reserved.path).toStrictEqual([0, 'parts', 0]);
    const malformed = await rejection(
      uiMessagesToChatMessages([
        {
          id: 'a',
          role: 'assistant',
          parts: [{ type: 'data-chunklog-system', data: { kind: 'gossip', text: 'x' } }],
        },
      ]),
    );
    expect(malformed.path).toStrictEqual([0, 'parts', 0, 'data', 'kind']);
    const orphan = await rejection(
      uiMessagesToChatMessages([
        {
          id: 'a',
          role: 'assistant',
          parts: [
            { type: 'data-chunklog-tool-progress', id: 'c9', data: { toolCallId: 'c9', text: '' } },
          ],
        },
      ]),
    );
    expect(orphan.message).toContain('c9');
  });

  it('refuses a steering message with a file, and two turns with one id', async () => {
    const steering = await rejection(
      uiMessagesToChatMessages([
        {
          id: 'a',
          role: 'assistant',
          parts: [
            {
              type: 'steering-message',
              id: 's',
              parts: [{ type: 'file', mediaType: 'image/png', url: 'https://x/y.png' }],
            },
          ],
        },
      ]),
    );
    expect(steering.path).toStrictEqual([0, 'parts', 0, 'parts', 0]);
    const twice = await rejection(uiMessagesToChatMessages([user('u', 'a'), user('u', 'b')]));
    expect(twice.path).toStrictEqual([1, 'id']);
  });
});

import type { UIMessage, UIMessageChunk, UITools } from 'ai';
import { expectTypeOf, test } from 'vitest';
import type { ChatMessage } from '../../src/schema/index.js';
import {
  type ChunklogUIDataTypes,
  isChunklogSystemPart,
  toUIMessages,
  UIChunkDiffer,
  uiMessagesToChatMessages,
} from '../../src/ui-messages/index.js';

type AppMessage = UIMessage<{ createdAt: number }, ChunklogUIDataTypes, UITools>;

test('toUIMessages gives plain UIMessages, or the app’s own message type', () => {
  const messages: ChatMessage[] = [];
  expectTypeOf(toUIMessages(messages)).toEqualTypeOf<UIMessage[]>();
  expectTypeOf(toUIMessages<AppMessage>(messages)).toEqualTypeOf<AppMessage[]>();
});

test("chunklog's data parts are typed in an app's message", () => {
  const message = {} as AppMessage;
  const part = message.parts[0];
  if (part !== undefined && part.type === 'data-chunklog-system') {
    expectTypeOf(part.data.kind).toEqualTypeOf<
      | 'notice'
      | 'model-changed'
      | 'config-reload'
      | 'cancelled'
      | 'interrupted'
      | 'context-truncated'
      | 'resumed'
      | 'redacted'
    >();
  }
  if (part !== undefined && isChunklogSystemPart(part)) {
    expectTypeOf(part.data.text).toEqualTypeOf<string>();
  }
});

test('the import takes untrusted input and gives chat messages', () => {
  expectTypeOf(uiMessagesToChatMessages).parameter(0).toEqualTypeOf<unknown>();
  expectTypeOf(uiMessagesToChatMessages(null)).resolves.toEqualTypeOf<ChatMessage[]>();
  expectTypeOf(new UIChunkDiffer().update).returns.toEqualTypeOf<UIMessageChunk[]>();
});

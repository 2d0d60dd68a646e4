import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChunkRow } from '../../src/schema/index.js';
import { groupRowsToMessages } from '../../src/transforms/index.js';
import {
  fromUIMessages,
  toUIMessages,
  turnDrafts,
  uiMessagesToChatMessages,
} from '../../src/ui-messages/index.js';
import { chatThread } from './arbitraries.js';

describe('chunks → UI messages → chunks', () => {
  it('is the identity for every thread a UIMessage can hold', async () => {
    await fc.assert(
      fc.asyncProperty(chatThread, async (messages) => {
        const ui = toUIMessages(messages);
        // What an app stores: JSON.
        const stored: unknown = JSON.parse(JSON.stringify(ui));
        expect(await uiMessagesToChatMessages(stored)).toStrictEqual(messages);
      }),
      { numRuns: 300 },
    );
  });
});

describe('chunks → UI messages → row drafts → stored rows → chunks', () => {
  it('groups to the messages the original chunks group to', async () => {
    const stored = (drafts: ReturnType<typeof turnDrafts>): ChunkRow[] =>
      drafts.flatMap((t) => t.drafts).map((d, i) => ({ ...d, threadId: 'th', seq: i + 1 }));
    await fc.assert(
      fc.asyncProperty(chatThread, async (messages) => {
        const imported = await fromUIMessages(JSON.parse(JSON.stringify(toUIMessages(messages))));
        expect(groupRowsToMessages(stored(imported))).toStrictEqual(
          groupRowsToMessages(stored(turnDrafts(messages))),
        );
      }),
      { numRuns: 200 },
    );
  });
});

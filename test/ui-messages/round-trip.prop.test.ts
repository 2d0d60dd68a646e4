import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toUIMessages, uiMessagesToChatMessages } from '../../src/ui-messages/index.js';
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

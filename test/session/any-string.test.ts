// A turn holding strings a native JSON column refuses (NUL: a tool that reads a binary file;
// lone surrogates) is stored whole on every dialect, and a
// fresh session sends the same next model input (notes/0126).
import { tool } from 'ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentSession, createAgentSession } from '../../src/entries/session.js';
import { createScriptedModel } from '../../src/testing/index.js';
import {
  availableDialects,
  createHarness,
  type DialectHarness,
} from '../store/support/dialects.js';
import { sequentialIds } from './support.js';

const harnesses: DialectHarness[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.dispose();
});
const sessions: AgentSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

const available = await availableDialects();
const ODD = 'nul \u0000 lone \ud800 end';

describe.each(['sqlite', 'postgres', 'mysql'] as const)('a session on %s', (name) => {
  it.skipIf(!available.includes(name))(
    'stores a turn whose text and tool result hold NUL and lone surrogates, and reads it back exact',
    async () => {
      const harness = createHarness(name);
      harnesses.push(harness);
      const store = harness.openStore();
      await store.migrate();
      const open = () => {
        const session = createAgentSession({
          store,
          threadId: 'odd',
          model: createScriptedModel([
            { parts: [{ type: 'tool-call', toolName: 'read', input: { path: 'a.bin' } }] },
            { parts: [{ type: 'text', text: `read: ${ODD}` }] },
          ]),
          tools: {
            read: tool({
              description: 'Reads a file',
              inputSchema: z.object({ path: z.string() }),
              execute: async () => `bytes ${ODD}`,
            }),
          },
          idGenerator: sequentialIds(),
        });
        sessions.push(session);
        return session;
      };
      const session = open();
      const turn = session.send(`user ${ODD}`);
      expect((await turn.result).outcome).toBe('completed');
      const rows = await turn.rows;
      const stored = await store.getRows('odd');
      expect(stored.map((r) => r.data)).toStrictEqual(rows.map((r) => r.data));
      const all = JSON.stringify(stored.map((r) => r.data));
      expect(all.split(JSON.stringify(ODD).slice(1, -1)).length - 1).toBe(3);
      // A fresh session reads the thread afresh and sends the same next input.
      expect(await open().modelMessages('next')).toStrictEqual(await session.modelMessages('next'));
    },
  );
});

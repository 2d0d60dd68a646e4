// ChunkWindow.reconcile over a turn stored step by step: the stored part of the running turn and
// its live events merge without a duplicate or a gap, mid-turn and after the turn ends.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentSession } from '../../src/entries/session.js';
import { createChunkStore } from '../../src/store/index.js';
import { createScriptedModel } from '../../src/testing/index.js';
import { groupRowsToMessages } from '../../src/transforms/index.js';
import { ChunkWindow, type LogEntry } from '../../src/window/index.js';
import { listFiles, readFile, slowTool } from '../session/fixtures.js';

function content(entry: LogEntry): unknown {
  return {
    turnId: entry.turnId,
    step: entry.step,
    role: entry.role,
    type: entry.type,
    data: entry.data,
  };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('reconcile with a turn stored step by step', () => {
  it('keeps the live running turn whole while its steps land, then takes its stored rows', async () => {
    const store = createChunkStore({ sqlite: ':memory:' });
    await store.migrate();
    closers.push(() => store.close());
    const slow = slowTool();
    let ids = 0;
    const session = createAgentSession({
      store,
      threadId: 'w',
      model: createScriptedModel([
        { parts: [{ type: 'text', text: 'Earlier.' }] },
        {
          parts: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool-call', toolName: 'read_file', input: { path: 'a.ts' } },
            { type: 'tool-call', toolName: 'list_files', input: { dir: '.' } },
          ],
        },
        { parts: [{ type: 'tool-call', toolName: 'slow', input: { ms: 1 } }] },
        { parts: [{ type: 'text', text: 'Done.' }] },
      ]),
      tools: { read_file: readFile, list_files: listFiles, slow: slow.tool },
      idGenerator: () => `t${++ids}`,
      durability: 'step',
    });
    closers.push(() => session.close());
    await session.send('first').rows;

    const window = new ChunkWindow({ limit: 100, loadPage: (r) => store.getChunks('w', r) });
    await window.loadOlder();
    session.subscribe((event) => window.apply(event));
    window.addPendingUserMessage('second');
    const turn = session.send('second');
    await slow.started;
    // Step 0 of t2 is stored while t2 runs.
    for (;;) {
      const info = await store.getTurnInfo('w', 't2');
      if (info !== null && info.nextSeq - info.firstSeq > 1) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await store.getChunks('w')).turnStatus).toEqual({ t2: 'running' });
    const liveBefore = window.log.map(content);
    await window.reconcile();
    // Nothing twice, nothing lost: the live turn stays as it was.
    expect(window.log.map(content)).toEqual(liveBefore);
    expect(window.liveTurnId).toBe('t2');

    slow.release('ok');
    await turn.rows;
    await window.reconcile();
    const rows = await store.getRows('w');
    expect(window.log.map((e) => e.seq)).toEqual(rows.map((r) => r.seq));
    expect(window.log.every((e) => !e.live)).toBe(true);
    expect(window.groups).toEqual(groupRowsToMessages(rows));
  });
});

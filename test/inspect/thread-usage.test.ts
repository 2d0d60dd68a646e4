// The usage a thread's page shows is what the steps recorded on its own rows used
// (`getThreadUsage`): a fork by reference, or an alternative, reads its turns up to its fork seq
// from its parent, and its page says that those are counted there (a fork with no turn of its own
// showed a bare "—"); the turns list shows each turn's usage wherever its rows are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInspector } from '../../src/inspect/inspector.js';
import { inspectorHosts } from '../../src/inspect/serve.js';
import type { ChunkRowDraft } from '../../src/schema/index.js';
import { type ChunkStore, createChunkStore, type StepUsage } from '../../src/store/index.js';

function qa(turnId: string, question: string): ChunkRowDraft[] {
  return [
    { turnId, step: 0, role: 'user', type: 'text', data: { text: question } },
    { turnId, step: 0, role: 'assistant', type: 'text', data: { text: `answer to ${question}` } },
  ];
}
const used = (inputTokens: number): StepUsage[] => [
  { step: 0, modelId: 'm', usage: { inputTokens, outputTokens: 10 } },
];

let store: ChunkStore;
beforeAll(async () => {
  store = createChunkStore({ sqlite: ':memory:' });
  await store.migrate();
  await store.appendTurn('parent', qa('t1', 'one'), { usage: used(100) });
  await store.appendTurn('parent', qa('t2', 'two'), { usage: used(200) });
  // A fork at the parent's end with no turn of its own, and one with a turn of its own.
  await store.forkThread('parent', { atSeq: 4, newThreadId: 'bare' });
  await store.forkThread('parent', { atSeq: 4, newThreadId: 'grown' });
  await store.appendTurn('grown', qa('g1', 'three'), { usage: used(300) });
  await store.addAlternative('parent', { turnId: 't2', newThreadId: 'alt' });
  await store.appendTurn('alt', qa('t2b', 'two again'), { usage: used(250) });
});
afterAll(() => store.close());

async function page(path: string) {
  const handler = createInspector(store, {
    source: 'test.db',
    hosts: inspectorHosts('127.0.0.1', 4000),
  });
  const response = await handler(
    new Request(`http://inspector.invalid${path}`, { headers: { host: 'localhost:4000' } }),
  );
  return response.text();
}

/** The thread's usage fact, tags stripped. */
const usage = (html: string) =>
  /<dt>usage<\/dt><dd class="usage">(.*?)<\/dd>/s
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .replaceAll('&#39;', "'");
/** The tokens cell of each turn in the list, newest first. */
const turnTokens = (html: string) =>
  [
    ...html.matchAll(
      /<tr class="turn [^"]*">.*?<td class="num">\d+<\/td><td class="num">([^<]*)</gs,
    ),
  ].map((m) => m[1]);

describe("the usage on a fork's page", () => {
  it('says a fork with no turn of its own has none, and that its parent counts the turns it reads', async () => {
    const bare = await page('/threads/bare');
    expect(usage(bare)).toBe(
      'none (on the turns this fork holds, after seq 4: those up to it are read from parent and counted there; each turn below shows its own)',
    );
    expect(bare).toContain(
      'read from <a href="/threads/parent"><code class="id">parent</code></a>',
    );
    // Each turn read from the parent shows its usage.
    expect(turnTokens(bare)).toEqual(['200 in · 10 out', '100 in · 10 out']);
  });

  it("counts a fork's own turns, and says so", async () => {
    const grown = await page('/threads/grown');
    expect(usage(grown)).toBe(
      'in 300 · out 10 over 1 turn(s), 1 step(s) (on the turns this fork holds, after seq 4: those up to it are read from parent and counted there; each turn below shows its own)',
    );
    expect(turnTokens(grown)).toEqual(['300 in · 10 out', '200 in · 10 out', '100 in · 10 out']);
    // A conversation shown on its own path: its usage is all of that path's, no note.
    expect(usage(await page('/threads/parent?path=parent'))).toBe(
      'in 300 · out 20 over 2 turn(s), 2 step(s)',
    );
  });

  it("says an alternative's usage is its version's turns, and a conversation's its own path's", async () => {
    expect(usage(await page('/threads/alt'))).toBe(
      'in 250 · out 10 over 1 turn(s), 1 step(s) (on the turns this version holds, after seq 2: those up to it are read from parent and counted there; each turn below shows its own)',
    );
    // The conversation opens on alt's path, its usage its own path's.
    expect(usage(await page('/threads/parent'))).toBe(
      "in 300 · out 20 over 2 turn(s), 2 step(s) (on the conversation's own path, not the path shown: alternative alt counts its own turns on its page; each turn below shows its own)",
    );
  });
});

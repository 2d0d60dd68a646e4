// Retention sentinels at fork points in the inspector (notes/0121): expiry keeps a sentinel where
// each fork stops reading the rows it cut, and the thread's turns and rows pages name the forks a
// sentinel stands for, each a link to its page, from the forks the page lists; a sentinel at no
// fork point names none, and a page that lists only some forks says others may fork there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectedStore } from '../../src/inspect/reads.js';
import { type ChunkStore, createChunkStore } from '../../src/store/index.js';
import { DAY, qa, T0 } from '../store/support/retention-turns.js';
import { inspectorGet } from './support.js';

/** A fork whose id is HTML. */
const EVIL = `fork<b>"&`;
const EVIL_LINK = `<a href="/threads/${encodeURIComponent(EVIL)}"><code class="id">fork&lt;b&gt;&quot;&amp;</code></a>`;
const link = (threadId: string) =>
  `<a href="/threads/${threadId}"><code class="id">${threadId}</code></a>`;

const at = (day: number) => ({ createdAt: new Date(T0 + day * DAY) });

let store: ChunkStore;
beforeAll(async () => {
  store = createChunkStore({ sqlite: ':memory:' }, { now: () => T0 + 10 * DAY });
  await store.migrate();
  // parent: three old turns (seqs 1–6), then a fresh one (7–8). Two forks at seq 2, one at 8.
  for (let i = 0; i < 3; i++) await store.appendTurn('parent', qa(`p${i}`, `old ${i}`), at(0));
  await store.appendTurn('parent', qa('p3', 'fresh'), at(9));
  await store.forkThread('parent', { atSeq: 2, newThreadId: 'early' });
  await store.appendTurn('early', qa('e0', 'early fresh'), at(9));
  await store.forkThread('parent', { atSeq: 2, newThreadId: EVIL });
  await store.forkThread('parent', { atSeq: 8, newThreadId: 'late' });
  // A sentinel at seq 2 (where early and EVIL stop reading), one at 6 (the last row removed).
  await store.expire({ threadId: 'parent', before: new Date(T0 + 5 * DAY) });
});
afterAll(() => store.close());

async function get(path: string, target: InspectedStore = store): Promise<string> {
  const page = await inspectorGet(target, path);
  expect(page.status, path).toBe(200);
  return page.text;
}

/** What the turns list says of each turn of `threadId`, by turn id. */
const said = (html: string, threadId: string) =>
  Object.fromEntries(
    [
      ...html.matchAll(
        new RegExp(
          `<td><a href="/threads/${threadId}/turns/([^"]+)">.*?<td class="said">(.*?)</td></tr>`,
          'gs',
        ),
      ),
    ].map((m) => [m[1], m[2]]),
  );
/** The data cell of each row of a rows page, by seq. */
const dataCells = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/id="seq-(\d+)">.*?<td class="data">(.*?)<\/td>/gs)].map((m) => [
      Number(m[1]),
      m[2],
    ]),
  );

describe('retention sentinels at fork points in the inspector', () => {
  it("names the forks a sentinel at a fork point stands for, each a link to its page, on the thread's turns and rows", async () => {
    expect((await store.getRows('parent')).map((r) => `${r.seq}:${r.turnId}`)).toEqual([
      '2:expired-2',
      '6:expired-6',
      '7:p3',
      '8:p3',
    ]);
    const turns = said(await get('/threads/parent'), 'parent');
    expect(Object.keys(turns)).toEqual(['p3', 'expired-6', 'expired-2']);
    expect(turns['expired-2']).toContain('1 earlier turn was removed by retention');
    const forks = turns['expired-2']?.match(/<span class="fork-point">fork point of (.*)<\/span>$/);
    expect(forks?.[1]?.split(', ').sort()).toEqual([EVIL_LINK, link('early')].sort());
    // The last row removed is no fork point; a fork at a row that is no sentinel is not named.
    expect(turns['expired-6']).toContain('2 earlier turns were removed by retention');
    expect(turns['expired-6']).not.toContain('fork-point');
    expect(turns.p3).toBe('fresh');

    const rows = dataCells(await get('/threads/parent/rows'));
    expect(rows[2]).toContain(`fork point of `);
    expect(rows[2]).toContain(link('early'));
    expect(rows[2]).toContain(EVIL_LINK);
    for (const seq of [6, 7, 8]) expect(rows[seq], String(seq)).not.toContain('fork-point');
    // A fork's page names none of its siblings: they are not its forks.
    expect(await get('/threads/early')).not.toContain('fork-point');
  });

  it('says that forks beyond those listed may fork at a sentinel, reading no more of them', async () => {
    // A store that lists EVIL and late as parent's forks, and says there are more (early).
    const forkLists: string[] = [];
    const partial: InspectedStore = Object.assign(Object.create(store), {
      listThreads: async (options: Parameters<ChunkStore['listThreads']>[0]) => {
        const page = await store.listThreads(options);
        if (options?.forkOf === undefined) return page;
        forkLists.push(options.forkOf);
        return { ...page, threads: page.threads.filter((t) => t.id !== 'early'), hasMore: true };
      },
    });
    const turns = said(await get('/threads/parent', partial), 'parent');
    expect(turns['expired-2']).toContain(
      `fork point of ${EVIL_LINK}; forks beyond the 2 listed may fork here too</span>`,
    );
    expect(turns['expired-2']).not.toContain(link('early'));
    expect(turns['expired-6']).toContain(
      '<span class="fork-point">forks beyond the 2 listed may fork here</span>',
    );
    expect(forkLists).toEqual(['parent']);
  });

  it('names a fork of a conversation only where the path shown reads its fork point', async () => {
    const own = createChunkStore({ sqlite: ':memory:' }, { now: () => T0 + 10 * DAY });
    try {
      await own.migrate();
      for (let i = 0; i < 3; i++) await own.appendTurn('c', qa(`c${i}`, `old ${i}`), at(0));
      // The active version of c's third turn (seqs 5–6 of its own, old), then a fresh turn.
      await own.addAlternative('c', { turnId: 'c2', newThreadId: 'alt' });
      await own.appendTurn('alt', qa('a2', 'old again'), at(0));
      await own.appendTurn('alt', qa('a3', 'fresh'), at(9));
      // Forks of c: at seq 2 (alt reads it), and at seq 6 (c's own third turn; alt's is its own).
      await own.forkThread('c', { atSeq: 2, newThreadId: 'c-early' });
      await own.forkThread('c', { atSeq: 6, newThreadId: 'c-late' });
      await own.expire({ before: new Date(T0 + 5 * DAY) });
      expect((await own.getRows('alt')).map((r) => r.turnId)).toEqual([
        'expired-2',
        'expired-4',
        'expired-6',
        'a3',
        'a3',
      ]);
      expect((await own.getRows('c')).map((r) => r.turnId)).toContain('expired-6');
      // The conversation opens on alt: its sentinel at 6 is its own, not where c-late forks.
      const active = said(await get('/threads/c', own), 'alt');
      expect(active['expired-2']).toContain(`fork point of ${link('c-early')}</span>`);
      expect(active['expired-4']).not.toContain('fork-point');
      expect(active['expired-6']).not.toContain('fork-point');
      const conv = said(await get('/threads/c?path=c', own), 'c');
      expect(conv['expired-2']).toContain(`fork point of ${link('c-early')}</span>`);
      expect(conv['expired-6']).toContain(`fork point of ${link('c-late')}</span>`);
    } finally {
      await own.close();
    }
  });
});
